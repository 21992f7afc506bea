"""What the commands say and refuse about named models, from the catalog."""

from __future__ import annotations

from costsense.cli._options import UsageError
from costsense.experiments import CATALOG, default_base, refusals

__all__ = ["check_models", "default_base_shown", "model_notes"]


def model_notes(models: list[str], base: str | None) -> dict[str, list[str]]:
    """Say what each model does with ``--base`` and ``--cost``, for its row."""
    notes: dict[str, list[str]] = {}
    for name in models:
        spec = CATALOG[name]
        found = []
        if not spec.uses_base and base is not None:
            found.append("ignores --base (no base learner)")
        if not spec.cost_sensitive:
            found.append("cost-blind: the costs do not shape its model")
        notes[name] = found
    return notes


def check_models(
    models: list[str], base: str | None, *, n_classes: int = 2, row_costs: bool = False
) -> None:
    """Refuse, before any fit, what the catalog says cannot run."""
    problems = refusals(models, base, n_classes=n_classes, row_costs=row_costs)
    if problems:
        raise UsageError("; ".join(f"{option}: {text}" for option, text in problems))


def default_base_shown(model: str, base: str | None) -> str:
    """Name the base learner a model's row ran on ("-": it uses none)."""
    if not CATALOG[model].uses_base:
        return "-"
    return base if base is not None else default_base(model)

"""Warnings of many fits: recorded, not printed; one summary line per kind."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import precision_score

from costsense.experiments import WarningTally, collect_warnings
from costsense.experiments._warnings import count_warnings


class DegenerateModelWarning(UserWarning):
    """Stands for costsense's own warning (matched by its class name)."""


def _fit(*messages, category=ConvergenceWarning):
    """Records of one fake fit raising ``messages`` (from one source line)."""
    with collect_warnings() as records:
        for message in messages:
            warnings.warn(message, category, stacklevel=1)
    return records


def test_a_warning_repeated_from_one_line_is_recorded_every_time_not_printed(capsys):
    with collect_warnings() as records:
        for _ in range(3):
            warnings.warn("same line", RuntimeWarning, stacklevel=1)
    assert len(records) == 3
    assert capsys.readouterr().err == ""


def test_warnings_turned_into_errors_still_raise():
    with warnings.catch_warnings():
        warnings.filterwarnings("error", category=FutureWarning)
        with pytest.raises(FutureWarning, match="going away"):
            with collect_warnings():
                warnings.warn("going away", FutureWarning, stacklevel=1)
        # other categories are still recorded
        with collect_warnings() as records:
            warnings.warn("kept", RuntimeWarning, stacklevel=1)
        assert [str(r.message) for r in records] == ["kept"]


def test_numbers_are_normalised_but_digits_in_names_are_kept():
    text = "AdaC2Classifier: 12 rounds, tol=1e-3, edge -0.25\nmore"
    ((_, message, _, _),) = count_warnings(_fit(text))
    assert message == "AdaC2Classifier: N rounds, tol=N, edge N"
    ((_, message, _, _),) = count_warnings(_fit("x" * 400))
    assert message.endswith("...") and len(message) == 300


def test_three_warnings_in_each_of_four_fits_give_one_line_counting_twelve():
    tally = WarningTally()
    for fit in range(4):
        records = _fit(
            *(f"did not converge in {100 * (fit + k)} epochs" for k in (1, 2, 3))
        )
        tally.add("CS-LDM", records)
    # grouped by their text with numbers aside, shown as first raised
    assert tally.lines() == [
        "CS-LDM: 12 ConvergenceWarning in 4 fits: did not converge in 100 epochs"
    ]
    assert tally.lines(unit="cell")[0].startswith(
        "CS-LDM: 12 ConvergenceWarning in 4 cells: "
    )


def test_one_line_per_algorithm_and_kind_with_the_most_frequent_message():
    tally = WarningTally()
    tally.add("A", _fit("stopped at 5", "stopped at 6", "other problem"))
    tally.add("A", _fit("a runtime thing", category=RuntimeWarning))
    tally.add("A", [])  # a fit without warnings counts nowhere
    tally.add("B", _fit("stopped at 7"))
    assert tally.lines() == [
        "A: 3 ConvergenceWarning in 1 fit: stopped at 5 (and 1 other message)",
        "A: 1 RuntimeWarning in 1 fit: a runtime thing",
        "B: 1 ConvergenceWarning in 1 fit: stopped at 7",
    ]


def test_undefined_metrics_and_degenerate_models_are_tallied_by_kind():
    from costsense.metrics import binary_precision_score as ours

    tally = WarningTally()
    with collect_warnings() as records:
        # no predicted positive: precision is 0/0
        assert precision_score(np.array([0, 1, 1]), np.array([0, 0, 0])) == 0.0
        ours(np.array([0, 1, 1]), np.array([0, 0, 0]), pos_label=1)
    tally.add("plain", records)
    tally.add("adacost", _fit("predicts one class", category=DegenerateModelWarning))
    text = "\n".join(tally.lines())
    assert "adacost: 1 DegenerateModelWarning in 1 fit: predicts one class" in text
    assert "plain: 2 UndefinedMetricWarning in 1 fit" in text


def test_numbers_of_the_text_and_long_messages_are_shown_whole():
    # the summary once wrote "(of N)" and "(Zhou & Liu N)" and cut at 300 chars
    long = "EFSBoost kept 3 features (of 8), as Zhou & Liu 2006 advise; " + "x " * 200
    tally = WarningTally()
    tally.add("efs", _fit(long, long, category=RuntimeWarning))
    (line,) = tally.lines()
    assert line == "efs: 2 RuntimeWarning in 1 fit: " + " ".join(long.split())

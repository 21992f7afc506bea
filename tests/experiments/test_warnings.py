"""Warnings of many fits: recorded, not printed; one summary line per kind."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import precision_score

from costsense.experiments import WarningTally, collect_warnings
from costsense.experiments._warnings import normalise_message


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
    assert (
        normalise_message("AdaC2Classifier: 12 rounds, tol=1e-3, edge -0.25\nmore")
        == "AdaC2Classifier: N rounds, tol=N, edge N"
    )
    assert normalise_message("x" * 400).endswith("...")
    assert len(normalise_message("x" * 400)) == 300


def test_three_warnings_in_each_of_four_fits_give_one_line_counting_twelve():
    tally = WarningTally()
    for fit in range(4):
        records = _fit(
            *(f"did not converge in {100 * (fit + k)} epochs" for k in (1, 2, 3))
        )
        tally.add("CS-LDM", records)
    # grouped by their text with numbers aside, shown as first raised
    assert tally.lines() == [
        "CS-LDM: 12 ConvergenceWarning in 4 fits: did not converge in 100 epochs "
        "(its numbers vary); the solver stopped at its iteration cap: raise "
        "max_iter, or loosen tol, in the algorithm's params"
    ]
    assert tally.counts == {
        ("CS-LDM", "ConvergenceWarning", "did not converge in N epochs"): [12, 4]
    }
    assert tally.kind_fits == {("CS-LDM", "ConvergenceWarning"): 4}
    assert tally.lines(unit="cell")[0].startswith(
        "CS-LDM: 12 ConvergenceWarning in 4 cells: "
    )


def test_one_line_per_algorithm_and_kind_with_the_most_frequent_message():
    tally = WarningTally()
    tally.add("A", _fit("stopped at 5", "stopped at 6", "other problem"))
    tally.add("A", _fit("a runtime thing", category=RuntimeWarning))
    tally.add("A", [])  # a fit without warnings counts nowhere
    tally.add("B", _fit("stopped at 7"))
    lines = tally.lines()
    assert len(lines) == 3
    assert lines[0].startswith(
        "A: 3 ConvergenceWarning in 1 fit: stopped at 5 (its numbers vary) (and 1 "
        "other message); "
    )
    # a kind without advice shows its message only
    assert lines[1] == "A: 1 RuntimeWarning in 1 fit: a runtime thing"
    # one text: shown as raised, its numbers kept
    assert lines[2].startswith("B: 1 ConvergenceWarning in 1 fit: stopped at 7; ")


def test_the_known_kinds_say_what_they_mean():
    tally = WarningTally()
    with collect_warnings() as records:
        # no predicted positive: precision is 0/0
        assert precision_score(np.array([0, 1, 1]), np.array([0, 0, 0])) == 0.0
    tally.add("plain", records)
    tally.add("adacost", _fit("predicts one class", category=DegenerateModelWarning))
    text = "\n".join(tally.lines())
    assert "adacost: 1 DegenerateModelWarning in 1 fit" in text
    assert "the model predicts one class" in text
    assert "plain: 1 UndefinedMetricWarning in 1 fit" in text
    assert "a fold with no predicted positive, so precision is undefined" in text


def test_advice_is_left_out_when_the_message_gives_it():
    tally = WarningTally()
    tally.add("ldm", _fit("LDM did not converge in 10 epochs; raise max_iter."))
    tally.add(
        "ldm",
        _fit(
            "LDM predicts only class 'a'; try a larger C",
            category=DegenerateModelWarning,
        ),
    )
    tally.add("svm", _fit("Liblinear failed to converge."))
    assert tally.lines() == [
        "ldm: 1 ConvergenceWarning in 1 fit: LDM did not converge in 10 epochs; "
        "raise max_iter.",
        "ldm: 1 DegenerateModelWarning in 1 fit: LDM predicts only class 'a'; try "
        "a larger C",
        # the advice follows the message, its full stop dropped
        "svm: 1 ConvergenceWarning in 1 fit: Liblinear failed to converge; the "
        "solver stopped at its iteration cap: raise max_iter, or loosen tol, in "
        "the algorithm's params",
    ]


def test_costsense_metrics_undefined_precision_gets_its_advice():
    from costsense.metrics import binary_precision_score as ours

    tally = WarningTally()
    with collect_warnings() as records:
        ours(np.array([0, 1, 1]), np.array([0, 0, 0]), pos_label=1)
    tally.add("plain", records)
    (line,) = tally.lines()
    assert line.startswith("plain: 1 UndefinedMetricWarning in 1 fit: ")
    assert line.endswith(
        "a fold with no predicted positive, so precision is undefined (reported as 0)"
    )


def test_numbers_of_the_text_and_long_messages_are_shown_whole():
    # the summary once wrote "(of N)" and "(Zhou & Liu N)" and cut at 300 chars
    long = "EFSBoost kept 3 features (of 8), as Zhou & Liu 2006 advise; " + "x " * 200
    tally = WarningTally()
    tally.add("efs", _fit(long, long, category=RuntimeWarning))
    (line,) = tally.lines()
    assert line == "efs: 2 RuntimeWarning in 1 fit: " + " ".join(long.split())


def test_a_degenerate_model_that_explains_itself_gets_no_boosting_advice():
    tally = WarningTally()
    message = (
        "MinimumCostClassifier predicts only class 1 (of 2) on its own training "
        "data (why: the chosen option finds one class cheapest); check the cost"
    )
    tally.add("minimum-cost", _fit(message, category=DegenerateModelWarning))
    (line,) = tally.lines()
    assert "stop_reason_" not in line and "rounds" not in line
    assert line.endswith(message)

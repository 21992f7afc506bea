"""A paper's claims checked on results: each kind against constructed results.

The constructed cases are those a sceptical reader tries first: a mean driven by
one outlier, an overshoot, a small gain on every row, rows never run, a zero
baseline, ties, a missing cell. Each must get the verdict the README's table
defines, whatever the old checker said.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from costsense.experiments import check_claims, load_study
from costsense.experiments._claims import bootstrap_interval, claim_problem, row_verdict
from costsense.experiments._stats import welch_interval

SETS = [f"d{i}" for i in range(8)]


def cells(values, metric="f1", splits=1, repeat_noise=None):
    """Results with one cell per (dataset, algorithm, split) from row means.

    ``values`` maps dataset -> algorithm -> mean (or a list of split values).
    """
    rows = []
    for dataset, algorithms in values.items():
        for algorithm, value in algorithms.items():
            folds = value if isinstance(value, list) else [value] * splits
            for fold, v in enumerate(folds):
                rows.append(
                    {
                        "dataset": dataset,
                        "cost": "1",
                        "algorithm": algorithm,
                        "repeat": 0,
                        "fold": fold,
                        metric: v,
                    }
                )
    return pd.DataFrame(rows)


def change_results(changes, base=0.5):
    """Algorithm A's F is ``base * (1 + change)`` per set; baseline B's is ``base``."""
    return cells(
        {
            d: {"A": base * (1 + c), "B": base}
            for d, c in zip(SETS, changes, strict=True)
        }
    )


def change_claim(value, **extra):
    return {"text": "t", "source": "s", "kind": "mean_change", "metric": "f1",
            "algorithm": "A", "baseline": "B", "value": value, **extra}  # fmt: skip


def check(results, claim, rows=None, **options):
    (result,) = check_claims(results, [claim], rows, **options)
    return result


def by_means(results, claim, rows=None):
    """Check on the means (``paired=False``): the rule for results without splits."""
    return check(results, claim, rows, paired=False)


# ---------------------------------------------------------------- mean_change


def test_a_mean_driven_by_one_outlier_is_not_shown():
    # worse on 4 of 8 sets, one +45 % outlier: the mean (+5 %) meets the claim,
    # but only 4 of 8 rows move in the claimed direction
    changes = [-0.02] * 4 + [0.01] * 3 + [0.45]
    assert np.isclose(np.mean(changes), 0.05)
    result = check(change_results(changes), change_claim(0.05))
    assert result.verdict == "not shown"
    assert result.tally == "better on 4, against on 4 of 8 rows"
    assert result.failing == 4


def test_an_overshoot_is_larger_than_claimed_with_both_numbers():
    changes = list(np.linspace(0.29, 0.31, 8))
    result = check(change_results(changes), change_claim(0.067))
    assert result.verdict == "larger than claimed"
    assert "+30.0 %" in result.evidence and "claimed +6.7 %" in result.evidence
    # the claimed size inside the interval and near the estimate: reproduced
    changes = list(np.linspace(0.04, 0.09, 8))
    assert check(change_results(changes), change_claim(0.067)).verdict == "reproduced"


def test_a_small_gain_on_every_row_is_smaller_than_claimed():
    result = check(change_results([0.005] * 8), change_claim(0.067))
    assert result.verdict == "smaller than claimed"
    assert (
        "+0.5 % [+0.5, +0.5]" in result.evidence and "claimed +6.7 %" in result.evidence
    )
    assert result.tally == "better on 8, against on 0 of 8 rows"


def test_an_interval_across_zero_does_not_show_the_change():
    # the point estimate is even negative; the interval is wide enough to hold
    # the claimed +6.7 % and 6 of 8 rows improve: still not shown
    changes = [0.01] * 5 + [-0.30, -0.20, 0.30]
    result = check(change_results(changes), change_claim(0.067))
    assert result.tally == "better on 6, against on 2 of 8 rows"
    low, high = (
        float(x) for x in result.evidence.split("[")[1].split("]")[0].split(",")
    )
    assert low < 0 < 6.7 < high and result.verdict == "not shown"


def test_a_change_on_the_other_side_of_zero_contradicts_the_claim():
    changes = list(np.linspace(-0.04, -0.02, 8))
    assert check(change_results(changes), change_claim(0.067)).verdict == "contradicted"
    # a claimed cut in cost (lower is better) against a rise in cost
    costs = cells({d: {"A": 110.0 + i, "B": 100.0} for i, d in enumerate(SETS)},
                  metric="cost_total")  # fmt: skip
    claim = change_claim(-0.24, metric="cost_total")
    assert check(costs, claim).verdict == "contradicted"


def test_a_zero_baseline_is_reported_and_counted_in_the_direction_tally():
    values = {d: {"A": 0.55, "B": 0.5} for d in SETS[:6]}
    values |= {d: {"A": 0.3, "B": 0.0} for d in SETS[6:]}
    result = check(cells(values), change_claim(0.1))
    assert "no ratio where B is 0: d6 at 1, d7 at 1" in result.evidence
    assert result.tally.endswith("on 0 of 8 rows")  # the two rows improved too
    assert "over 6 rows" in result.evidence and result.verdict == "reproduced"


def test_change_of_the_totals_is_the_ratio_of_the_row_means():
    values = {"d0": {"A": 10.0, "B": 20.0}, "d1": {"A": 90.0, "B": 100.0}}
    claim = change_claim(-0.24, metric="cost_total", average="totals")
    totals = check(cells(values, metric="cost_total"), claim)
    # (10 + 90) / (20 + 100) - 1 = -16.7 %; the mean of ratios would be -30 %
    assert "change of the mean -16.7 %" in totals.evidence
    ratios = check(cells(values, metric="cost_total"),
                   change_claim(-0.24, metric="cost_total"))  # fmt: skip
    assert "mean change -30.0 %" in ratios.evidence


def test_bootstrap_interval_brackets_the_point_and_is_reproducible():
    rng = np.random.default_rng(3)
    a, b = rng.uniform(1, 2, 12), rng.uniform(1, 2, 12)
    point, low, high = bootstrap_interval(a, b, "ratios", 0.05)
    assert point == pytest.approx(np.mean(a / b - 1))
    assert low < point < high
    assert bootstrap_interval(a, b, "ratios", 0.05) == (point, low, high)
    point, low, high = bootstrap_interval(a, b, "totals", 0.05)
    assert point == pytest.approx(a.mean() / b.mean() - 1) and low < point < high
    # identical changes on every row leave nothing to resample
    same = bootstrap_interval(2 * b, b, "ratios", 0.05)
    assert same == pytest.approx((1.0, 1.0, 1.0))


# ---------------------------------------------------------------- row kinds


def three():
    # means: a: X 2, Y 4, Z 2 (X and Z tie); b: X 1, Y 4, Z 6 (two splits each:
    # the tests of the counting rules compare means, paired=False)
    return cells(
        {"a": {"X": [1.0, 3.0], "Y": [4.0, 4.0], "Z": [2.0, 2.0]},
         "b": {"X": [1.0, 1.0], "Y": [3.0, 5.0], "Z": [6.0, 6.0]}},
        metric="cost_total",
    )  # fmt: skip


def best(algorithm, **extra):
    return {"text": "t", "source": "s", "kind": "best", "metric": "cost_total",
            "algorithm": algorithm, "among": ["X", "Y", "Z"], **extra}  # fmt: skip


def test_a_tie_for_best_is_a_tie_not_a_win():
    result = by_means(three(), best("X"))
    assert result.verdict == "partly"
    assert result.tally == "held 1, tied 1, lost 0 of 2 rows"
    assert "a at 1: tied best with Z" in result.evidence
    # a tie inside a named group is the group's win
    assert by_means(three(), best(["X", "Z"])).verdict == "reproduced"
    result = by_means(three(), best("Y"))
    assert result.verdict == "contradicted" and result.failing == 2


def test_better_counts_each_rival_and_row_and_ties_apart():
    claim = {"text": "t", "source": "s", "kind": "better", "metric": "cost_total",
             "algorithm": "X", "than": ["Y", "Z"]}  # fmt: skip
    result = by_means(three(), claim)
    # X < Y on a and b, X < Z on b, X = Z on a
    assert result.verdict == "partly"
    assert result.tally == "held 3, tied 1, lost 0 of 4 comparisons"
    assert result.failing == 0


def test_rates_are_better_when_higher():
    recall = three().rename(columns={"cost_total": "recall"})
    claim = best("Z", metric="recall")  # recall means: a Y 4 best; b Z 6 best
    assert by_means(recall, claim).tally == "held 1, tied 0, lost 1 of 2 rows"


def test_bounds_and_most_rows():
    claim = {"text": "t", "source": "s", "kind": "at_most", "metric": "cost_total",
             "algorithms": ["X", "Z"], "value": 2.0}  # fmt: skip
    result = by_means(three(), claim)  # X 2, 1 hold; Z 2 holds, 6 fails
    assert result.verdict == "partly"
    assert result.tally == "held 3, tied 0, lost 1 of 4 cases (<= 2)"
    assert by_means(three(), {**claim, "holds_on": "most"}).verdict == "reproduced"
    assert by_means(three(), {**claim, "value": 0.5}).verdict == "contradicted"


def test_rows_never_run_make_the_verdict_incomplete():
    # a claim about five sets, a store holding one of them (a quick run)
    study_rows = [(d, "1") for d in ["p", "q", "r", "s", "t"]]
    results = cells({"p": {"X": 1.0, "Y": 2.0}}, metric="cost_total")
    claim = {"text": "t", "source": "s", "kind": "best", "metric": "cost_total",
             "algorithm": "X", "among": ["X", "Y"]}  # fmt: skip
    result = by_means(results, claim, study_rows)
    assert result.verdict == "incomplete (1 of 5 rows)"
    assert "missing: q at 1, r at 1, s at 1, t at 1" in result.evidence
    # without the study's rows, the results' own rows are the claim's rows
    assert by_means(results, claim).verdict == "reproduced"
    assert (
        by_means(results, {**claim, "datasets": ["q"]}, study_rows).verdict == "not run"
    )


def test_a_missing_cell_is_reported_not_a_crash():
    results = three()
    results = results[~((results["dataset"] == "b") & (results["algorithm"] == "Z"))]
    for claim in (
        best("X"),
        {"text": "t", "source": "s", "kind": "better", "metric": "cost_total",
         "algorithm": "X", "than": ["Z"]},
        change_claim(-0.1, metric="cost_total", baseline="Z", algorithm="X"),
    ):  # fmt: skip
        result = check(results, claim)
        assert result.verdict == "not run" or result.verdict.startswith("incomplete")
        assert "Z on b at 1" in result.evidence


# ---------------------------------------------------------------- paired rows


def noisy(mean, shift=0.0, sd=0.015, n=15, seed=0):
    """``n`` split values around ``mean``: one noise draw per seed, plus ``shift``."""
    rng = np.random.default_rng(seed)
    return list(mean + shift + rng.normal(0, sd, n))


def better(algorithm, than, metric="auc"):
    return {"text": "t", "source": "s", "kind": "better", "metric": metric,
            "algorithm": algorithm, "than": than}  # fmt: skip


def test_a_paired_test_tie_band_turns_a_raw_mean_win_inside_the_noise_into_a_tie():
    # issue 26: 0.981 vs 0.979 with fold SDs of about 0.015 (independent noise
    # per algorithm over 15 matched splits) is a win by the means, a tie by the
    # paired test at 0.05
    a = noisy(0.981, seed=1)
    b = noisy(0.979, seed=2)
    a = list(np.asarray(a) - np.mean(a) + 0.981)  # the row means exactly
    b = list(np.asarray(b) - np.mean(b) + 0.979)
    results = cells({"d0": {"A": a, "B": b}}, metric="auc")
    p = stats.ttest_rel(a, b).pvalue
    assert p > 0.05  # the premise: inside the noise
    assert by_means(results, better("A", ["B"])).verdict == "reproduced"
    result = check(results, better("A", ["B"]))
    assert result.verdict == "not reproduced" and result.failing == 0
    assert result.tally == "held 0, tied 1, lost 0 of 1 rows"
    assert f"p = {p:.2g}" in result.evidence
    # the same noise with a clear lead is a win; a clear deficit a loss
    results = cells({"d0": {"A": list(np.asarray(b) + 0.03), "B": b},
                     "d1": {"A": list(np.asarray(b) - 0.03), "B": b}},
                    metric="auc")  # fmt: skip
    result = check(results, better("A", ["B"]))
    assert result.tally == "held 1, tied 0, lost 1 of 2 rows" and result.failing == 1
    # a lower-is-better metric wins when lower
    costs = cells({"d0": {"A": list(np.asarray(b) - 0.03), "B": b}},
                  metric="cost_total")  # fmt: skip
    assert check(costs, better("A", ["B"], "cost_total")).verdict == "reproduced"


def test_paired_best_needs_a_significant_lead_over_every_rival():
    base = np.asarray(noisy(0.8, seed=3, sd=0.03))
    jitter = np.asarray(noisy(0.0, seed=4, sd=0.002))
    values = {
        # X clearly above Y and Z: a win
        "w": {"X": list(base + 0.05 + jitter), "Y": list(base), "Z": list(base - 0.1)},
        # X's mean leads Y's by 0.001, inside the noise: a tie
        "t": {"X": list(base + 0.001 + jitter), "Y": list(base), "Z": list(base - 0.1)},
        # Y clearly above X: a loss, though X beats Z
        "l": {"X": list(base + jitter), "Y": list(base + 0.05), "Z": list(base - 0.1)},
    }
    results = cells(values, metric="auc")
    claim = {"text": "t", "source": "s", "kind": "best", "metric": "auc",
             "algorithm": "X", "among": ["X", "Y", "Z"]}  # fmt: skip
    result = check(results, claim)
    assert result.tally == "held 1, tied 1, lost 1 of 3 rows"
    assert result.failing == 1 and result.verdict == "partly"
    assert "t at 1: X not significantly better than Y" in result.evidence
    assert "l at 1: X significantly worse than Y" in result.evidence
    # by the means, X's 0.001 lead is a win
    assert by_means(results, claim).tally.startswith("held 2,")
    # a group: its member of best mean is tested against the others
    grouped = check(results, {**claim, "algorithm": ["X", "Y"]})
    assert grouped.tally == "held 3, tied 0, lost 0 of 3 rows"


def close(value):
    return {"text": "t", "source": "s", "kind": "close", "metric": "auc",
            "algorithm": "A", "than": ["B"], "value": value}  # fmt: skip


def test_close_holds_when_the_interval_of_the_difference_lies_within_the_margin():
    b = np.asarray(noisy(0.8, seed=5, sd=0.03))
    d = np.asarray(noisy(0.0, seed=6, sd=0.01))
    values = {
        "near": {"A": list(b + 0.002 + d), "B": list(b)},
        "far": {"A": list(b + 0.08 + d), "B": list(b)},
        "vague": {"A": list(b + 0.025 + d), "B": list(b)},
    }
    results = cells(values, metric="auc")
    low, high = {}, {}
    for row, shift in (("near", 0.002), ("far", 0.08), ("vague", 0.025)):
        diff = shift + d
        half = stats.t.ppf(0.975, diff.size - 1) * diff.std(ddof=1) / np.sqrt(diff.size)
        low[row], high[row] = diff.mean() - half, diff.mean() + half
    margin = 0.03
    # the premises: near's interval inside the margin, far's beyond, vague's across
    assert -margin < low["near"] and high["near"] < margin
    assert low["far"] > margin
    assert low["vague"] < margin < high["vague"]
    result = check(results, close(margin))
    assert result.tally == "held 1, undecided 1, lost 1 of 3 rows (within 0.03)"
    assert result.failing == 1 and result.verdict == "partly"
    assert "far at 1: apart" in result.evidence
    assert "vague at 1: undecided" in result.evidence
    # by the means: |0.025| <= 0.03 holds, |0.08| does not
    assert by_means(results, close(margin)).tally.startswith("held 2,")


def test_close_claims_are_validated():
    assert claim_problem(close(0.03)) == ""
    without_value = {k: v for k, v in close(0.03).items() if k != "value"}
    assert re.search("needs the keys.*value", claim_problem(without_value))


# ---------------------------------------------------------------- win/tie/loss


def test_win_tie_loss_scores_each_row_by_a_paired_t_test():
    rng = np.random.default_rng(0)
    base = list(rng.uniform(40, 60, 10))
    noise = list(rng.normal(0, 1, 10))
    values = {
        # clearly lower: a win; the same values: a tie; clearly higher: a loss
        "w1": {"A": [b - 10 + n for b, n in zip(base, noise, strict=True)], "B": base},
        "w2": {"A": [b - 5 + n for b, n in zip(base, noise, strict=True)], "B": base},
        "t1": {"A": base, "B": base},
        "l1": {"A": [b + 10 + n for b, n in zip(base, noise, strict=True)], "B": base},
    }
    results = cells(values, metric="cost_total")
    claim = {"text": "t", "source": "s", "kind": "win_tie_loss", "metric": "cost_total",
             "algorithm": "A", "than": ["B"], "counts": [[2, 2, 0]]}  # fmt: skip
    result = check(results, claim)
    assert result.tally == "vs B 2/1/1 (paper 2/2/0): not reproduced"
    assert result.verdict == "not reproduced" and result.failing == 1  # a loss more
    assert check(results, {**claim, "counts": [[2, 1, 1]]}).verdict == "reproduced"
    assert check(results, {**claim, "counts": [[3, 1, 0]]}).verdict == "not reproduced"
    # two rivals, one reproduced: partly; more losses than wins: contradicted
    results = pd.concat([results, results.assign(algorithm="C")])
    two = {**claim, "than": ["B", "C"], "counts": [[2, 1, 1], [3, 1, 0]]}
    assert check(results, two).verdict == "partly"
    flipped = results.assign(algorithm=results["algorithm"].map({"A": "B", "B": "A"}))
    assert check(flipped, {**claim, "counts": [[2, 1, 1]]}).verdict == "contradicted"


# ---------------------------------------------------------------- flags


def test_verdicts_resting_on_degenerate_fits_are_flagged():
    results = three()
    results["diagnostics"] = [
        {"constant": True, "rounds": 0, "rounds_planned": 50}
        if (d, a) == ("b", "Z")
        else {"constant": False}
        for d, a in zip(results["dataset"], results["algorithm"], strict=True)
    ]
    result = check(results, best("X"))
    assert result.degenerate.startswith("Z on b at 1 (")
    assert "2 of 2 cells" in result.degenerate
    assert check(results, {**best("X"), "among": ["X", "Y"]}).degenerate == ""


def test_the_degenerate_fits_reason_is_the_most_common_first_seen_on_ties():
    # both reasons in every cell: a tie, named by degenerate_reasons' order
    # (a set's order, which varies with the string hash seed, chose before)
    def with_diagnostics(z_cells):
        results = three()
        z_at_b = iter(z_cells)
        results["diagnostics"] = [
            next(z_at_b) if (d, a) == ("b", "Z") else {"constant": False}
            for d, a in zip(results["dataset"], results["algorithm"], strict=True)
        ]
        return check(results, best("X")).degenerate

    both = {"constant": True, "rounds": 0, "rounds_planned": 50}
    kept_none = {"constant": False, "rounds": 0, "rounds_planned": 50}
    assert "(predicts one class; 2 of 2 cells)" in with_diagnostics([both, both])
    assert "(no round kept; 2 of 2 cells)" in with_diagnostics([both, kept_none])


def test_malformed_claims_are_refused_by_name():
    good = best("X")
    assert claim_problem(good, ["a", "b"]) == ""
    assert "kind must be one of" in claim_problem({"text": "t", "kind": "magic"})
    without_source = {k: v for k, v in good.items() if k != "source"}
    assert re.search("needs the keys.*source", claim_problem(without_source))
    assert "holds_on" in claim_problem({**good, "holds_on": "some"})
    assert "does not run" in claim_problem({**good, "datasets": ["zz"]}, ["a", "b"])
    wtl = {"text": "t", "source": "s", "kind": "win_tie_loss", "metric": "m",
           "algorithm": "A", "than": ["B", "C"], "counts": [[1, 2, 0]]}  # fmt: skip
    assert "one [wins, ties" in claim_problem(wtl)


# ---------------------------------------------------------------- the studies


def paper_results(study):
    """The study's [[paper]] rows as one cell per (dataset, cost, algorithm)."""
    rows = pd.DataFrame(list(study.paper.rows))
    wide = rows.pivot_table(
        index=["dataset", "cost", "algorithm"], columns="metric", values="value"
    ).reset_index()
    return wide.assign(repeat=0, fold=0)


@pytest.mark.parametrize("name", ["boosting", "oversampling", "forest"])
def test_every_claim_is_what_the_papers_own_rows_say(name):
    # A claim its paper's printed numbers contradict is a defect of the claim
    # file, unless the file marks it as the paper's own inconsistency (and then
    # the numbers must indeed contradict it).
    study = load_study(name)
    results = paper_results(study)
    # the paper prints means, no splits: its rows are compared by their means
    checked = check_claims(
        results, study.paper.claims, study.paper.claim_rows, paired=False
    )
    met = 0
    for claim, result in zip(study.paper.claims, checked, strict=True):
        supported = result.verdict in ("reproduced", "not run") or (
            result.verdict.startswith("incomplete") and result.failing == 0
        )
        if claim.get("inconsistency"):
            assert not supported and result.failing > 0, claim["text"]
            assert result.inconsistency == claim["inconsistency"]
        else:
            assert supported, (claim["text"], result.verdict, result.evidence)
        met += result.verdict != "not run"
    assert met >= min(3, len(study.paper.claims))  # the paper's rows meet its claims


def test_every_claim_cites_its_source_and_names_study_rows():
    for name in ("boosting", "margin", "oversampling", "forest"):
        study = load_study(name)
        assert study.paper.claims
        for claim in study.paper.claims:
            assert claim["source"].strip(), claim["text"]
            rows = [
                r
                for r in study.paper.claim_rows
                if r[0] in claim.get("datasets", [r[0]])
            ]
            assert rows, claim["text"]


def test_paper_002_table_3_is_encoded_as_win_tie_loss_claims():
    study = load_study("margin")
    tables = [c for c in study.paper.claims if c["kind"] == "win_tie_loss"]
    assert sorted(c["costs"][0] for c in tables) == [5, 10, 20]
    for claim in tables:
        # 15 data sets per rival, and the paper's CS-LDM never loses
        assert all(sum(c) == 15 and c[2] == 0 for c in claim["counts"])


# ---------------------------------------------------------------- issue 43


def test_a_tie_and_three_significant_losses_contradict_the_claim():
    # the audit's example: A ties B on one set and is significantly worse on three
    base = np.asarray(noisy(50.0, seed=7, sd=2.0, n=5))
    jitter = np.asarray(noisy(0.0, seed=8, sd=0.3, n=5))
    values = {"s0": {"A": list(base + jitter - jitter.mean()), "B": list(base)}}
    values |= {f"s{i}": {"A": list(base + 8 + jitter), "B": list(base)}
               for i in (1, 2, 3)}  # fmt: skip
    claim = better("A", ["B"], "cost_total")
    result = check(cells(values, metric="cost_total"), claim)
    assert result.tally == "held 0, tied 1, lost 3 of 4 rows"
    assert result.verdict == "contradicted" and result.failing == 3


@pytest.mark.parametrize(
    ("held", "tied", "lost", "verdict"),
    [(5, 0, 0, "reproduced"), (0, 5, 0, "not reproduced"), (0, 4, 1, "contradicted"),
     (2, 2, 2, "partly"), (2, 0, 3, "contradicted"), (14, 0, 14, "partly"),
     (0, 0, 0, "not run")],
)  # fmt: skip
def test_row_verdicts_follow_the_tally(held, tied, lost, verdict):
    assert row_verdict(held, tied, lost) == verdict


def test_the_corrected_test_turns_a_plain_win_on_overlapping_folds_into_a_tie():
    # five folds of one k-fold: the plain test's t is sqrt(1 + 5/4) = 1.5 times the
    # corrected one (n_test / n_train = 1/4)
    d = np.array([0.2, 1.6, 0.3, 1.5, 1.0])
    b = np.asarray(noisy(10.0, seed=9, sd=1.0, n=5))
    results = cells({"r": {"A": list(b - d), "B": list(b)}}, metric="cost_total")
    t_plain = d.mean() / (d.std(ddof=1) / np.sqrt(5))
    t_corrected = d.mean() / np.sqrt((1 / 5 + 1 / 4) * d.var(ddof=1))
    assert t_plain / t_corrected == pytest.approx(1.5)
    p_plain, p_corrected = (2 * stats.t.sf(t, 4) for t in (t_plain, t_corrected))
    assert p_plain < 0.05 < p_corrected  # the premise
    claim = better("A", ["B"], "cost_total")
    assert check(results, claim).verdict == "reproduced"
    corrected = check(results, claim, test_train_ratio=0.25)
    assert f"p = {p_corrected:.2g}" in corrected.evidence
    assert "corrected resampled t-test" in corrected.evidence
    assert corrected.verdict == "not reproduced"


def test_the_bootstrap_draws_whole_data_sets():
    # two sets of three cost rows each: every draw holds each set 0, 1 or 2 times
    # whole, so the change of a draw is one of the few mixtures of the two sets
    a = np.array([2.0, 2.0, 2.0, 1.0, 1.0, 1.0])
    b = np.ones(6)
    groups = ["p", "p", "p", "q", "q", "q"]
    point, low, high = bootstrap_interval(a, b, "ratios", 0.05, groups=groups)
    assert point == pytest.approx(0.5)
    # draws: both p (change 1), one each (0.5), both q (0): the 2.5 % and 97.5 %
    # quantiles of draws of whole sets are 0 and 1; drawing rows would give more
    assert (low, high) == (0.0, 1.0)
    by_rows = bootstrap_interval(a, b, "ratios", 0.05)
    assert 0.0 < by_rows[1] and by_rows[2] < 1.0


def test_a_shift_across_two_data_sets_compares_one_algorithms_means():
    clean = noisy(0.889, seed=10, sd=0.02, n=10)
    noisy_set = noisy(0.647, seed=11, sd=0.05, n=10)
    results = cells({"ionosphere": {"S": clean}, "ionosphere2": {"S": noisy_set}})
    claim = {"text": "t", "source": "s", "kind": "shift", "metric": "f1",
             "algorithm": "S", "from": "ionosphere", "to": "ionosphere2",
             "value": -0.242}  # fmt: skip
    assert claim_problem(claim, ["ionosphere", "ionosphere2"]) == ""
    result = check(results, claim)
    point, low, high = welch_interval(noisy_set, clean)
    assert low < -0.242 < high and result.verdict == "reproduced"
    interval = f"{point:+.4g} [{low:+.4g}, {high:+.4g}]"
    assert result.tally == f"at 1: {interval}, claimed -0.242"
    # the same fall claimed twice as large is larger than measured
    assert check(results, {**claim, "value": -0.5}).verdict == "smaller than claimed"
    assert check(results, {**claim, "value": 0.1}).verdict == "contradicted"
    assert "from = to" in claim_problem({**claim, "to": "ionosphere"})


def near_one_class(recall):
    results = three()
    results["recall"] = [recall if (d, a) == ("b", "Z") else 0.7
                         for d, a in zip(results["dataset"], results["algorithm"],
                                         strict=True)]  # fmt: skip
    results["specificity"] = 0.9
    results["diagnostics"] = [{"constant": False}] * len(results)
    return results


def test_a_fit_near_one_class_is_flagged_and_holds_against_it_counted_apart():
    # yeast4's OBPD-EFSBoost: recall 0.020, not constant
    result = check(near_one_class(0.02), best("X"))
    assert "Z on b at 1 (near one class; 2 of 2 cells)" in result.degenerate
    claim = {"text": "t", "source": "s", "kind": "better", "metric": "cost_total",
             "algorithm": "X", "than": ["Z"]}  # fmt: skip
    apart = check(near_one_class(0.02), claim)
    assert "1 of the holds against a model near one class" in apart.tally
    assert check(near_one_class(0.06), best("X")).degenerate == ""
    assert "near one class" not in check(near_one_class(0.06), claim).tally


def test_our_choices_are_carried_beside_the_verdict():
    claim = {**best("X"), "choices": "depth-3 regression trees (ours)"}
    assert by_means(three(), claim).choices == "depth-3 regression trees (ours)"


def staged(falling, rising, splits=5):
    """Curves of three rounds: F's test cost falls 0.3 -> 0.1, R's rises 0.1 -> 0.3."""
    rng = np.random.default_rng(12)
    rows = []
    for name, (start, end) in (("F", falling), ("R", rising)):
        for fold in range(splits):
            noise = rng.normal(0, 0.01)
            for stage, value in enumerate(np.linspace(start, end, 3), start=1):
                rows.append(("p", "5", name, 0, fold, stage, "test", value + noise))
    columns = ["dataset", "cost", "algorithm", "repeat", "fold", "stage", "split"]
    return pd.DataFrame(rows, columns=[*columns, "value"])


def test_a_falls_claim_compares_the_last_rounds_cost_with_the_first():
    results = cells({"p": {"F": [0.1] * 5, "R": [0.3] * 5}}, metric="mean_cost")
    results["cost"] = "5"
    claim = {"text": "t", "source": "s", "kind": "falls", "metric": "mean_cost",
             "algorithms": ["F", "R"], "split": "test"}  # fmt: skip
    assert claim_problem(claim) == ""
    assert "split" in claim_problem({**claim, "split": "valid"})
    result = check(results, claim, curves=staged((0.3, 0.1), (0.1, 0.3)))
    assert result.tally == "held 1, tied 0, lost 1 of 2 curves"
    assert "R on p at 5: test cost per row" in result.evidence
    assert result.verdict == "partly"
    flat = check(results, claim, curves=staged((0.2, 0.2), (0.2, 0.2)))
    assert flat.verdict == "not reproduced"
    assert check(results, claim).tally == "held 0, tied 2, lost 0 of 2 curves"


def test_a_shift_on_printed_means_is_the_change_of_the_means():
    results = cells({"a": {"S": 0.8887}, "b": {"S": 0.6472}})
    claim = {"text": "t", "source": "s", "kind": "shift", "metric": "f1",
             "algorithm": "S", "from": "a", "to": "b", "value": -0.2415}  # fmt: skip
    assert by_means(results, claim).verdict == "reproduced"
    assert by_means(results, {**claim, "value": -0.1}).verdict == "larger than claimed"

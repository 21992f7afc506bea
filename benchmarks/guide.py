"""The figures the README's user guide quotes, measured in one run.

Docstrings say what a parameter does; how much it matters is measured here, so the
figures can be re-run instead of going stale:

- AsyBL's ``learning_rate``: excess expected cost over the Bayes risk on paper 000's
  Gaussian problem (exact integration over the known densities, not a test set),
  with the default depth-3 regression trees, 50 rounds, at 1.0 and at 0.1, for
  costs 2, 5 and 10 and three training samples of 1,000 rows each;
- EFSBoost's ``feature_update``: the features left after 50 rounds on KEEL sets
  (the literal, unweighted equation 14 against the weighted one), after OBPD
  oversampling as in paper 003's study.

Usage: ``.venv/bin/python benchmarks/guide.py`` (about a minute on two cores).
"""

from __future__ import annotations

from sklearn.preprocessing import StandardScaler

from costsense.boosting import AsyBLClassifier, EFSBoostClassifier
from costsense.datasets import load_keel, make_gaussian_problem
from costsense.metrics import excess_cost
from costsense.sampling import OBPDSampler

KEEL_SETS = ("pima", "yeast1", "vehicle0", "glass1", "ecoli1", "segment0")


def asybl_learning_rate() -> None:
    problem = make_gaussian_problem()
    print("AsyBL: excess cost over the Bayes risk (Gaussian problem, 50 rounds)")
    print(f"{'cost':>5} {'rate 1.0':>20} {'rate 0.1':>20}")
    for cost in (2.0, 5.0, 10.0):
        risk = problem.bayes_risk(cost)
        cells = []
        for rate in (1.0, 0.1):
            excess = []
            for seed in range(3):
                X, y = problem.sample(1000, random_state=seed)
                model = AsyBLClassifier(
                    cost=cost, pos_label=1, learning_rate=rate, random_state=seed
                ).fit(X, y)
                expected = problem.expected_cost(model, cost=cost, resolution=256)
                excess.append(100 * excess_cost(expected, risk))
            cells.append(f"{min(excess):5.1f} .. {max(excess):5.1f} %")
        print(f"{cost:>5g} {cells[0]:>20} {cells[1]:>20}")


def efsboost_subsets() -> None:
    print("\nEFSBoost: features left after 50 rounds (OBPD-balanced training set)")
    print(f"{'set':>10} {'features':>9} {'literal':>8} {'weighted':>9}")
    for name in KEEL_SETS:
        data = load_keel(name)
        X = StandardScaler().fit_transform(data.X)
        X_res, y_res = OBPDSampler(random_state=0).fit_resample(X, data.y)
        kept = [
            int(
                EFSBoostClassifier(feature_update=update)
                .fit(X_res, y_res)
                .support_.sum()
            )
            for update in ("literal", "weighted")
        ]
        print(f"{name:>10} {X.shape[1]:>9} {kept[0]:>8} {kept[1]:>9}")


if __name__ == "__main__":
    asybl_learning_rate()
    efsboost_subsets()

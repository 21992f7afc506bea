"""
CS-LDM against CS-SVM: margin distributions and test costs
==========================================================

A support vector machine maximises the smallest margin; the large margin
distribution machine (LDM) maximises the *mean* margin and minimises its *variance*,
and its cost-sensitive version (CS-LDM, paper 002) weights each row's hinge loss by
the cost of its errors, as the cost-sensitive SVM (CS-SVM) does.
:mod:`costsense.margin` has both: :class:`~costsense.margin.CSLDMClassifier` on its
own dual coordinate descent solver and :class:`~costsense.margin.CSSVMClassifier`
(scikit-learn's LinearSVC with cost weights).

This example draws the training margins of the two on KEEL's *wdbc* set, then compares
their test costs on three KEEL sets over five random 2/3 - 1/3 splits, with their
parameters chosen by inner cross-validation on the cost, as in paper 002's protocol
(a smaller grid, so the example runs quickly).
"""  # noqa: D205, D400

# %%
# Margins on one training set
# ---------------------------
# The margin of row ``i`` is ``y_i f(x_i) / ||w||``: its signed distance to the
# hyperplane. ``lambda1`` weights the margin variance in CS-LDM's objective: as it
# grows, the margins gather (a smaller spread), at the price of a smaller mean; with
# a small ``lambda1`` CS-LDM is close to CS-SVM.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedShuffleSplit
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler

from costsense.datasets import load_keel
from costsense.margin import CSLDMClassifier, CSSVMClassifier
from costsense.metrics import make_cost_scorer, misclassification_cost

COST = 5
data = load_keel("wdbc")
X = MinMaxScaler().fit_transform(data.X)
signs = np.where(data.y == data.pos_label, 1.0, -1.0)
fig, ax = plt.subplots(figsize=(7, 4))
svm = CSSVMClassifier(cost=COST, pos_label=data.pos_label)
svm.fit(X, data.y)
margins = signs * svm.decision_function(X) / np.linalg.norm(svm.estimator_.coef_)
print(f"CS-SVM: margin mean {margins.mean():.3f}, std {margins.std():.3f}")
ax.hist(margins, bins=60, histtype="step", linewidth=2, density=True, label="CS-SVM")
for lambda1 in (1, 10, 100):
    ldm = CSLDMClassifier(
        lambda1=lambda1, cost=COST, pos_label=data.pos_label, random_state=0
    ).fit(X, data.y)
    margins = signs * ldm.decision_function(X) / np.linalg.norm(ldm.coef_)
    label = f"CS-LDM, lambda1 = {lambda1}"
    print(f"{label}: margin mean {margins.mean():.3f}, std {margins.std():.3f}")
    ax.hist(margins, bins=60, histtype="step", density=True, label=label)
ax.axvline(0, color="black", linewidth=0.8)
ax.set_xlabel("margin y f(x) / ||w|| (negative: wrong side)")
ax.set_ylabel("density")
ax.set_title(f"wdbc, training margins at C1/C2 = {COST} (C = 1)")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# Test costs over random splits
# -----------------------------
# Each learner's ``C`` is chosen from ``{0.1, 1}`` (and CS-LDM's ``lambda1`` from
# ``{1, 10, 100}``) by 3-fold cross-validation on the training part, minimising the
# mean cost; features are min-max scaled inside each training part. The learners'
# default ``max_iter`` (100,000 epochs) lets every fit of the grid converge.
datasets = ["wdbc", "australian", "heart"]
splitter = StratifiedShuffleSplit(n_splits=5, test_size=1 / 3, random_state=0)
grids = {
    "CS-SVM": {"model__C": [0.1, 1]},
    "CS-LDM": {"model__C": [0.1, 1], "model__lambda1": [1, 10, 100]},
}
learners = {
    "CS-SVM": CSSVMClassifier(cost=COST),
    "CS-LDM": CSLDMClassifier(cost=COST, random_state=0),
}
results = {name: [] for name in learners}
for dataset in datasets:
    data = load_keel(dataset)
    costs = {name: [] for name in learners}
    for train, test in splitter.split(data.X, data.y):
        for name, learner in learners.items():
            learner.set_params(pos_label=data.pos_label)
            search = GridSearchCV(
                Pipeline([("scale", MinMaxScaler()), ("model", learner)]),
                grids[name],
                scoring=make_cost_scorer(COST, pos_label=data.pos_label),
                cv=3,
            ).fit(data.X[train], data.y[train])
            y_pred = search.predict(data.X[test])
            costs[name].append(
                misclassification_cost(
                    data.y[test], y_pred, cost=COST, pos_label=data.pos_label
                )
            )
    for name in learners:
        results[name].append((np.mean(costs[name]), np.std(costs[name])))
        print(f"{dataset:10s} {name}: total test cost {np.mean(costs[name]):.1f}")

# %%
# Mean (and standard deviation) of the total test cost of a split.
fig, ax = plt.subplots(figsize=(7, 4))
offsets = {"CS-SVM": -0.2, "CS-LDM": 0.2}
for name, rows in results.items():
    means, stds = np.array(rows).T
    ax.bar(np.arange(len(datasets)) + offsets[name], means, 0.4, yerr=stds, label=name)
ax.set_xticks(np.arange(len(datasets)), datasets)
ax.set_ylabel(f"total test cost (C1/C2 = {COST})")
ax.set_title("CS-LDM against CS-SVM, five random 2/3 - 1/3 splits")
ax.legend()
fig.tight_layout()
plt.show()

"""
The recommended estimator: MinimumCostClassifier
================================================

:class:`costsense.MinimumCostClassifier` is the estimator to start with when errors
cost. It estimates out-of-fold probabilities of a random forest (read out of bag), a
logistic regression and a quadratic logistic regression, and chooses by *cost*, out of
fold, how to combine them (one alone, their average or their stack) and how to decide
(the cost-sensitive Bayes rule, or a tuned threshold). ``chosen_``, ``rule_`` and
``cv_results_`` say what it did.

This example fits it on KEEL's *yeast1* set at ``C1/C2 = 5``, draws the out-of-fold
cost of every option it weighed, compares its test cost with three simpler
cost-sensitive models, and predicts with a different cost for every row.
"""  # noqa: D205, D400

# %%
# Fit, and see what it chose
# --------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from costsense import MinimumCostClassifier
from costsense.datasets import load_keel
from costsense.metrics import misclassification_cost
from costsense.rescale import CostWeighting, ThresholdMoving

COST = 5
data = load_keel("yeast1")
X_train, X_test, y_train, y_test = train_test_split(
    data.X, data.y, test_size=0.4, stratify=data.y, random_state=0
)
model = MinimumCostClassifier(cost=COST, pos_label=data.pos_label, random_state=0)
model.fit(X_train, y_train)
print("chosen source:", model.chosen_, "| rule:", model.rule_)
print(f"probability threshold of the positive class: {model.threshold_:.3f}")

# %%
# The options it weighed
# ----------------------
# Each bar is one option's cross-fitted out-of-fold cost per row, with its standard
# error; the chosen option is drawn dark. It keeps the default (the stack, decided by
# the Bayes rule) unless another option is clearly cheaper.
results = model.cv_results_
labels = [
    f"{c} / {r}" for c, r in zip(results["candidate"], results["rule"], strict=True)
]
colors = ["C3" if chosen else "C0" for chosen in results["chosen"]]
fig, ax = plt.subplots(figsize=(8, 4.5))
ax.barh(labels, results["mean_cost"], xerr=results["std_error"], color=colors)
ax.invert_yaxis()
ax.set_xlabel("out-of-fold cost per row (cross-fitted)")
ax.set_title(f"yeast1, C1/C2 = {COST}: options of MinimumCostClassifier (chosen: red)")
fig.tight_layout()
plt.show()

# %%
# Against simpler cost-sensitive models
# -------------------------------------
# The same training rows; the total cost on the 40 % held out.
peers = {
    "MinimumCostClassifier": model,
    "ThresholdMoving(forest)": ThresholdMoving(
        RandomForestClassifier(n_estimators=200, random_state=0),
        cost=COST,
        pos_label=data.pos_label,
    ),
    "ThresholdMoving(logistic)": ThresholdMoving(
        make_pipeline(StandardScaler(), LogisticRegression()),
        cost=COST,
        pos_label=data.pos_label,
    ),
    "CostWeighting(forest)": CostWeighting(
        RandomForestClassifier(n_estimators=200, random_state=0),
        cost=COST,
        pos_label=data.pos_label,
    ),
}
test_cost = {}
for name, peer in peers.items():
    if peer is not model:
        peer.fit(X_train, y_train)
    test_cost[name] = misclassification_cost(
        y_test, peer.predict(X_test), cost=COST, pos_label=data.pos_label
    )
    print(f"{name:28s} total test cost {test_cost[name]:.0f}")

fig, ax = plt.subplots(figsize=(7, 3.5))
ax.barh(list(test_cost), list(test_cost.values()), color=["C3", "C0", "C0", "C0"])
ax.invert_yaxis()
ax.set_xlabel(f"total test cost (C1/C2 = {COST}, {len(y_test)} test rows)")
fig.tight_layout()
plt.show()

# %%
# A cost for every row
# --------------------
# Example-dependent costs go to ``predict`` as ``sample_cost``: before the truth is
# known, each row needs a whole cost matrix ``cost[true, predicted]``. Here a missed
# positive costs 1 on the first half of the test rows and 20 on the second half (a
# false alarm costs 1 everywhere). The same probabilities give more positive
# predictions where a miss costs more.
n = len(y_test)
pos = list(model.classes_).index(data.pos_label)
miss = np.where(np.arange(n) < n // 2, 1.0, 20.0)
matrices = np.zeros((n, 2, 2))
matrices[:, pos, 1 - pos] = miss  # truth positive, predicted negative
matrices[:, 1 - pos, pos] = 1.0  # truth negative, predicted positive
y_pred = model.predict(X_test, sample_cost=matrices)
for value in (1.0, 20.0):
    share = np.mean(y_pred[miss == value] == data.pos_label)
    print(f"rows where a miss costs {value:>4.0f}: {share:.0%} predicted positive")

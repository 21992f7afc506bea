"""
The money pictures: cost curves, savings curves, the cost breakdown
===================================================================

The three displays of :mod:`costsense.plots` on KEEL's *yeast1* set, for two
models' out-of-fold probabilities (five stratified folds): a logistic regression
and a random forest. A missed positive costs 5 and a false alarm 1 (class costs);
then every row gets its own cost of a miss. :ref:`guide-money` says how to read
each figure and which baseline each saving is measured against.
"""  # noqa: D205, D400

# %%
# Out-of-fold probabilities of two models
# ---------------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from costsense.datasets import load_keel
from costsense.plots import CostBreakdownDisplay, CostCurveDisplay, SavingsCurveDisplay

data = load_keel("yeast1")
y = data.y
folds = StratifiedKFold(5, shuffle=True, random_state=0)
models = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
    "forest": RandomForestClassifier(n_estimators=200, random_state=0),
}
proba = {
    name: cross_val_predict(model, data.X, y, cv=folds, method="predict_proba")[:, 1]
    for name, model in models.items()
}  # columns in sorted label order: "negative", "positive"

# %%
# Cost curves
# -----------
# Each model's curve is the lower envelope of its thresholds' lines; the diagonals
# are "all negative" and "all positive", and the vertical line is ``PC(+)`` at
# ``C1/C2 = 5`` with this set's share of positives. Where a curve meets the lower
# of the two diagonals, the model is no better than a constant prediction.
fig, ax = plt.subplots(figsize=(6, 5))
for name, p in proba.items():
    CostCurveDisplay.from_predictions(
        y, p, pos_label=data.pos_label, cost=5, name=name, ax=ax
    )
ax.set_title("yeast1: cost curves (Drummond and Holte 2006)")
plt.show()

# %%
# Savings against the threshold and against the share acted on
# ------------------------------------------------------------
# ``costs[true, predicted]`` in sorted label order: a miss (true positive,
# predicted negative) costs 5, a false alarm 1. The savings are in cost units
# over the cheaper constant policy, here acting on everybody (1,055 false alarms,
# against 429 x 5 = 2,145 for missing every positive), so threshold 0 saves
# nothing. The marks are the Bayes decisions (threshold 1 / (5 + 1)); on the
# right, they are where the curves stop rising: no further row is worth acting on.
costs = np.array([[0.0, 1.0], [5.0, 0.0]])
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
for name, p in proba.items():
    SavingsCurveDisplay.from_predictions(y, p, costs=costs, name=name, ax=left)
    SavingsCurveDisplay.from_predictions(
        y, p, costs=costs, kind="share", name=name, ax=right
    )
left.set_title("saving against the threshold")
right.set_title("saving against the share of rows acted on")
fig.tight_layout()
plt.show()

# %%
# A cost for every row
# --------------------
# *yeast1* has no amounts, so to show per-row costs we make some up: a miss costs
# a lognormal amount (median 5, seed 0), a false alarm still 1. Each row now has
# its own Bayes threshold, so the Bayes saving is drawn as a horizontal line; the
# share curve ranks rows by expected saving, which now weighs the amount.
rng = np.random.default_rng(0)
amount = rng.lognormal(np.log(5), 1.0, size=len(y))
row_costs = np.zeros((len(y), 2, 2))
row_costs[:, 1, 0] = amount  # positive missed
row_costs[:, 0, 1] = 1.0  # false alarm
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
for name, p in proba.items():
    SavingsCurveDisplay.from_predictions(y, p, costs=row_costs, name=name, ax=left)
    SavingsCurveDisplay.from_predictions(
        y, p, costs=row_costs, kind="share", name=name, ax=right
    )
left.set_title("per-row costs: saving against the threshold")
right.set_title("per-row costs: saving against the share")
fig.tight_layout()
plt.show()

# %%
# Where the money goes
# --------------------
# Each model's Bayes decisions at the class costs, and acting on everybody, split
# into false alarms, missed positives, handled positives and true negatives; a
# bar's length is its total cost. Most of the models' money goes on false alarms:
# at ``C1/C2 = 5`` it pays to raise many to miss few.
decisions = {name: (p >= 1 / 6).astype(int) for name, p in proba.items()}
decisions["everybody"] = np.ones(len(y), dtype=int)
labels = {name: np.array(["negative", "positive"])[d] for name, d in decisions.items()}
CostBreakdownDisplay.from_predictions(y, labels, costs=costs)
plt.title("yeast1: cost of the Bayes decisions by outcome")
plt.tight_layout()
plt.show()

"""
Cost-sensitive boosting on two Gaussians, against the Bayes boundary
====================================================================

Paper 000 (Cao et al., "Fisher consistent cost sensitive boosting") compares boosting
variants on two Gaussians whose cost-sensitive Bayes boundary is known exactly. This
example fits five of :mod:`costsense.boosting`'s variants at ``C1/C2 = 5``:

- :class:`~costsense.boosting.AdaBoostClassifier`, cost-blind, the reference;
- :class:`~costsense.boosting.AdaC2Classifier`, the cost outside the exponent of the
  weight update;
- :class:`~costsense.boosting.AsyBClassifier`, the paper's Fisher-consistent
  discrete variant, as printed;
- :class:`~costsense.boosting.AsyBLClassifier`, its LogitBoost variant (regression
  trees, shrinkage 0.1);
- :class:`~costsense.boosting.CalibratedAdaBoostClassifier`, AdaBoost with Platt
  scaling and the Bayes threshold,

draws each boundary over the exact Bayes boundary, and follows each model's cost round
by round with staged predictions.
"""  # noqa: D205, D400

# %%
# Five boosters, one weak learner
# -------------------------------
# The discrete variants boost depth-3 trees for 50 rounds; AsyBL boosts depth-3
# regression trees (its default).
import matplotlib.pyplot as plt
import numpy as np
from sklearn.tree import DecisionTreeClassifier

from costsense.boosting import (
    AdaBoostClassifier,
    AdaC2Classifier,
    AsyBClassifier,
    AsyBLClassifier,
    CalibratedAdaBoostClassifier,
)
from costsense.datasets import make_gaussian_problem
from costsense.metrics import misclassification_cost

COST = 5
problem = make_gaussian_problem()
X, y = problem.sample(1000, random_state=0)
X_test, y_test = problem.sample(20000, random_state=1)


def tree():
    """Return the weak learner of the discrete variants."""
    return DecisionTreeClassifier(max_depth=3)


models = {
    "AdaBoost (cost-blind)": AdaBoostClassifier(tree(), random_state=0),
    "AdaC2": AdaC2Classifier(tree(), cost=COST, pos_label=1, random_state=0),
    "AsyB": AsyBClassifier(tree(), cost=COST, pos_label=1, random_state=0),
    "AsyBL": AsyBLClassifier(cost=COST, pos_label=1, random_state=0),
    "calibrated AdaBoost": CalibratedAdaBoostClassifier(
        tree(), cost=COST, pos_label=1, random_state=0
    ),
}
for model in models.values():
    model.fit(X, y)

# %%
# Exact excess cost over the Bayes risk
# -------------------------------------
risk = problem.bayes_risk(COST)
excess = {
    name: problem.expected_cost(model, cost=COST, resolution=512) / risk - 1
    for name, model in models.items()
}
for name, value in excess.items():
    print(f"{name:22s} excess expected cost over the Bayes risk: {value:6.1%}")

# %%
# Boundaries
# ----------
# Black: the booster's boundary; dashed red: the cost-sensitive Bayes boundary. The
# cost-blind AdaBoost follows the error-rate boundary, far from the red curve; the
# cost-sensitive variants bend towards it, each in its own way.
xx, yy, g = problem.bayes_boundary_grid(COST, xlim=(-8, 8), ylim=(-8, 8))
grid = np.column_stack([xx.ravel(), yy.ravel()])
fig, axes = plt.subplots(2, 3, figsize=(12, 8), sharex=True, sharey=True)
for ax, (name, model) in zip(axes.ravel(), models.items(), strict=False):
    labels = model.predict(grid).reshape(xx.shape)
    ax.contourf(xx, yy, labels, levels=[-2, 0, 2], colors=["#dde8f5", "#f7e0d6"])
    ax.scatter(*X[y == -1].T, s=3, color="C0", alpha=0.4)
    ax.scatter(*X[y == 1].T, s=3, color="C3", alpha=0.4)
    ax.contour(xx, yy, labels, levels=[0], colors="black", linewidths=1.2)
    ax.contour(xx, yy, g, levels=[0], colors="red", linestyles="--", linewidths=1.5)
    ax.set_title(f"{name}\nexcess over Bayes {excess[name]:.1%}")
bayes_ax = axes.ravel()[-1]
bayes_ax.contourf(xx, yy, g > 0, levels=[-0.5, 0.5, 1.5], colors=["#dde8f5", "#f7e0d6"])
bayes_ax.contour(xx, yy, g, levels=[0], colors="red", linestyles="--", linewidths=1.5)
bayes_ax.set_title("cost-sensitive Bayes rule\n(positive where shaded red)")
fig.suptitle(f"Two Gaussians of paper 000, C1/C2 = {COST}")
fig.tight_layout()
plt.show()

# %%
# Cost round by round
# -------------------
# ``staged_predict`` gives the prediction after every round; the mean cost on 20,000
# fresh test points is drawn against the round, with the Bayes risk as the floor.
fig, ax = plt.subplots(figsize=(7, 4))
for name, model in models.items():
    if not hasattr(model, "staged_predict"):
        continue
    curve = [
        misclassification_cost(y_test, pred, cost=COST, pos_label=1, normalize=True)
        for pred in model.staged_predict(X_test)
    ]
    ax.plot(np.arange(1, len(curve) + 1), curve, label=name)
ax.axhline(risk, color="red", linestyle="--", label="Bayes risk")
ax.set_xlabel("boosting round")
ax.set_ylabel("mean test cost per point")
ax.legend()
fig.tight_layout()
plt.show()

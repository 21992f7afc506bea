"""
Threshold moving, weighting and MetaCost around one classifier
===============================================================

:mod:`costsense.rescale` makes any scikit-learn classifier cost-sensitive in one of
three ways: train it with cost-proportional sample weights (:class:`~costsense.rescale.
CostWeighting`), keep it as it is and move its decision threshold to
``C2 / (C1 + C2)`` (:class:`~costsense.rescale.ThresholdMoving`), or relabel the
training set with each row's cheapest class under bagged probabilities and retrain
(:class:`~costsense.rescale.MetaCost`).

On the two-Gaussian problem of paper 000 (Cao et al.) the cost-sensitive Bayes boundary
and the expected cost of any classifier are known exactly
(:func:`costsense.datasets.make_gaussian_problem`), so each method's boundary is drawn
beside the Bayes boundary and scored by its exact excess cost over the Bayes risk.
"""  # noqa: D205, D400

# %%
# The problem and a base learner
# ------------------------------
# A missed positive costs five false alarms (``cost=5``). The base learner is a
# logistic regression on quadratic features, so it can draw a conic like the Bayes
# boundary.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import PolynomialFeatures

from costsense.datasets import make_gaussian_problem
from costsense.rescale import CostWeighting, MetaCost, ThresholdMoving

COST = 5
problem = make_gaussian_problem()
X, y = problem.sample(1000, random_state=0)
quadratic = PolynomialFeatures(degree=2, include_bias=False).fit(X)
Q = quadratic.transform(X)


def base():
    """Return a fresh, cost-blind base learner."""
    return LogisticRegression(max_iter=1000)


models = {
    "plain (cost-blind)": base(),
    "CostWeighting": CostWeighting(base(), cost=COST, pos_label=1),
    "ThresholdMoving": ThresholdMoving(base(), cost=COST, pos_label=1),
    "MetaCost": MetaCost(base(), cost=COST, pos_label=1, random_state=0),
}
for model in models.values():
    model.fit(Q, y)

# %%
# Exact expected costs
# --------------------
# :meth:`~costsense.datasets.GaussianProblem.expected_cost` integrates a classifier's
# errors over the two known densities (here on a 512 x 512 grid per class); the
# Bayes risk is the least cost any classifier can reach.
risk = problem.bayes_risk(COST)
excess = {}
for name, model in models.items():
    cost = problem.expected_cost(
        lambda Z, model=model: model.predict(quadratic.transform(Z)),
        cost=COST,
        resolution=512,
    )
    excess[name] = cost / risk - 1
    print(f"{name:20s} expected cost {cost:.4f}  excess over Bayes {excess[name]:.1%}")
print(f"{'Bayes rule':20s} expected cost {risk:.4f}")

# %%
# The boundaries
# --------------
# Solid black: the method's boundary; dashed red: the exact cost-sensitive Bayes
# boundary ``C1 pi+ p+(x) = C2 pi- p-(x)``. The cost-blind model sits where errors
# of both kinds are equally likely; the three cost-sensitive ones move towards the
# negative class, giving up false alarms to catch more positives.
xx, yy, g = problem.bayes_boundary_grid(COST, xlim=(-8, 8), ylim=(-8, 8))
grid = quadratic.transform(np.column_stack([xx.ravel(), yy.ravel()]))
fig, axes = plt.subplots(2, 2, figsize=(9, 8.5), sharex=True, sharey=True)
for ax, (name, model) in zip(axes.ravel(), models.items(), strict=False):
    labels = model.predict(grid).reshape(xx.shape)
    ax.contourf(xx, yy, labels, levels=[-2, 0, 2], colors=["#dde8f5", "#f7e0d6"])
    ax.scatter(*X[y == -1].T, s=4, color="C0", alpha=0.5, label="negative")
    ax.scatter(*X[y == 1].T, s=4, color="C3", alpha=0.5, label="positive")
    ax.contour(xx, yy, labels, levels=[0], colors="black", linewidths=1.5)
    ax.contour(xx, yy, g, levels=[0], colors="red", linestyles="--", linewidths=1.5)
    ax.set_title(f"{name}\nexcess cost over Bayes {excess[name]:.1%}")
axes[0, 0].legend(loc="lower left", markerscale=3)
fig.suptitle(f"Two Gaussians (paper 000), C1/C2 = {COST}: method (black), Bayes (red)")
fig.tight_layout()
plt.show()

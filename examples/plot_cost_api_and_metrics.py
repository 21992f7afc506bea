"""
Stating costs and measuring them
================================

costsense accepts a cost in one of four forms (a ratio, a pair, a ``K x K`` matrix, or
one cost per row) and converts them all to the same thing: what each decision costs.
This example states one cost in every form, checks that they agree, then measures a
classifier on KEEL's *pima* set with the cost metrics of :mod:`costsense.metrics`, and
draws how its cost moves with the decision threshold: the minimum sits at the
cost-sensitive Bayes threshold ``C2 / (C1 + C2)``.
"""  # noqa: D205, D400

# %%
# Four ways to say "a missed positive costs five false alarms"
# -------------------------------------------------------------
# A ratio ``C1 / C2`` (with ``C2 = 1``), a pair ``(C1, C2)`` and a matrix
# ``cost[true, predicted]`` describe the same costs. The positive (costly) class is
# the minority class unless ``pos_label`` names it.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from costsense.costs import Costs, as_cost_matrix, bayes_threshold
from costsense.datasets import load_keel
from costsense.metrics import (
    binary_recall_score,
    binary_specificity_score,
    g_mean_score,
    misclassification_cost,
    savings_score,
)

classes = np.array(["negative", "positive"])
from_ratio = as_cost_matrix(5, classes, pos_label="positive")
from_pair = as_cost_matrix((5, 1), classes, pos_label="positive")
matrix = [[0, 1], [5, 0]]  # rows: the truth, columns: the prediction
from_matrix = as_cost_matrix(matrix, classes)
print(from_ratio)
assert np.array_equal(from_ratio, from_pair)
assert np.array_equal(from_ratio, from_matrix)

# %%
# Per-row costs are cost rows: ``rows[i, j]`` is what predicting class ``j`` costs on
# row ``i``. Per-row amounts are named by the error they price (one unnamed amount
# per row is refused): here a missed positive costs its amount, a false alarm 1.
y_small = np.array(["negative", "positive", "positive"])
amounts = {"fn": [0.0, 120.0, 8.0], "fp": 1.0}
rows = Costs.resolve(None, y_small, pos_label="positive", sample_cost=amounts).rows
print(rows)
assert rows.tolist() == [[0.0, 1.0], [120.0, 0.0], [8.0, 0.0]]

# %%
# The threshold the costs imply
# -----------------------------
# With calibrated probabilities, predicting positive is cheaper in expectation when
# ``C1 P(+|x) > C2 P(-|x)``, that is when ``P(+|x) > C2 / (C1 + C2)`` (Elkan, 2001).
print("Bayes threshold at C1/C2 = 5:", bayes_threshold(5))  # 1/6

# %%
# Measuring a classifier with costs
# ---------------------------------
# A logistic regression on pima (268 diabetic, 500 not), predicted at the usual 0.5
# and at the Bayes threshold 1/6.
data = load_keel("pima")
X_train, X_test, y_train, y_test = train_test_split(
    data.X, data.y, test_size=0.5, stratify=data.y, random_state=0
)
model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
positive = data.pos_label
p_positive = model.predict_proba(X_test)[:, list(model.classes_).index(positive)]
negative = [label for label in model.classes_ if label != positive][0]


def predict_at(threshold):
    """Labels predicted when P(+|x) > threshold."""
    return np.where(p_positive > threshold, positive, negative)


metrics = {
    "total cost": lambda y, p: misclassification_cost(y, p, cost=5, pos_label=positive),
    "savings": lambda y, p: savings_score(y, p, cost=5, pos_label=positive),
    "recall": lambda y, p: binary_recall_score(y, p, pos_label=positive),
    "specificity": lambda y, p: binary_specificity_score(y, p, pos_label=positive),
    "G-mean": lambda y, p: g_mean_score(y, p, pos_label=positive),
}
for threshold in (0.5, bayes_threshold(5)):
    y_pred = predict_at(threshold)
    values = ", ".join(f"{k} {f(y_test, y_pred):.3g}" for k, f in metrics.items())
    print(f"threshold {threshold:.3f}: {values}")

# %%
# The cost of every threshold
# ---------------------------
# The test cost against the threshold, at three cost ratios; each dotted line is that
# ratio's Bayes threshold. The minimum of each curve lies near its line: how near
# depends on how well calibrated the logistic regression is.
thresholds = np.linspace(0.01, 0.99, 99)
fig, ax = plt.subplots(figsize=(7, 4))
for ratio, color in zip((2, 5, 10), ("C0", "C1", "C2"), strict=True):
    costs = [
        misclassification_cost(
            y_test, predict_at(t), cost=ratio, pos_label=positive, normalize=True
        )
        for t in thresholds
    ]
    ax.plot(thresholds, costs, color=color, label=f"C1/C2 = {ratio}")
    ax.axvline(bayes_threshold(ratio), color=color, linestyle=":")
ax.set_xlabel("threshold on P(positive | x)")
ax.set_ylabel("mean test cost per row")
ax.set_title("pima, logistic regression: cost against the decision threshold")
ax.legend()
fig.tight_layout()
plt.show()

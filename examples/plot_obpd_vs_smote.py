"""
OBPD against SMOTE: where the synthetic rows fall
=================================================

SMOTE (imbalanced-learn) draws each synthetic minority row on the segment between a
minority row and one of its minority neighbours. OBPD (paper 003,
:class:`costsense.sampling.OBPDSampler`) fits a Gaussian mixture to the minority class
and draws new rows from it, so they spread like the class, beyond the segments and the
convex hull of the observed rows. Both follow imbalanced-learn's ``fit_resample``
contract and append their synthetic rows after the originals.

The data are two standardised features of KEEL's *ecoli1* set (77 positive rows,
259 negative), balanced by each sampler.
"""  # noqa: D205, D400

# %%
# Resample with both
# ------------------
import matplotlib.pyplot as plt
import numpy as np
from imblearn.over_sampling import SMOTE
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import StandardScaler

from costsense.datasets import load_keel
from costsense.sampling import OBPDSampler

data = load_keel("ecoli1")
X = StandardScaler().fit_transform(data.X[:, [0, 1]])
y = data.y
positive = X[y == data.pos_label]
samplers = {
    "SMOTE": SMOTE(random_state=0),
    "OBPD": OBPDSampler(random_state=0),
}
synthetic = {}
for name, sampler in samplers.items():
    X_res, y_res = sampler.fit_resample(X, y)
    # the synthetic rows come after the originals, all of the positive class
    assert np.array_equal(X_res[: len(X)], X)
    synthetic[name] = X_res[len(X) :]
    assert (y_res[len(X) :] == data.pos_label).all()
    print(f"{name}: {len(synthetic[name])} synthetic positive rows")
obpd = samplers["OBPD"]
mixture = obpd.models_[data.pos_label][-1]  # the GaussianMixture of the pipeline
print("OBPD mixture components of the positive class:", mixture.n_components)

# %%
# The samples pictured
# --------------------
# Grey: negative rows; red: observed positive rows; black crosses: synthetic
# positive rows. SMOTE's lie on segments between observed neighbours; OBPD's follow
# the fitted mixture's density (here Figueiredo & Jain's message length chose the
# number of components printed above), including places no observed row occupies.
fig, axes = plt.subplots(1, 2, figsize=(11, 5), sharex=True, sharey=True)
for ax, (name, rows) in zip(axes, synthetic.items(), strict=True):
    ax.scatter(*X[y != data.pos_label].T, s=8, color="0.75", label="negative")
    ax.scatter(*rows.T, s=10, marker="x", color="black", alpha=0.6, label="synthetic")
    ax.scatter(*positive.T, s=14, color="C3", label="positive")
    ax.set_title(f"{name}: {len(rows)} synthetic positive rows")
    ax.set_xlabel("feature x0 (standardised)")
axes[0].set_ylabel("feature x1 (standardised)")
axes[0].legend(loc="upper left")
fig.tight_layout()
plt.show()

# %%
# How far from the observed rows
# ------------------------------
# The distance of each synthetic row to its nearest observed positive row. SMOTE
# never goes further than the neighbour it interpolates towards; OBPD's draws reach
# further out, which is what lets a learner see the class's extent rather than its
# observed points.
nearest = NearestNeighbors(n_neighbors=1).fit(positive)
fig, ax = plt.subplots(figsize=(7, 4))
bins = np.linspace(0, 2.5, 40)
for name, rows in synthetic.items():
    distance = nearest.kneighbors(rows)[0].ravel()
    print(
        f"{name}: median distance {np.median(distance):.3f}, max {distance.max():.3f}"
    )
    ax.hist(distance, bins=bins, histtype="step", linewidth=2, label=name)
ax.set_xlabel("distance to the nearest observed positive row")
ax.set_ylabel("synthetic rows")
ax.legend()
fig.tight_layout()
plt.show()

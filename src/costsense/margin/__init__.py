"""Margin-distribution learners (paper 002): LDM, CS-LDM, and the CS-SVM baseline.

:class:`LDMClassifier` and :class:`CSLDMClassifier` share one estimator and two
solvers (linear dual coordinate descent with no ``n x n`` matrix; the exact kernel
dual, or a Nystroem map for large ``n``); :class:`CSSVMClassifier` is
scikit-learn's LinearSVC / SVC with cost weights.
"""

from __future__ import annotations

from costsense.margin._cssvm import CSSVMClassifier
from costsense.margin._ldm import CSLDMClassifier, LDMClassifier

__all__ = ["CSLDMClassifier", "CSSVMClassifier", "LDMClassifier"]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__

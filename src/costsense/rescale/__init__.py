"""Make any scikit-learn classifier cost-sensitive.

Four general reductions, each a meta-estimator around a base ``estimator`` with a
``cost`` given as in :mod:`costsense.costs` (papers 000 and 002 cite them as the
standard ways of "rescaling" a cost-blind learner):

:class:`CostWeighting`
    Train the base learner with ``sample_weight`` proportional to each sample's cost
    of error (the folk theorem of Zadrozny, Langford & Abe 2003; for several classes
    the consistent class weights of Zhou & Liu 2010).
:class:`RejectionSampling`
    "Costing" (Zadrozny, Langford & Abe 2003): keep each sample with probability
    proportional to its cost, train on the kept ones, repeat and vote. Needs no
    ``sample_weight`` support.
:class:`ThresholdMoving`
    Train the base learner on the data as it is, then predict the class of least
    expected cost under its (optionally calibrated) probabilities: for two classes,
    positive iff ``P(+|x) > C2 / (C1 + C2)`` (Elkan 2001).
:class:`MetaCost`
    Relabel each training sample with its least-expected-cost class under a bagged
    probability estimate, then train the base learner on the relabelled data
    (Domingos 1999).

The positive (costly) class of a binary cost is the minority class unless
``pos_label`` names it; ``cost=None`` means balanced costs (each class's error cost
inversely proportional to its frequency).

Each takes per-row costs in ``fit(X, y, sample_cost=...)`` and decides each row by
its own costs in ``predict(X, sample_cost=...)`` (Zadrozny & Elkan 2001; each
class's Notes say how).
"""

from __future__ import annotations

from ._metacost import MetaCost
from ._rejection import RejectionSampling
from ._threshold import ThresholdMoving
from ._weighting import CostWeighting
from ._weights import consistent_class_weights

__all__ = [
    "CostWeighting",
    "MetaCost",
    "RejectionSampling",
    "ThresholdMoving",
    "consistent_class_weights",
]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__

"""Oversamplers that model each class (paper 003): OBPD and RWO.

Both follow imbalanced-learn's ``fit_resample`` contract (``sampling_strategy``,
``random_state``) and work inside its :class:`~imblearn.pipeline.Pipeline`;
categorical columns (any values, strings included; given by index, mask, name or
"auto", as for imbalanced-learn's SMOTENC) are drawn by roulette wheel from the
class's frequencies. A DataFrame in gives a DataFrame out, with its dtypes.
:func:`categorical_columns` reads ``categorical_features`` into column indices.
SMOTE is imbalanced-learn's own.
"""

from costsense.sampling._columns import categorical_columns
from costsense.sampling._obpd import OBPDSampler
from costsense.sampling._rwo import RWOSampler

__all__ = ["OBPDSampler", "RWOSampler", "categorical_columns"]

# model files, pickles and the API reference name the public path, so moving a
# private module changes none of them
for _name in __all__:
    if isinstance(globals()[_name], type):
        globals()[_name].__module__ = __name__

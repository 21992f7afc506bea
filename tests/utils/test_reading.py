import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from costsense.utils._reading import RowReading


def test_numbers_pass_through_unchanged_missing_values_kept():
    frame = pd.DataFrame({"amount": [1.5, np.nan, -3.0], "age": [30, 41, 52]})
    step = RowReading({"amount": ","}, "keep").fit(frame)
    out = step.transform(frame)
    np.testing.assert_array_equal(out, frame.to_numpy(dtype=float))
    assert list(step.get_feature_names_out()) == ["amount", "age"]


def test_another_width_is_refused_naming_both():
    step = RowReading().fit(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="3 columns; RowReading was fitted on 2"):
        step.transform(np.zeros((3, 3)))


def test_the_reading_options_are_parameters_so_clone_and_compare_see_them():
    parts = {"fp": 40.0, "fn": "amount", "tp": 0.0, "tn": 0.0}
    step = RowReading({"amount": "."}, "drop", parts)
    assert clone(step).get_params() == {
        "number_marks": {"amount": "."},
        "missing": "drop",
        "cost_parts": parts,
    }


def test_unseen_categories_are_read_from_the_fitted_encoder():
    from costsense.utils._reading import make_encoder, unseen_categories

    kinds = {"city": "categorical", "x": "numeric", "shop": "categorical"}
    train = pd.DataFrame({"city": ["a", "b"], "x": [1.0, 2.0], "shop": ["s", "t"]})
    encoder = make_encoder(kinds, "raise").fit(train)
    new = pd.DataFrame({"city": ["a", "c", None, "c"], "x": [1.0] * 4,
                        "shop": ["s", "t", "t", "s"]})  # fmt: skip
    rows = np.array([True, True, True, False])  # the last is not decided
    found = unseen_categories(encoder, new, rows)
    assert list(found) == ["city"]  # shop: nothing unseen; None: missing, not unseen
    np.testing.assert_array_equal(found["city"], [False, True, False, False])
    numbers = make_encoder({"x": "numeric"}, "raise").fit(train[["x"]])
    assert unseen_categories(numbers, new, rows) == {}

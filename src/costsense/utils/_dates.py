"""Date-time text columns as features: the hour, the weekday, the day and the month.

A column of dates or times (``2026-01-31``, ``31/01/2026 14:05``,
``2026-01-31T14:05:00Z``) would become one indicator column per distinct value
if it were encoded as categories: tens of thousands of columns, and nothing a
model can use on new dates. :class:`DateTimeParts` turns each such column into
four numbers that recur: the hour of the day (minutes as a fraction, 0 to
24), the day of the week (0 = Monday), the day of the month and the month.
The year and the elapsed time are left out on purpose: a model fitted on past
rows would meet only values it never saw when it decides new ones.

Texts with a UTC offset or ``Z`` are read in UTC; without one, as written. The
format is learned from the training rows. A day and a month both up to 12 are
ambiguous (``03/04/2026``): if the training rows read both ways, the column is
refused by name (write it as ``YYYY-MM-DD``) rather than guessed.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sklearn.base import BaseEstimator, TransformerMixin

__all__ = [
    "DATE_TIME",
    "PARTS",
    "AmbiguousDates",
    "DateTimeParts",
    "date_format",
    "looks_like_dates",
    "read_dates",
]

#: A text cell read as a date or a time: digits joined by - / . : or T.
DATE_TIME = (
    r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}"
    r"([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?"
)

#: The numbers each date-time column becomes, as suffixes of its name.
PARTS = ("hour", "weekday", "day", "month")


class AmbiguousDates(ValueError):
    """The cells read as dates both day first and month first, differently."""


def looks_like_dates(column: Any) -> bool:
    """Whether a text column holds dates or times (95 % of its first 1,000 cells)."""
    cells = column.dropna().astype(str).str.strip().iloc[:1000]
    return bool(cells.size) and bool(cells.str.fullmatch(DATE_TIME).mean() >= 0.95)


def date_format(column: Any) -> str:
    """Learn how a column writes its dates: a format for :func:`pandas.to_datetime`.

    Returns ``"ISO8601"`` for year-first dates, else the format that reads
    every non-empty cell (day first or month first).

    Raises
    ------
    AmbiguousDates
        Both orders read every cell, to different dates.
    ValueError
        No single format reads every cell (the message gives the first cell).
    """
    import pandas as pd
    from pandas.tseries.api import guess_datetime_format

    cells = column.dropna().astype(str).str.strip()
    if cells.empty:
        return "ISO8601"
    first = cells.iloc[0]
    found: dict[str, Any] = {}
    for dayfirst in (False, True):
        with warnings.catch_warnings():  # pandas warns when the other order fits
            warnings.simplefilter("ignore", UserWarning)
            pattern = guess_datetime_format(first, dayfirst=dayfirst)
        if _year_first(first):
            pattern = "ISO8601"
        if pattern is None or pattern in found:
            continue
        read = pd.to_datetime(cells, format=pattern, errors="coerce", utc=True)
        if not read.isna().any():
            found[pattern] = read
    if not found:
        raise ValueError(f"its cells are not all dates of one format ({first!r}, ...)")
    if len(found) > 1:
        readings = list(found.values())
        if not readings[0].equals(readings[1]):
            raise AmbiguousDates(
                f"its dates read both day first and month first (such as {first!r})"
            )
    return next(iter(found))


def _year_first(text: str) -> bool:
    """Whether a date is written year first (``2026-01-31...``)."""
    return re.match(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}", text) is not None


def read_dates(column: Any, pattern: str) -> Any:
    """Parse a column by ``pattern`` (UTC where an offset is given); NaT if unread."""
    import pandas as pd

    return pd.to_datetime(
        column.astype("string").str.strip(), format=pattern, errors="coerce", utc=True
    )


class DateTimeParts(TransformerMixin, BaseEstimator):
    """Turn date-time text columns into hour, weekday, day and month.

    Each input column ``c`` gives ``c_hour`` (0 to 24, minutes as a fraction),
    ``c_weekday`` (0 = Monday to 6), ``c_day`` (1 to 31) and ``c_month`` (1 to
    12); an empty or unreadable cell gives NaN in all four.

    Attributes
    ----------
    formats_ : list of str
        Each column's format, learned from the training rows
        (:func:`date_format`).
    feature_names_in_ : ndarray of str
        The input columns.
    """

    def fit(self, X: Any, y: Any = None) -> DateTimeParts:
        """Learn each column's date format."""
        import pandas as pd

        frame = pd.DataFrame(X)
        names = [str(c) for c in frame.columns]
        self.feature_names_in_ = np.asarray(names, dtype=object)
        self.n_features_in_ = frame.shape[1]
        self.formats_ = [date_format(frame[c]) for c in frame.columns]
        return self

    def transform(self, X: Any) -> NDArray[np.float64]:
        """Return the four numbers of each column, side by side."""
        import pandas as pd

        frame = pd.DataFrame(X)
        blocks = []
        for k, column in enumerate(frame.columns):
            read = read_dates(frame[column], self.formats_[k])
            parts = np.column_stack(
                [
                    read.dt.hour + read.dt.minute / 60.0,
                    read.dt.weekday,
                    read.dt.day,
                    read.dt.month,
                ]
            )
            blocks.append(parts.astype(np.float64))
        return np.hstack(blocks) if blocks else np.empty((frame.shape[0], 0))

    def get_feature_names_out(self, input_features: Any = None) -> NDArray[Any]:
        """Name the outputs ``<column>_hour``, ``_weekday``, ``_day``, ``_month``."""
        return np.asarray(
            [f"{c}_{part}" for c in self.feature_names_in_ for part in PARTS],
            dtype=object,
        )

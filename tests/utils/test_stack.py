"""A warning raised deep inside the libraries names the user's line."""

from __future__ import annotations

import inspect
import warnings

from costsense.utils._stack import caller_level


def _function_of(module: str, source: str, **names):
    """Define a function in a namespace named ``module`` (a library's frame)."""
    namespace = {"__name__": module, "warnings": warnings, **names}
    exec(compile(source, f"<{module}>", "exec"), namespace)  # test code, not input
    return namespace["run"]


def _warning_in_costsense():
    """A function of a costsense module that warns at ``caller_level()``."""
    return _function_of(
        "costsense.inner",
        "def run():\n    warnings.warn('deep', UserWarning, stacklevel=caller_level())",
        caller_level=caller_level,
    )


def test_every_costsense_sklearn_and_imblearn_frame_is_skipped():
    warn = _warning_in_costsense()
    middle = _function_of("imblearn.middle", "def run():\n    inner()", inner=warn)
    outer = _function_of("sklearn.outer", "def run():\n    middle()", middle=middle)
    for entry in (warn, middle, outer):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            line = inspect.currentframe().f_lineno + 1
            entry()
        assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)]


def test_a_frame_outside_the_libraries_stops_the_walk():
    # a user's callback called by costsense: the warning names the callback's line
    warn = _warning_in_costsense()
    user = _function_of("my_project.callback", "def run():\n    inner()", inner=warn)
    library = _function_of("costsense.outer", "def run():\n    user()", user=user)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        library()
    assert [(w.filename, w.lineno) for w in caught] == [("<my_project.callback>", 2)]

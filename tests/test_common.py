"""scikit-learn's (and imbalanced-learn's) estimator checks over the whole registry."""

from __future__ import annotations

from sklearn.utils.estimator_checks import parametrize_with_checks

from tests._registry import classifiers, fast_instance, samplers

# Each entry: estimator name -> {check name: reason}. Reviewed like code.
_RANDOM_DRAWS = (
    "members are trained on random draws of the training rows; a row repeated twice "
    "is drawn independently twice, so repeated rows and integer weights give "
    "different draws (scikit-learn expects the same of BaggingClassifier)"
)
_TIED_SPLITS = (
    "the check's data (15 samples x 30 random features) has many tree "
    "splits of exactly equal gain, and its weighted copy is shuffled, so ties break "
    "differently; with rows in the same order, integer weights and repeated rows "
    "give the same model (tests/boosting)"
)
_ADACOST_EQUAL_COSTS = (
    "with equal costs AdaCost's step is never positive (beta = 0 for every correctly "
    "classified sample of the costliest class, so r < 0): boosting stops at round 1 "
    "and the model is the constant rule of least cost, below the check's accuracy"
)
_SOLVER_TOLERANCE = (
    "the dual coordinate descent stops at tol=1e-3 on the projected gradient, so "
    "weighted and repeated fits agree only to that tolerance, not to the check's "
    "rtol=1e-7; at tol=1e-12 they agree (tests/margin)"
)
_SYNTHETIC_ROWS = (
    "each round's oversampler draws its synthetic rows from the rows themselves "
    "(SMOTE's neighbours, RWO's parents, OBPD's mixture), so a row repeated twice "
    "changes them where an integer weight does not"
)
_BALANCED_BY_ROWS = (
    "OBPD balances the classes by their row counts and fits its mixtures to the "
    "rows, unweighted: a row repeated twice changes both where an integer weight "
    "only starts EFSBoost's weights (tests/boosting/test_obpd_efs.py)"
)
_FOREST_BOOTSTRAP = (
    "its forest candidate draws bootstrap samples at random (scikit-learn's "
    "RandomForestClassifier fails this check the same way), and its inner folds "
    "split rows, not weights: a row repeated twice is drawn and split "
    "independently where an integer weight is not"
)
_EARLY_STOPPING_SPLIT = (
    "early stopping holds out a random tenth of the rows: repeating a row changes "
    "which rows are held out, so weights and repeats give different validation "
    "sets and rounds (scikit-learn's HistGradientBoosting with early stopping "
    "likewise)"
)
EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {
    "BoostedTreesClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _EARLY_STOPPING_SPLIT
    },
    "MinimumCostClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _FOREST_BOOTSTRAP
    },
    "OBPDEFSBoostClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _BALANCED_BY_ROWS
    },
    **{
        name: {"check_sample_weight_equivalence_on_dense_data": _SYNTHETIC_ROWS}
        for name in (
            "SMOTEBoostClassifier",
            "RWOBoostClassifier",
            "OBPDBoostClassifier",
        )
    },
    "LDMClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _SOLVER_TOLERANCE
    },
    "CSLDMClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _SOLVER_TOLERANCE
    },
    "CSSVMClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _SOLVER_TOLERANCE
    },
    "RejectionSampling": {
        "check_sample_weight_equivalence_on_dense_data": _RANDOM_DRAWS
    },
    "MetaCost": {"check_sample_weight_equivalence_on_dense_data": _RANDOM_DRAWS},
    "CostSensitiveForestClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _RANDOM_DRAWS
    },
    "AsyBLClassifier": {"check_sample_weight_equivalence_on_dense_data": _TIED_SPLITS},
    "AsymLogitBoostClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _TIED_SPLITS
    },
    "AsymBoostClassifier": {
        "check_sample_weight_equivalence_on_dense_data": _TIED_SPLITS
    },
    "AdaCostClassifier": {
        "check_classifiers_train": _ADACOST_EQUAL_COSTS,
        "check_classifiers_train(readonly_memmap=True)": _ADACOST_EQUAL_COSTS,
        "check_classifiers_train(readonly_memmap=True,X_dtype=float32)": (
            _ADACOST_EQUAL_COSTS
        ),
    },
}


def _expected_failed(estimator):
    return EXPECTED_FAILED_CHECKS.get(type(estimator).__name__, {})


ESTIMATORS = [fast_instance(cls) for cls in classifiers() + samplers()]


def test_registry_is_not_empty():
    names = {type(e).__name__ for e in ESTIMATORS}
    wrappers = {"CostWeighting", "RejectionSampling", "ThresholdMoving", "MetaCost"}
    assert wrappers <= names


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


SAMPLERS = [fast_instance(cls) for cls in samplers()]

if SAMPLERS:  # imbalanced-learn's sampler checks, once a sampler is registered
    from imblearn.utils.estimator_checks import (
        parametrize_with_checks as imblearn_parametrize_with_checks,
    )

    _DENSE_MODELS = (
        "the class models are densities over dense real columns, so sparse input "
        "(scipy or pandas' sparse columns) is refused with a TypeError that says "
        "how to densify it (.toarray(), or X.sparse.to_dense()), rather than "
        "densified silently"
    )
    EXPECTED_FAILED_SAMPLER_CHECKS: dict[str, dict[str, str]] = {
        name: {"check_samplers_pandas_sparse": _DENSE_MODELS}
        for name in ("OBPDSampler", "RWOSampler")
    }

    def _expected_failed_sampler(estimator):
        return EXPECTED_FAILED_SAMPLER_CHECKS.get(type(estimator).__name__, {})

    @imblearn_parametrize_with_checks(
        SAMPLERS, expected_failed_checks=_expected_failed_sampler
    )
    def test_imblearn_compatible_sampler(estimator, check):
        check(estimator)

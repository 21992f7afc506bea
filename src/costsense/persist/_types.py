"""The exact types a model file may hold, per skops loader.

A node's ``__loader__`` says how skops builds it (a class given its attributes
without its ``__init__``, an array read from its member, a type looked up by
name) and its ``__module__.__class__`` what. Listed: the estimators of the
catalog's models and bases (costsense's by their public path), the pipeline pieces
``costsense fit`` adds, the internals those hold once fitted, numpy's data types
and one function. No module prefix, no builtin function, no loader that calls an
arbitrary callable (``MethodNode``, ``PartialNode``, ``OperatorFuncNode``,
``ConstructorFromReduceNode``, ``BytesNode``). ``tests/cli/test_model_types.py``
fails, naming the type, when a catalog model gains one this table lacks, or an
entry is used by no model.
"""

from __future__ import annotations

import numpy as np

#: numpy's scalar types: labels, dtypes and array elements (data, not code),
#: named as skops names them (``numpy.bool`` since numpy 2).
_NAMES = "bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32"
NUMPY_SCALARS = frozenset(
    f"{kind.__module__}.{kind.__name__}"
    for kind in (getattr(np, name) for name in f"{_NAMES} float64 str_".split())
)

#: Python's own scalar types.
PYTHON_SCALARS = frozenset(f"builtins.{n}" for n in ("str", "int", "float", "bool"))

_ESTIMATORS = frozenset(
    {
        # costsense: the catalog's methods and bases
        "costsense.boosting.AdaBoostCClassifier",
        "costsense.boosting.AdaBoostClassifier",
        "costsense.boosting.AdaC1Classifier",
        "costsense.boosting.AdaC2Classifier",
        "costsense.boosting.AdaC3Classifier",
        "costsense.boosting.AdaCostClassifier",
        "costsense.boosting.AsyBClassifier",
        "costsense.boosting.AsyBLClassifier",
        "costsense.boosting.AsymBoostClassifier",
        "costsense.boosting.AsymLogitBoostClassifier",
        "costsense.boosting.CSB0Classifier",
        "costsense.boosting.CSB1Classifier",
        "costsense.boosting.CSB2Classifier",
        "costsense.boosting.CalibratedAdaBoostClassifier",
        "costsense.boosting.EFSBoostClassifier",
        "costsense.boosting.OBPDBoostClassifier",
        "costsense.boosting.OBPDEFSBoostClassifier",
        "costsense.boosting.RWOBoostClassifier",
        "costsense.boosting.SMOTEBoostClassifier",
        "costsense.experiments._constant.ConstantOnFailure",
        "costsense.margin.CSLDMClassifier",
        "costsense.margin.CSSVMClassifier",
        "costsense.margin.LDMClassifier",
        "costsense.naive_bayes.DiscreteNaiveBayesClassifier",
        "costsense.recommend.MinimumCostClassifier",
        "costsense.recommend._candidates.FoldAverage",
        "costsense.recommend._candidates.SquaredColumns",
        "costsense.recommend._combination.Combination",
        "costsense.rescale.CostWeighting",
        "costsense.rescale.MetaCost",
        "costsense.rescale.RejectionSampling",
        "costsense.rescale.ThresholdMoving",
        "costsense.sampling.OBPDSampler",
        "costsense.sampling._lowrank.LowRankGaussian",
        "costsense.tree.BoostedTreesClassifier",
        "costsense.tree.CostSensitiveForestClassifier",
        "costsense.tree.CostSensitiveTreeClassifier",
        "costsense.tree.PackedForest",
        "costsense.tree.Tree",
        "costsense.utils._dates.DateTimeParts",
        "costsense.utils._reading.RowReading",
        # imbalanced-learn
        "imblearn.ensemble._easy_ensemble.EasyEnsembleClassifier",
        "imblearn.ensemble._forest.BalancedRandomForestClassifier",
        "imblearn.ensemble._weight_boosting.RUSBoostClassifier",
        "imblearn.pipeline.Pipeline",
        "imblearn.under_sampling._prototype_selection._random_under_sampler."
        "RandomUnderSampler",
        # scikit-learn: estimators and the pieces fit adds
        "sklearn.calibration.CalibratedClassifierCV",
        "sklearn.calibration._CalibratedClassifier",
        "sklearn.calibration._SigmoidCalibration",
        "sklearn.compose._column_transformer.ColumnTransformer",
        "sklearn.dummy.DummyClassifier",
        "sklearn.ensemble._forest.RandomForestClassifier",
        "sklearn.ensemble._hist_gradient_boosting.binning._BinMapper",
        "sklearn.ensemble._hist_gradient_boosting.gradient_boosting."
        "HistGradientBoostingClassifier",
        "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",
        "sklearn.ensemble._weight_boosting.AdaBoostClassifier",
        "sklearn.impute._base.SimpleImputer",
        "sklearn.linear_model._logistic.LogisticRegression",
        "sklearn.linear_model._perceptron.Perceptron",
        "sklearn.metrics._scorer._CurveScorer",
        "sklearn.metrics._scorer._Scorer",
        "sklearn.mixture._gaussian_mixture.GaussianMixture",
        "sklearn.model_selection._classification_threshold.TunedThresholdClassifierCV",
        "sklearn.naive_bayes.GaussianNB",
        "sklearn.pipeline.Pipeline",
        "sklearn.preprocessing._data.StandardScaler",
        "sklearn.preprocessing._encoders.OneHotEncoder",
        "sklearn.preprocessing._label.LabelEncoder",
        "sklearn.preprocessing._polynomial.PolynomialFeatures",
        "sklearn.svm._classes.LinearSVC",
        "sklearn.tree._classes.DecisionTreeClassifier",
        "sklearn.tree._classes.DecisionTreeRegressor",
        "sklearn.utils._metadata_requests.MetadataRequest",
        "sklearn.utils._metadata_requests.MethodMetadataRequest",
        # scikit-learn's loss and link objects held by fitted estimators
        "sklearn._loss.link.Interval",
        "sklearn._loss.link.LogitLink",
        "sklearn._loss.link.MultinomialLogit",
        "sklearn._loss.loss.HalfBinomialLoss",
        "sklearn._loss.loss.HalfMultinomialLoss",
    }
)

#: For each skops loader, the exact dotted names it may build. A loader missing
#: here is refused whatever its type.
ALLOWED: dict[str, frozenset[str]] = {
    "ObjectNode": _ESTIMATORS,
    "DictNode": frozenset({"builtins.dict", "collections.OrderedDict"}),
    "ListNode": frozenset({"builtins.list"}),
    "TupleNode": frozenset({"builtins.tuple"}),
    "SliceNode": frozenset({"builtins.slice"}),
    "JsonNode": PYTHON_SCALARS | {"builtins.NoneType"},
    "TypeNode": PYTHON_SCALARS | NUMPY_SCALARS,
    "NdArrayNode": NUMPY_SCALARS | {"numpy.ndarray"},
    "DTypeNode": frozenset({"numpy.dtype"}),
    "RandomGeneratorNode": frozenset({"numpy.random._generator.Generator"}),
    "TreeNode": frozenset({"sklearn.tree._tree.Tree"}),
    "LossNode": frozenset(
        {
            "sklearn._loss._loss.CyHalfBinomialLoss",
            "sklearn._loss._loss.CyHalfMultinomialLoss",
            "sklearn.linear_model._sgd_fast.Hinge",
        }
    ),
    # a pure function: the cost metric kept by a tuned threshold's scorer
    "FunctionNode": frozenset({"costsense.metrics._cost.misclassification_cost"}),
}


#: numpy's bit generators a stored ``numpy.random.Generator`` may name.
BIT_GENERATORS = frozenset({"PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"})

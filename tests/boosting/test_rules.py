"""The boosting rules in isolation: hand-built rounds, scipy as the oracle.

Notation: labels ``y`` and weak predictions ``h`` in {-1, +1}, margin ``m = y h``,
normalised weights ``D``, per-sample costs ``c`` (``C1`` on positives, ``C2`` on
negatives). Nothing here runs the engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.differentiate import derivative
from scipy.optimize import brentq, minimize_scalar

from costsense.boosting._rules import (
    RULES,
    AdaBoostC,
    AdaC1,
    AdaC2,
    AdaC3,
    AdaCost,
    AsyB,
    AsymBoost,
    BoostRule,
    Round,
)

#: Every rule, AsyB under both initial weightings.
ALL_RULES = {**RULES, "asyb-uniform": AsyB("uniform")}
#: Rules whose alpha is the exact minimiser of their stated round loss.
EXACT = sorted(
    name
    for name, rule in ALL_RULES.items()
    if rule.round_loss(
        Round(
            y=np.array([1.0, -1.0]),
            h=np.array([1.0, 1.0]),
            D=np.array([0.5, 0.5]),
            c=np.ones(2),
        ),
        0.0,
    )
    is not None
)


def random_round(
    rng: np.random.Generator,
    *,
    n: int | None = None,
    c1: float | None = None,
    c2: float | None = None,
) -> Round:
    """A round with both classes, at least one error and one correct sample."""
    n = int(rng.integers(6, 30)) if n is None else n
    y = rng.choice([-1.0, 1.0], size=n)
    y[:2] = [1.0, -1.0]
    wrong = rng.random(n) < 0.3
    wrong[2], wrong[3] = True, False
    h = np.where(wrong, -y, y)
    D = rng.dirichlet(np.ones(n))
    c1 = float(rng.uniform(0.5, 10)) if c1 is None else c1
    c2 = float(rng.uniform(0.5, 10)) if c2 is None else c2
    return Round(y=y, h=h, D=D, c=np.where(y > 0, c1, c2))


def normalised(w: np.ndarray) -> np.ndarray:
    return w / w.sum()


def argmin_oracle(loss, scale: float = 1.0) -> float:
    """Minimiser of a smooth convex 1-D function, by scipy.

    ``minimize_scalar`` only sees function values, which carry a relative rounding
    error of ~1e-16; near the minimum ``L(a) - L(a*) ~ L'' (a - a*)^2 / 2``, so
    values cannot locate ``a*`` better than ``sqrt(2 eps)`` ~ 2e-8 (measured:
    2.5e-8). It brackets the minimiser; the root of ``L'`` (8th-order finite
    differences, ``scipy.differentiate``) then pins it down to ~1e-12. ``scale``
    is the largest ``|u|`` of a loss ``sum w exp(-a u)``: steps shrink with it.
    """
    guess = minimize_scalar(loss, bracket=(-1.0 / scale, 1.0 / scale)).x
    vector_loss = np.vectorize(loss)

    def slope(a: float) -> float:
        step = 1e-2 / scale
        return float(derivative(vector_loss, a, initial_step=step, maxiter=1).df)

    lo, hi = guess - 1e-4 / scale, guess + 1e-4 / scale
    assert slope(lo) < 0 < slope(hi)
    root = brentq(slope, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
    assert abs(root - guess) < 1e-7 / scale  # values alone agree to their floor
    return root


# --------------------------------------------------------------------- optimality
def test_the_exact_rules_are_the_expected_ones():
    # AdaCost, AdaC1, AdaC3 minimise an upper bound; CSB0-2 are heuristics.
    assert EXACT == [
        "adaboost",
        "adaboostc",
        "adac2",
        "asyb",
        "asyb-uniform",
        "asymboost",
    ]


@pytest.mark.parametrize("name", EXACT)
def test_alpha_minimises_the_round_loss(name):
    rule = ALL_RULES[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(8):
        r = random_round(rng)
        alpha = rule.alpha(r)
        oracle = argmin_oracle(lambda a, r=r: rule.round_loss(r, a))
        assert abs(alpha - oracle) < 1e-8, (name, alpha, oracle)


def test_asymboost_alpha_is_the_minimiser_to_1e8_with_unequal_costs():
    rng = np.random.default_rng(7)
    rule = AsymBoost()
    pairs = [(10.0, 0.5), (0.5, 10.0), (1.0, 1.0), (3.0, 2.0), (1000.0, 1.0)]
    for c1, c2 in pairs:
        r = random_round(rng, c1=c1, c2=c2)
        # loss: sum D exp(-a c m), written out (not through round_loss)
        oracle = argmin_oracle(
            lambda a, r=r: np.sum(r.D * np.exp(-a * r.c * r.margin)), scale=max(c1, c2)
        )
        with np.errstate(over="ignore"):  # a harmless +-inf slope while bracketing
            alpha = rule.alpha(r)
        assert abs(alpha - oracle) < 1e-8 / max(c1, c2)


def _unit(r: Round) -> np.ndarray:
    return r.c / r.c.max()


# The stated round losses, written out from the original papers (C = c / max c).
WRITTEN_OUT = {
    "adaboost": lambda r, a: np.sum(r.D * np.exp(-a * r.margin)),
    "adaboostc": lambda r, a: np.sum(r.D * np.exp(-a * r.margin)),
    "adac2": lambda r, a: np.sum(_unit(r) * r.D * np.exp(-a * r.margin)),
    "asyb": lambda r, a: np.sum(r.c * r.D * np.exp(-a * r.margin)),
    "asyb-uniform": lambda r, a: np.sum(r.c * r.D * np.exp(-a * r.margin)),
    "asymboost": lambda r, a: np.sum(r.D * np.exp(-a * r.c * r.margin)),
}


@pytest.mark.parametrize("name", EXACT)
def test_round_loss_is_the_stated_objective(name):
    # so that "alpha minimises round_loss" means "alpha minimises the paper's loss"
    r = random_round(np.random.default_rng(13))
    for a in (-1.5, -0.2, 0.0, 0.4, 2.0):
        assert ALL_RULES[name].round_loss(r, a) == pytest.approx(
            WRITTEN_OUT[name](r, a), rel=1e-14
        )


def _linear_bound(weight: np.ndarray, u: np.ndarray, a: float) -> float:
    # exp(-a u) <= (1+u)/2 e^{-a} + (1-u)/2 e^{a} for u in [-1, 1] (convexity of
    # exp on the chord between u = -1 and u = 1)
    return float(np.sum(weight * ((1 + u) / 2 * np.exp(-a) + (1 - u) / 2 * np.exp(a))))


def _adacost_beta(r: Round) -> np.ndarray:
    # Fan et al.: beta = (1 - c)/2 if right, (1 + c)/2 if wrong, c scaled to (0, 1]
    unit = _unit(r)
    return np.where(r.margin > 0, (1 - unit) / 2, (1 + unit) / 2)


# Each bounded rule: (weight of a sample in its loss, u_i in [-1, 1]); its round
# loss is sum weight * exp(-a u).
BOUNDS = {
    # AdaC1: loss sum D exp(-a C m), u = C m
    "adac1": (AdaC1(), lambda r: r.D, lambda r: _unit(r) * r.margin),
    # AdaC3: loss sum C D exp(-a C m), u = C m, so the bound is
    # sum C D [(1+u)/2 e^{-a} + (1-u)/2 e^{a}]
    "adac3": (AdaC3(), lambda r: _unit(r) * r.D, lambda r: _unit(r) * r.margin),
    # AdaCost: loss sum D exp(-a m beta), u = m beta
    "adacost": (AdaCost(), lambda r: r.D, lambda r: r.margin * _adacost_beta(r)),
}


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_bounded_rules_minimise_their_convex_upper_bound(name):
    rule, weight_of, u_of = BOUNDS[name]
    assert rule.round_loss(random_round(np.random.default_rng(0)), 0.3) is None
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(8):
        r = random_round(rng)
        weight, u = weight_of(r), u_of(r)
        assert np.all(np.abs(u) <= 1)
        for a in (-2.0, -0.3, 0.0, 0.7, 3.0):  # it is a bound, tight at a = 0
            loss = float(np.sum(weight * np.exp(-a * u)))
            assert loss <= _linear_bound(weight, u, a) * (1 + 1e-14)
        oracle = argmin_oracle(lambda a, w=weight, u=u: _linear_bound(w, u, a))
        assert abs(rule.alpha(r) - oracle) < 1e-8, (name, rule.alpha(r), oracle)


# Initial weights: proportional to the cost or uniform, as each paper states.
COST_INIT = {"adaboostc", "adacost", "csb0", "csb1", "csb2", "asyb"}


@pytest.mark.parametrize("name", sorted(ALL_RULES))
def test_initial_weights_follow_the_table(name):
    c = np.array([4.0, 4.0, 1.0, 1.0, 1.0])
    expected = c / 11 if name in COST_INIT else np.full(5, 0.2)  # sum c = 11
    assert_allclose(normalised(ALL_RULES[name].init_weights(c)), expected, rtol=1e-15)


# --------------------------------------------------------------------- reductions
REDUCING = {
    "adaboostc": AdaBoostC(),
    "adac1": AdaC1(),
    "adac2": AdaC2(),
    "adac3": AdaC3(),
    "asyb": AsyB("cost"),
    "asyb-uniform": AsyB("uniform"),
    "asymboost": AsymBoost(),
}


@pytest.mark.parametrize("name", sorted(REDUCING))
def test_equal_unit_costs_reduce_to_adaboost(name):
    rule, ada = REDUCING[name], BoostRule()
    rng = np.random.default_rng(3)
    tol = 1e-10 if name == "asymboost" else 1e-13  # brentq vs a closed form
    for _ in range(10):
        r = random_round(rng, c1=1.0, c2=1.0)
        assert_allclose(
            normalised(rule.init_weights(r.c)), np.full(r.y.size, 1 / r.y.size)
        )
        alpha = rule.alpha(r)
        assert_allclose(alpha, ada.alpha(r), rtol=tol, atol=tol)
        assert_allclose(
            normalised(rule.update(r, alpha)),
            normalised(ada.update(r, ada.alpha(r))),
            rtol=tol,
            atol=1e-16,
        )


def test_adaboost_alpha_and_update_by_hand():
    # D = (.1, .2, .3, .4), only sample 2 is wrong
    y = np.array([1.0, 1.0, -1.0, -1.0])
    h = np.array([1.0, -1.0, -1.0, -1.0])
    r = Round(y=y, h=h, D=np.array([0.1, 0.2, 0.3, 0.4]), c=np.ones(4))
    # err = 0.2, alpha = 1/2 ln(0.8 / 0.2) = ln 2
    assert r.error == pytest.approx(0.2)
    assert BoostRule().alpha(r) == pytest.approx(np.log(2.0), rel=1e-14)
    # right x e^{-ln 2} = 1/2, wrong x 2: (.05, .4, .15, .2) / 0.8
    assert_allclose(
        normalised(BoostRule().update(r, np.log(2.0))),
        np.array([0.05, 0.4, 0.15, 0.2]) / 0.8,
        rtol=1e-14,
    )


def test_csb2_with_unit_costs_updates_like_adaboost():
    rule, ada = RULES["csb2"], BoostRule()
    rng = np.random.default_rng(11)
    for _ in range(10):
        r = random_round(rng, c1=1.0, c2=1.0)
        assert rule.alpha(r) == ada.alpha(r)  # CSB uses AdaBoost's alpha
        alpha = ada.alpha(r)
        assert_allclose(
            normalised(rule.update(r, alpha)),
            normalised(ada.update(r, alpha)),
            rtol=1e-14,
        )


# -------------------------------------------------------------------- AsyB by hand
def test_asyb_alpha_and_update_by_hand():
    # two positives (C1 = 4), two negatives (C2 = 1); samples 2 and 4 are wrong.
    y = np.array([1.0, 1.0, -1.0, -1.0])
    h = np.array([1.0, -1.0, -1.0, 1.0])
    D = np.array([0.4, 0.1, 0.3, 0.2])
    r = Round(y=y, h=h, D=D, c=np.array([4.0, 4.0, 1.0, 1.0]))
    # W+_ok = 0.4, W+_bad = 0.1, W-_ok = 0.3, W-_bad = 0.2
    # alpha = 1/2 ln((C1 W+_ok + C2 W-_ok) / (C1 W+_bad + C2 W-_bad))
    #       = 1/2 ln((1.6 + 0.3) / (0.4 + 0.2)) = 1/2 ln(19/6)
    alpha = 0.5 * np.log(19 / 6)
    for rule in (AsyB("cost"), AsyB("uniform")):
        assert rule.alpha(r) == pytest.approx(alpha, rel=1e-14)
        # D e^{-alpha m}: right x sqrt(6/19), wrong x sqrt(19/6)
        s = np.sqrt(6 / 19)
        expected = np.array([0.4 * s, 0.1 / s, 0.3 * s, 0.2 / s])
        assert_allclose(
            normalised(rule.update(r, alpha)), normalised(expected), rtol=1e-14
        )
    # The printed algorithm starts from D ~ c; the uniform option from D ~ 1.
    assert_array_equal(AsyB("cost").init_weights(r.c), r.c)
    assert_array_equal(AsyB("uniform").init_weights(r.c), np.ones(4))
    # Plain AdaBoost on the same round: err = 0.3, alpha = 1/2 ln(7/3) != AsyB's.
    assert BoostRule().alpha(r) == pytest.approx(0.5 * np.log(7 / 3), rel=1e-14)


# ------------------------------------------------------------ weights stay a law
@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(ALL_RULES)),
    seed=st.integers(0, 2**32 - 1),
    log10_ratio=st.sampled_from([-3.0, -1.0, 0.0, 0.5, 2.0, 3.0]),
    scale=st.sampled_from([1e-3, 1.0, 1e3]),
)
def test_weights_stay_a_distribution(name, seed, log10_ratio, scale):
    rule = ALL_RULES[name]
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], size=20)
    y[:2] = [1.0, -1.0]
    c = np.where(y > 0, scale * 10**log10_ratio, scale)
    D = normalised(rule.init_weights(c))
    assert np.all(np.isfinite(D)) and np.all(D >= 0)
    for _ in range(15):  # the cost factor of AdaC2, AdaC3 and CSB compounds
        wrong = rng.random(y.size) < rng.uniform(0.05, 0.6)
        wrong[0], wrong[1] = True, False  # at least one error, one success
        r = Round(y=y, h=np.where(wrong, -y, y), D=D, c=c)
        if not 0 < r.error < 1:  # weights underflowed to 0 on every error/success
            continue
        with np.errstate(over="ignore", invalid="ignore"):
            alpha = rule.alpha(r)  # AsymBoost's bracket search may overflow
        assert np.isfinite(alpha)
        new = rule.update(r, alpha)
        assert np.all(np.isfinite(new)) and np.all(new >= 0) and new.sum() > 0
        D = normalised(new)
        assert np.all(np.isfinite(D)) and np.all(D >= 0)
        assert D.sum() == pytest.approx(1.0, abs=1e-12)


# ------------------------------------------------------------------- scale-free
SCALE_FREE = sorted(name for name, rule in ALL_RULES.items() if rule.scale_free)
NOT_SCALE_FREE = sorted(name for name, rule in ALL_RULES.items() if not rule.scale_free)


def test_scale_flags_are_the_documented_ones():
    assert NOT_SCALE_FREE == ["asymboost", "csb0", "csb1", "csb2"]


def _scaled(r: Round, k: float) -> Round:
    return Round(y=r.y, h=r.h, D=r.D, c=k * r.c)


@pytest.mark.parametrize("name", SCALE_FREE)
@pytest.mark.parametrize("k", [1e-2, 7.0, 1e3])
def test_scale_free_rules_ignore_a_common_cost_factor(name, k):
    rule = ALL_RULES[name]
    rng = np.random.default_rng(5)
    for _ in range(5):
        r = random_round(rng)
        rk = _scaled(r, k)
        assert_allclose(
            normalised(rule.init_weights(rk.c)), normalised(rule.init_weights(r.c))
        )
        alpha = rule.alpha(r)
        assert_allclose(rule.alpha(rk), alpha, rtol=1e-12, atol=1e-14)
        assert_allclose(
            normalised(rule.update(rk, alpha)),
            normalised(rule.update(r, alpha)),
            rtol=1e-12,
        )


def test_asymboost_alpha_scales_inversely_with_the_costs():
    # sum D exp(-a (k c) m) is minimised at a*/k: alpha changes (flag False), and
    # alpha c, hence the update, does not.
    rule = AsymBoost()
    r = random_round(np.random.default_rng(2), c1=4.0, c2=1.0)
    alpha = rule.alpha(r)
    for k in (0.1, 3.0):
        assert rule.alpha(_scaled(r, k)) == pytest.approx(alpha / k, rel=1e-10)
        assert abs(rule.alpha(_scaled(r, k)) - alpha) > 1e-3
        assert_allclose(
            normalised(rule.update(_scaled(r, k), alpha / k)),
            normalised(rule.update(r, alpha)),
            rtol=1e-10,
        )


@pytest.mark.parametrize("name", ["csb0", "csb1", "csb2"])
def test_ting_updates_change_with_a_common_cost_factor(name):
    rule = RULES[name]
    # one positive wrong (c = 1 vs 2), one negative right: k = c on the wrong one
    y, h = np.array([1.0, -1.0]), np.array([-1.0, -1.0])
    D = np.array([0.5, 0.5])
    r1 = Round(y=y, h=h, D=D, c=np.array([1.0, 1.0]))
    r2 = _scaled(r1, 2.0)
    alpha = rule.alpha(r1)
    assert rule.alpha(r2) == alpha  # AdaBoost's alpha ignores c
    # CSB0: (1*.5, .5) -> (.5, .5) vs (2*.5, .5) -> (2/3, 1/3)
    u1, u2 = normalised(rule.update(r1, alpha)), normalised(rule.update(r2, alpha))
    assert u2[0] / u2[1] == pytest.approx(2 * u1[0] / u1[1], rel=1e-14)


# -------------------------------------------------------------------- Ting's votes
def test_ting_votes_minimise_the_expected_cost_of_the_vote():
    # three learners, alphas .5 .3 .4; C1 = 2 (false negative), C2 = 1
    H = np.array(
        [
            [1.0, -1.0, 1.0],
            [-1.0, 1.0, 1.0],
            [-1.0, -1.0, -1.0],
        ]
    )
    alphas = np.array([0.5, 0.3, 0.4])
    # sample 1: + by .5, - by .3 + .4 = .7: C1 .5 = 1.0 > C2 .7 = .7  -> +, score .3
    # sample 2: + by .3, - by .9:           C1 .3 = 0.6 < C2 .9 = .9  -> -, score -.3
    # sample 3: + by .8, - by .4:           1.6 > .4                  -> +, score 1.2
    for name in ("csb0", "csb1", "csb2"):
        votes = RULES[name].votes(H, alphas, 2.0, 1.0)
        assert_allclose(votes, [0.3, -0.3, 1.2], rtol=1e-14)
    # AdaBoost's vote on the same learners: sample 1 is -0.2, i.e. negative.
    assert_allclose(BoostRule().votes(H, alphas, 2.0, 1.0), [-0.2, -0.6, 0.4])
    # With C1 = C2 = 1 Ting's vote is AdaBoost's.
    assert_allclose(RULES["csb2"].votes(H, alphas, 1.0, 1.0), alphas @ H)


def test_asymboost_alpha_ignores_zero_weight_samples():
    # Two positives with c = 1e-3 (D = .25 right, .75 wrong) and a negative with
    # D = 0, c = 1, right. The round loss is 0.25 e^{-a/1000} + 0.75 e^{a/1000}
    # (the D = 0 sample adds 0 for every a): minimiser a* = 1000 * 1/2 ln(1/3)
    # = -549.3. The bracket search doubles lo to -1024, where the zero-weight
    # sample's term is 0 * 1 * exp(1024) = 0 * inf = NaN.
    r = Round(
        y=np.array([1.0, 1.0, -1.0]),
        h=np.array([1.0, -1.0, -1.0]),
        D=np.array([0.25, 0.75, 0.0]),
        c=np.array([1e-3, 1e-3, 1.0]),
    )
    with np.errstate(all="ignore"):
        alpha = AsymBoost().alpha(r)
    assert alpha == pytest.approx(500 * np.log(1 / 3), rel=1e-10)


@pytest.mark.parametrize(
    ("rule", "weight"),
    [(AdaC1(), lambda r: r.D), (AdaC3(), lambda r: _unit(r) * r.D)],
    ids=["adac1", "adac3"],
)
def test_sun_alpha_survives_a_negligible_error_weight(rule, weight):
    # Eight negatives (c = 1, C = 1), all right; one positive (c = 1e-3, C = 1e-3),
    # wrong, with a negligible weight (AdaC3's factor C compounds every round, so
    # at 1000:1 a class falls to such weights within about 12 rounds).
    w = np.array([0.1, 0.7, 0.4, 0.6, 0.2, 0.8, 0.5, 1e-30, 0.9])
    y = np.where(np.arange(9) == 7, 1.0, -1.0)
    r = Round(y=y, h=-np.ones(9), D=w / w.sum(), c=np.where(y > 0, 1e-3, 1.0))
    # the bound's minimiser, 1/2 ln(sum W (1 + u) / sum W (1 - u)) with u = C m:
    # both sums have non-negative terms only, so they are accurate:
    # AdaC1: 1/2 ln(2 (1 - D_7) / (D_7 (1 + 1e-3))) = 35.60...
    # AdaC3: 1/2 ln(2 (1 - D_7) / (1e-3 D_7 (1 + 1e-3))) = 39.06...
    u = _unit(r) * r.margin
    W = weight(r)
    expected = 0.5 * np.log(np.sum(W * (1 + u)) / np.sum(W * (1 - u)))
    assert 35 < expected < 40
    with np.errstate(invalid="ignore"):
        assert rule.alpha(r) == pytest.approx(expected, rel=1e-10)

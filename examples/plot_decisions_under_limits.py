"""
Decisions under limits: a call centre's capacity, three actions, a moving base rate
===================================================================================

A bank's call centre can phone only so many clients a day, a phone call costs money
and a mail is cheaper but persuades fewer clients; the share of clients who subscribe
moves over time, and the cost of a lost subscriber is an estimate. This example
takes those limits as a practitioner meets them, on real per-row money costs: the
bank marketing set of `empulse` (Moro et al.'s term-deposit campaign; install the
``bench`` extra: ``pip install "costsense[bench]"``).

Every decision below is made from one model's probabilities with
:mod:`costsense.decision`; the model is :class:`costsense.MinimumCostClassifier`,
but any classifier with ``predict_proba`` would do.

Costs, per client (empulse's cost model, parameters at their defaults): a call
costs ``c = 1``; a subscriber not called loses the bank ``max(c, 0.25 x balance x
0.0246)``, a quarter of the balance placed for a year at the interest margin. The
rows are in the order of the calls (the campaign ran from May 2008 to November
2010); we cut them into waves of 500 consecutive calls, and a wave is the period
every capacity below applies to.
"""  # noqa: D205, D400

# %%
# The data, and a model trained on the past
# -----------------------------------------
# The first 60 % of the waves train the model; the later waves are the future it
# decides. The share of subscribers is not stable: it rises from about 2 % in the
# first waves to about half in the last ones.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from empulse.datasets import load_upsell_bank_telemarketing
from sklearn.metrics import roc_auc_score

from costsense import MinimumCostClassifier
from costsense.costs import Costs, example_costs
from costsense.decision import (
    ActionCosts,
    adjust_to_prior,
    capacity_curve,
    cost_sensitivity,
    decide,
    estimate_prior_shift,
    realised_costs,
    savings_interval,
)
from costsense.experiments import evaluate

data = load_upsell_bank_telemarketing(backend=pd)
X = pd.get_dummies(data.data, dtype=float)
y = np.asarray(data.target).astype(int)
lost = np.maximum(1.0, 0.25 * 0.02463333 * np.asarray(data.instance_costs["balance"]))
wave = np.arange(y.size) // 500
past = wave < np.quantile(np.unique(wave), 0.6)
future = ~past
print(f"{y.size} clients in {wave.max() + 1} waves; trained on {past.sum()} calls")
print(f"subscribers: {y[past].mean():.1%} in the past, {y[future].mean():.1%} after")

model = MinimumCostClassifier(random_state=0)
model.fit(X[past], y[past], sample_cost=example_costs(fp=1.0, fn=lost[past], tp=1.0))
proba = model.predict_proba(X[future])
y_new, wave_new, lost_new = y[future], wave[future], lost[future]

# %%
# Scored as time passes
# ---------------------
# Shuffled cross-validation would score the model on the past it learnt from.
# :func:`costsense.experiments.evaluate` with ``time=`` chains forward instead: it
# cuts the waves into blocks, trains on every block up to one and tests on the
# next. Beside the recommended model, a plain logistic regression that ignores the
# costs (``plain``, deciding by its labels): today's practice of many teams.
row_costs = Costs.resolve(
    None, y, pos_label=1, sample_cost=example_costs(fp=1.0, fn=lost, tp=1.0)
)
rows = evaluate(X, y, ["minimum-cost", "plain"], cost=row_costs, time=wave, n_splits=3)
folds = pd.DataFrame(
    [
        {"model": r["algorithm"], "fold": r["fold"], **r["metrics"]}
        for r in rows
        if not r.get("error")
    ]
)
print(folds.pivot(index="fold", columns="model", values="savings").round(3))

# %%
# Two actions, and a capacity per wave
# ------------------------------------
# The label decision is "call" or "skip". Its cost table has one row per true class
# and one column per action, here one table per client: skipping a subscriber costs
# the lost margin, calling anyone costs 1.
n = y_new.size
two = np.zeros((n, 2, 2))  # [client, true class (0: no, 1: subscribes), action]
two[:, 0, 1] = two[:, 1, 1] = 1.0  # a call costs c = 1, whatever the answer
two[:, 1, 0] = lost_new  # a subscriber not called: the lost margin
call = ActionCosts(two, ["skip", "call"])
action, saving = decide(proba, call, default="skip")
print(
    f"without a limit the Bayes rule calls {np.mean(action == 'call'):.0%} of clients"
)

# %%
# The call centre cannot call that many. At a capacity of 1, 5, 10 and 20 % of each
# wave's clients, :func:`~costsense.decision.capacity_curve` fills the calls by
# expected saving (only where a call is expected to pay) and scores the realised
# money; ``rank_by`` gives the peers' practice, the top clients by probability of
# subscribing. Savings are against calling nobody, as a share of that policy's cost.
shares = (0.01, 0.05, 0.10, 0.20)
by_saving = capacity_curve(
    proba, y_new, call, default="skip", per=wave_new, shares=shares
)
by_proba = capacity_curve(
    proba,
    y_new,
    call,
    default="skip",
    per=wave_new,
    shares=shares,
    rank_by=proba[:, 1],
)
table = pd.DataFrame(
    {
        "capacity": [f"{s:.0%}" for s in shares],
        "calls": [r["acted"] for r in by_saving],
        "saved, by expected saving": [round(r["saving"]) for r in by_saving],
        "saved, by probability": [round(r["saving"]) for r in by_proba],
    }
)
print(table.to_string(index=False))

fig, ax = plt.subplots(figsize=(6.5, 3.5))
ax.plot(
    [100 * s for s in shares],
    [r["saving"] for r in by_saving],
    "o-",
    label="by expected saving",
)
ax.plot(
    [100 * s for s in shares],
    [r["saving"] for r in by_proba],
    "s--",
    label="by probability",
)
ax.set_xlabel("capacity (% of each wave's clients called)")
ax.set_ylabel("money saved against calling nobody")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# Three actions: skip, mail, call
# -------------------------------
# A mail costs 0.1 and persuades 80 % of the clients a call would win; the call
# centre still calls at most 10 % of a wave, mails are unlimited. The table gains a
# column, and :func:`~costsense.decision.decide` assigns each wave's clients
# exactly (an assignment problem per wave).
three = np.zeros((n, 2, 3))
three[:, 0] = [0.0, 0.1, 1.0]
three[:, 1, 0] = lost_new
three[:, 1, 1] = 0.1 + 0.2 * lost_new  # the 20 % a mail does not win are lost
three[:, 1, 2] = 1.0
actions = ActionCosts(three, ["skip", "mail", "call"])
capacity = {"call": "10%"}
chosen, _ = decide(proba, actions, default="skip", capacity=capacity, per=wave_new)
realised = realised_costs(y_new, actions)
spent = realised[np.arange(n), pd.Index(actions.actions).get_indexer(chosen)].sum()
print(pd.Series(chosen).value_counts().to_string())
print(f"cost {spent:.0f} against {realised[:, 0].sum():.0f} for skipping everyone")

# %%
# How sure is the saving?
# -----------------------
# :func:`~costsense.decision.savings_interval` resamples the decided clients (here
# whole waves, since clients of one wave share its conditions) and gives a 95 %
# interval of the saving, in money and as a share of skipping everyone's cost.
interval = savings_interval(y_new, chosen, actions, default="skip", groups=wave_new)
print(
    f"saved {interval.saving:.0f} (95 % interval {interval.low:.0f} to "
    f"{interval.high:.0f}), {interval.share:.1%} of skipping everyone's cost "
    f"({interval.method})"
)

# %%
# Costs are estimates
# -------------------
# What if a lost subscriber, a mail or a call cost half, 0.8, 1.25 or 2 times what we
# assumed? :func:`~costsense.decision.cost_sensitivity` scales each part of the
# table in turn: ``saving`` keeps today's decisions and scores them at the scaled
# costs, ``saving_redecided`` decides again knowing the scaled costs, ``changed`` is
# the share of clients whose action would change. A lost subscriber's value moves
# the money most. A re-made decision can realise less than the kept one: the
# probabilities it trusts are the past's (see the next section).
sensitivity = pd.DataFrame(
    cost_sensitivity(
        proba, y_new, actions, default="skip", capacity=capacity, per=wave_new
    )
)
print(sensitivity[["part", "factor", "saving", "saving_redecided", "changed"]].round(3))

# %%
# The base rate moves
# -------------------
# The model learnt a subscription rate of about 5 %; the later waves subscribe far
# more often, so its probabilities are too low there, and the Bayes rule calls too
# few. Two remedies move the probabilities to a new prior by Bayes' rule
# (:func:`~costsense.decision.adjust_to_prior`): a rate the team states (here each
# wave's observed rate, as if known from its first answers; ``costsense predict
# --positive-rate R``), or a rate estimated from the wave's own probabilities by EM
# (:func:`~costsense.decision.estimate_prior_shift`, Saerens, Latinne &
# Decaestecker 2002; ``--positive-rate auto``), which needs no label at all.
train_prior = np.bincount(y[past]) / past.sum()
waves = np.unique(wave_new)
stated, estimated = np.empty_like(proba), np.empty_like(proba)
rates = {"observed": [], "EM estimate": []}
for w in waves:
    rows_w = wave_new == w
    rate = y_new[rows_w].mean()
    stated[rows_w] = adjust_to_prior(proba[rows_w], train_prior, [1 - rate, rate])
    prior, estimated[rows_w] = estimate_prior_shift(proba[rows_w], train_prior)
    rates["observed"].append(rate)
    rates["EM estimate"].append(prior[1])

money = realised_costs(y_new, call)
for name, p in [("as given", proba), ("EM", estimated), ("stated", stated)]:
    decided, _ = decide(p, call, default="skip")
    total = money[np.arange(n), (decided == "call").astype(int)].sum()
    print(f"probabilities {name:8s}: total cost {total:8.0f}")
print(f"calling everyone: {money[:, 1].sum():.0f}, nobody: {money[:, 0].sum():.0f}")
print(f"AUC of the model on the later waves: {roc_auc_score(y_new, proba[:, 1]):.2f}")

# %%
# Wave by wave the EM estimate often runs to 0 or to 1. Its likelihood is flat when
# the model tells subscribers apart only weakly (its AUC is printed above), and these
# waves change more than their rate (the clients called change too), which EM's
# one assumption excludes. Summed over the waves it still recovers part of what the
# stated rate recovers; a team that knows its rate should state it.
fig, ax = plt.subplots(figsize=(8.5, 3.5))
ax.plot(waves, rates["observed"], "o-", label="observed rate")
ax.plot(waves, rates["EM estimate"], "s--", label="EM estimate from the probabilities")
ax.axhline(train_prior[1], color="grey", lw=1, label="training rate")
ax.set_xlabel("wave (500 consecutive calls)")
ax.set_ylabel("share of subscribers")
ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
fig.tight_layout()
plt.show()

"""Candidate sets shaped like an on/off driver: a step shared in a few conditions (#22, item 2).

A response switched on in a few conditions (heat shock, hypoxia: a driver D that is 1 in 3 of 27
conditions) adds a step to its genes' values there. After the regulators' edges, those genes'
ideal profiles (JMLR 2007 section 5: the residuals of their current families) share that step,
but the rest of each profile is its own noise, so they are only weakly alike (mean |cos| about 0.3
at M = 27) and neither average linkage nor seeds iterated to a common profile isolate them from
chance sets (docs/decisions/genome-on-off-driver.md). What chance sets do not have is the shape:
the same few conditions shifted, the same way, in many genes.

So this source scans condition subsets S instead of genes. With z_i the ideal profile of gene i
standardized to mean 0 and variance 1, its correlation with the step profile of S (the centred
indicator of S, k = |S| conditions of M) is ``r_i(S) = sum_{c in S} z_ic / sqrt(M k (1 - k/M))``,
and a parent with that profile would gain it ``-(M/2) log(1 - r_i^2)`` nats (the mutual
information, as in :func:`~.proposals.score_cluster`'s C2), against the score's cost of one more
parent ``cost_i`` (:func:`edge_costs`). Gene i is *shifted* at S when ``sign(r_i) z_ic >=
SHIFT_MIN`` at every condition of S (a spike in one condition does not make a step in three), and
S is scored by what its shifted genes would gain beyond their cost::

    step(S) = sum_i [shifted_i(S)] max(0, -(M/2) log(1 - r_i(S)^2) - cost_i).

Every subset of :data:`STEP_MIN` (3) conditions is scanned, as sums of rows of z in blocks (memory
``block x N``, no N x N table); the best are grown one condition at a time while that raises
``step`` (up to :data:`STEP_MAX` conditions).

Steps in two conditions (a heat shock measured twice) are real programs whose evidence is two
instances. Every pair is scanned too (:func:`scan_pairs`); a gene counts in a pair only where the
pair's indicator fits it better than either condition's alone (``|r_i(S)| > max_{c in S}
|z_ic| / sqrt(M - 1)``). No trial turns a pair away (it is never tried), so it must pass a test
of chance: its step beats the best pair of each of :data:`PAIR_NULL_DRAWS` tables in which every
gene keeps its largest value where it is and has the others permuted (5 %), so that many genes
spiked in one odd condition (the outlier the leverage rule names by itself) make no pair with it.
The best such pair's set (as a step's) is handed on as a proposal *flagged* by both conditions
(:mod:`.leverage`: "most of its energy from one or two instances") whatever z*'s own shares: a
person reads "a program on in A and B, n genes", ranked after every unflagged proposal, and
``auto`` never tries it. A proposal of another source whose z* has more than half of its energy
in those two conditions is the same program and is flagged by them too (:func:`same_program`).
Pair and steps of 3-5 conditions meet where the pair's conditions are among a step's: the one
with the higher ``step`` stays, the other is dropped (a 3-condition driver holds pairs; a pair
plus a chance condition is a triple). Those drops, and a step whose set another source already
holds, are made among all the grown steps before the best are handed on (:data:`WIDE`): two odd
conditions shifting the same hundred genes (`h17m`), or a regulator's strains, make a pair whose
triples with any third condition fill the best :data:`ONOFF_SETS` steps, and a cut before the
drops left no step to hand on (docs/decisions/genome-on-off-driver.md, sixth round). Steps in
one condition are not scanned (the leverage rule names them). With :data:`REMEMBER_TRIED` (measured,
off) a step ``auto`` has tried (its conditions, mostly its genes) is not handed on again and the
next-best step takes its slot: it cost `module` 5 its second H (R*'s) to a chance step's failed
trial and gave back no driver (docs/decisions/onoff-tried-steps.md).

A step's set is every gene shifted at S whose gain from the step reaches :data:`MEMBER_SHARE` of
its edge cost: a broad set (about 50 genes for a 40-gene driver at M = 27, half of them driven),
not trimmed to the members that pay. On `module` seeds of benchmarks/bench_regulators_genome.py
the sets trimmed to paying loadings (10-16 genes) realized -14 to +18 nats when tried, one of six
positive: H's posterior from a few weak children is too noisy for the other driven genes to pay
as its children, while the broad set, tried like an oracle start (H at the step's profile, parent
of many genes, structural EM keeping the children that pay) realized +0.5 to +17.5 on seven of
eight, |r(H, D)| 0.85-0.93 (docs/decisions/genome-on-off-driver.md). Its estimate, which charges
every member, is then far below zero, so :meth:`HiddenSearch.auto
<engine.hidden.search.HiddenSearch.auto>` tries the source's set whatever its estimate (after the
first positive estimate until a hidden variable is kept, first after that; :data:`ONOFF_TRIED`
per round); only the realized gain decides, as for every H.

No test of chance is made on a step of 3-5 conditions itself: on these data the driver's step is barely above
the scan's own chance level (over 2925 triples the best chance step of `null` scores 12-17 nats,
the driver's 20-35, its set 50-80 genes against 30-90 for chance steps of genes that share weak
regulators), so a threshold that turned away noise would turn away the driver too
(docs/decisions/genome-on-off-driver.md). The trial turns chance sets away: their H does not
pay (on `null` none did).

The scan of 3-5 conditions is deterministic: no random draws, ties broken by the subsets'
lexicographic order; the pairs' permutations are seeded (the same table gives the same pairs). It
runs at genome scale (:data:`ONOFF_MIN_VARS` candidate variables or more) on
:data:`ONOFF_MIN_INSTANCES` to :data:`ONOFF_MAX_INSTANCES` instances (C(60, 3) = 34,220 subsets).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass

import numpy as np

from .leverage import instance_names

__all__ = [
    "MEMBER_SHARE",
    "ONOFF",
    "ONOFF_MAX_INSTANCES",
    "ONOFF_MIN_INSTANCES",
    "ONOFF_MIN_VARS",
    "ONOFF_TRIED",
    "PAIR_NULL_DRAWS",
    "REMEMBER_TRIED",
    "SHIFT_MIN",
    "STEP_MAX",
    "STEP_MIN",
    "STEP_PAIR",
    "Step",
    "covers",
    "edge_costs",
    "handed_on",
    "name_step",
    "onoff_candidates",
    "repeats",
    "same_program",
    "scan_pairs",
    "scan_steps",
    "standardized_profiles",
]

ONOFF = "on/off step"  #: the source (``ClusterProposal.source``) of a set found here

#: conditions in a scanned step (fewer are flagged by the leverage rule; more are not "a few")
STEP_MIN, STEP_MAX = 3, 5
#: conditions of a pair step: scanned apart (:func:`scan_pairs`), handed on flagged by both
STEP_PAIR = 2
#: permuted tables whose best pair a pair's step must beat (a 5 % permutation test)
PAIR_NULL_DRAWS = 19

#: a gene is shifted at S when its standardized ideal profile is at least this at every condition
#: of S, in the step's direction
SHIFT_MIN = 0.5

#: a gene counts in a step only where the step fits it better than each of its subsets of one condition
#: fewer (module docstring); always so for a pair
NESTED = False

#: steps are ranked and grown net of log C(M, k), the choice of their conditions (measured, off)
CHOICE = False

#: a gene shifted at S is in the step's set when its gain from the step reaches this share of the
#: cost of its edge from H
MEMBER_SHARE = 0.5

#: the source runs from this many candidate variables (genome scale) and on this many instances
ONOFF_MIN_VARS = 500
ONOFF_MIN_INSTANCES, ONOFF_MAX_INSTANCES = 10, 60

#: sets handed on per proposal round: auto tries them first once it has kept a hidden variable,
#: and a failed try counts against its stop rule (two in a row), so one, or the regulators'
#: modules after it are not reached (`module` seed 5 lost R* with two); a try costs 1-6 s of CPU
ONOFF_TRIED = 1

#: steps returned by the scan, and the best triples grown towards STEP_MAX
ONOFF_SETS, GROWN_TRIPLES = 8, 40

#: :func:`handed_on` drops the steps a pair outscores and those another source's set holds among
#: all the scan's grown steps, not only among its best ONOFF_SETS (module docstring)
WIDE = True

#: :func:`handed_on` drops the steps ``auto`` has tried (:func:`repeats`), the next-best handed on (measured, off)
REMEMBER_TRIED = False

#: memory bound of one block of subsets (cells of the block x N tables)
BLOCK_CELLS = 1 << 21


@dataclass
class Step:
    """A step found by :func:`scan_steps`: the ``conditions`` (row indices, sorted), its ``score``
    (``step(S)`` in nats, module docstring) and its set, ``members`` (columns of z)."""

    conditions: tuple[int, ...]
    score: float
    members: np.ndarray


def standardized_profiles(xc: np.ndarray, coef: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Ideal profiles ``y_i = x_i - sum_p w_pi x_p`` of ``columns`` (residuals of the current
    families, mean 0 since ``xc`` is centred), each scaled to variance 1 (M x len(columns)); a
    constant profile stays 0."""
    y = xc[:, columns] - xc @ coef[:, columns]
    sd = y.std(axis=0)
    return y / np.where(sd > 1e-12, sd, np.inf)


def edge_costs(scorer, n_parents: np.ndarray) -> np.ndarray:
    """The score's cost of one more parent for families with ``n_parents`` parents: one more
    coefficient, and under EBIC the larger model space (``penalty(k + 3, k + 1) - penalty(k + 2,
    k)``: coefficients, intercept and variance), computed once per distinct k."""
    ks, inv = np.unique(np.asarray(n_parents, dtype=int), return_inverse=True)
    cost = np.array([scorer.penalty(k + 3, k + 1) - scorer.penalty(k + 2, k) for k in ks])
    return cost[inv].reshape(-1)


def _gain(sums: np.ndarray, lows: np.ndarray, highs: np.ndarray, m: int, k: int) -> np.ndarray:
    """Per subset and gene, the gain ``-(M/2) log(1 - r^2)`` from the subset's step where the
    gene is shifted at every condition of the subset, else 0 (``sums``, ``lows``, ``highs``: the
    sum, minimum and maximum of z over the subset's conditions; B x N or N); a pair's only where
    it fits the gene better than either of its conditions alone (module docstring)."""
    r = sums / np.sqrt(k * (m - k))
    gain = -0.5 * m * np.log1p(-np.minimum(r * r, 1.0 - 1e-12))
    shifted = np.where(r > 0, lows >= SHIFT_MIN, highs <= -SHIFT_MIN)
    if NESTED or k == STEP_PAIR:  # |r| beyond every subset's of one condition fewer (a pair: one condition's)
        fewer = np.maximum(np.abs(sums - lows), np.abs(sums - highs)) / np.sqrt((k - 1.0) * (m - k + 1))
        shifted &= np.abs(r) > fewer
    return np.where(shifted, gain, 0.0)


def _scores(z: np.ndarray, subsets: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """``step(S)`` of each row of ``subsets`` (S x k condition indices), in blocks."""
    m, n = z.shape
    k = subsets.shape[1]
    score = np.empty(len(subsets))
    block = max(1, BLOCK_CELLS // max(n, 1))
    for a in range(0, len(subsets), block):
        rows = z[subsets[a : a + block]]  # (B, k, N)
        gain = _gain(rows.sum(1), rows.min(1), rows.max(1), m, k)
        score[a : a + block] = np.maximum(gain - cost, 0.0).sum(1)
    return score


def _grow(z: np.ndarray, start: tuple[int, ...], score: float, cost: np.ndarray) -> tuple[tuple[int, ...], float]:
    """Add to ``start`` the condition that raises ``step`` most, while one does, up to STEP_MAX."""
    m = z.shape[0]
    while len(start) < STEP_MAX:
        rest = np.setdiff1d(np.arange(m), start)
        subsets = np.column_stack([np.tile(start, (rest.size, 1)), rest])
        scores = _scores(z, subsets, cost)
        j = int(np.argmax(scores))
        if scores[j] - _choice(m, len(start) + 1) <= score - _choice(m, len(start)):
            break
        start, score = tuple(sorted((*start, int(rest[j])))), float(scores[j])
    return start, score


def _members(z: np.ndarray, s: tuple[int, ...], cost: np.ndarray) -> np.ndarray:
    """Columns shifted at ``s`` whose gain from its step exceeds :data:`MEMBER_SHARE` of their
    edge cost: the genes that may turn out children once H is fitted (module docstring; a pair's
    set by the same rule, each gene's gain from its shifts at both conditions)."""
    rows = z[list(s)]
    gain = _gain(rows.sum(0), rows.min(0), rows.max(0), z.shape[0], len(s))
    return np.flatnonzero(gain > MEMBER_SHARE * cost)


def scan_steps(z: np.ndarray, cost: np.ndarray, n_sets: int = ONOFF_SETS) -> list[Step]:
    """The best distinct steps of standardized ideal profiles ``z`` (M x N), each with its set.

    Parameters
    ----------
    z : ndarray (M, N), ideal profiles with mean 0 and variance 1 (:func:`standardized_profiles`)
    cost : ndarray (N,), each column's cost of one more parent (:func:`edge_costs`)
    n_sets : how many steps to return

    Returns
    -------
    list of :class:`Step`, best ``step(S)`` first, each with at least two members, none mostly an
    earlier one's (:func:`covers`).
    """
    m, n = z.shape
    if m < STEP_MIN + 1 or n < 2:
        return []
    triples = np.array(list(itertools.combinations(range(m), STEP_MIN)), dtype=np.intp)
    scores = _scores(z, triples, cost)
    best = np.argsort(-scores, kind="stable")[:GROWN_TRIPLES]
    grown: dict[tuple[int, ...], float] = {}
    for i in best[scores[best] > 0]:
        s, sc = _grow(z, tuple(int(c) for c in triples[i]), float(scores[i]), cost)
        grown[s] = sc
    return _distinct(z, sorted(grown.items(), key=lambda t: (_choice(m, len(t[0])) - t[1], t[0])), cost, n_sets)


def _choice(m: int, k: int) -> float:
    """With :data:`CHOICE`, the nats of choosing a step's k conditions among M, ``log C(M, k)``
    (a grown step is the best of many; measured, off), else 0."""
    return math.lgamma(m + 1) - math.lgamma(k + 1) - math.lgamma(m - k + 1) if CHOICE else 0.0


def scan_pairs(
    z: np.ndarray, cost: np.ndarray, n_sets: int = 1, *, rng: np.random.Generator | None = None
) -> list[Step]:
    """The best distinct steps in two conditions that beat chance, each with its set.

    Every pair is scanned, none grown; a gene counts only where the pair fits it better than
    either condition alone (module docstring). A pair is kept when its ``step`` exceeds the best
    pair's of each of :data:`PAIR_NULL_DRAWS` tables in which every gene keeps its largest value
    (in |z|) where it is and has its other values permuted (a one-sided permutation test of the
    scan's maximum at level 1 / (draws + 1), 5 %): many genes spiked in one odd condition stay
    spiked there, so the test asks whether a *second* condition is shared beyond chance, not the
    first. Draws stop as soon as one reaches the best observed pair. Sets as a step's
    (:func:`_members`). ``rng``: the permutations' generator (default: seeded 0, so the same
    table gives the same pairs). Returns the :class:`Step` list as :func:`scan_steps` does.
    """
    m, n = z.shape
    if m < STEP_MIN + 1 or n < 2:
        return []
    pairs = np.array(list(itertools.combinations(range(m), STEP_PAIR)), dtype=np.intp)
    # a gene adds to a pair only where r^2 > 1 - exp(-2 cost / M), so only if its two largest (or
    # smallest) values sum that far out: the others add to no pair, permuted or not (exact)
    far = np.sqrt(-np.expm1(-2.0 * np.maximum(cost, 0.0) / m) * m * STEP_PAIR * (1.0 - STEP_PAIR / m))
    part = np.partition(z, (1, m - 2), axis=0)
    some = (part[-2:].sum(0) >= far) | (part[:2].sum(0) <= -far)
    zs, cs = z[:, some], cost[some]
    scores = _scores(zs, pairs, cs)
    rng = np.random.default_rng(0) if rng is None else rng
    top, cols = np.argmax(np.abs(zs), axis=0), np.arange(zs.shape[1])
    chance = 0.0
    for _ in range(PAIR_NULL_DRAWS):
        if chance >= scores.max(initial=0.0):
            return []
        order = np.argsort(rng.random(zs.shape), axis=0)  # a random permutation per gene, then
        at = np.argmax(order == top, axis=0)  # the row that drew the gene's top value swapped with its own
        order[at, cols], order[top, cols] = order[top, cols], top
        chance = max(chance, float(_scores(np.take_along_axis(zs, order, axis=0), pairs, cs).max(initial=0.0)))
    order = np.argsort(-scores, kind="stable")
    ranked = ((tuple(int(c) for c in pairs[i]), float(scores[i])) for i in order[scores[order] > chance])
    return _distinct(z, ranked, cost, n_sets)


def _distinct(z: np.ndarray, ranked, cost: np.ndarray, n_sets: int) -> list[Step]:
    """The first ``n_sets`` of ``ranked`` (conditions, score) whose sets (:func:`_members`) have
    two members or more and are not mostly an earlier one's (:func:`covers`)."""
    out: list[Step] = []
    for s, sc in ranked:
        members = _members(z, s, cost)
        if members.size >= 2 and not any(covers(members, o.members) for o in out):
            out.append(Step(s, sc, members))
        if len(out) >= n_sets:
            break
    return out


def onoff_candidates(
    score, model, parents, scorer, xc, coef, cand, others, tried=(), labels=None, n_sets: int = ONOFF_TRIED
) -> list:
    """The scored sets of this source for :func:`~.candidates.propose_from_search` (``score`` is
    its :func:`~.candidates.score_candidate`; ``model``, ``parents``, ``scorer``, ``xc`` its
    arguments, ``coef`` the current families' coefficients, ``cand`` the candidate columns): the
    sets of the best steps of the candidates' ideal profiles (:func:`scan_steps`) that no set of
    ``others`` (the other sources' sets, of variable indices) already holds (:func:`covers`) and
    that are not in ``tried`` (steps ``auto`` tried: condition names as ``labels`` gives them,
    member variable indices), at most ``n_sets`` of 3-5 conditions and the best pair's
    (:func:`scan_pairs`), each with its ``step`` (condition indices). Empty outside the shapes the
    module docstring names."""
    m = xc.shape[0]
    if cand.size < ONOFF_MIN_VARS or not ONOFF_MIN_INSTANCES <= m <= ONOFF_MAX_INSTANCES:
        return []
    cost = edge_costs(scorer, np.array([len(parents[i]) for i in cand]))
    others = [np.asarray(list(o), dtype=np.intp) for o in others]
    out = []
    z = standardized_profiles(xc, coef, cand)
    for step in handed_on(z, cost, cand, others, n_sets, tried=tried, label=labels):
        out.append(dataclasses.replace(score(model, parents, cand[step.members], scorer, xc), step=step.conditions))
    return out


def handed_on(
    z: np.ndarray, cost: np.ndarray, cand: np.ndarray, others: list, n_sets: int = ONOFF_TRIED, tried=(), label=None
) -> list[Step]:
    """The steps :func:`onoff_candidates` scores (members as columns of ``z``, ``cand`` their
    variables): at most ``n_sets`` of 3-5 conditions whose sets no set of ``others`` (variable
    indices) holds (:func:`covers`) and that repeat no step of ``tried`` (:func:`repeats`;
    ``label`` names z's rows, default ``1..M``), and the best pair where it outscores every step it
    is part of (a step it is part of and outscores is dropped)."""
    steps, pairs = scan_steps(z, cost, GROWN_TRIPLES if WIDE else ONOFF_SETS), scan_pairs(z, cost, n_sets=4)
    pairs = [p for p in pairs if not any(_part(p, s) and s.score > p.score for s in steps)][:1]
    steps = [s for s in steps if not any(_part(p, s) and p.score >= s.score for p in pairs)]
    label = instance_names(label, z.shape[0])
    steps = [
        s for s in steps if not any(covers(cand[s.members], o) for o in others) and not repeats(s, cand, tried, label)
    ]
    return steps[:n_sets] + pairs  # a pair is listed even where another source's set holds it (same_program)


def repeats(step: Step, cand: np.ndarray, tried: list[tuple[frozenset, np.ndarray]] | tuple, label: list[str]) -> bool:
    """Whether ``step`` is one ``auto`` has tried (with :data:`REMEMBER_TRIED`): an entry of
    ``tried`` (condition names, member variable indices) with the same conditions (named by
    ``label``) whose set is mostly the same genes (:func:`covers`; a round later the network, and
    so the set, may have moved a little). A step on the same conditions with other genes is new."""
    if not REMEMBER_TRIED or not tried:  # off (measured): nothing to compare
        return False
    names = frozenset(label[c] for c in step.conditions)
    return any(names == frozenset(c) and covers(cand[step.members], m) for c, m in tried)


def same_program(proposals: list, labels=None) -> list:
    """``proposals`` with every unflagged one whose z* draws most (more than half) of its energy
    from the two conditions of a two-condition program found here (the ``step_conditions`` of a
    :func:`scan_pairs` proposal, instance names as ``labels`` gives them) flagged by them too: the
    same program from another source (a cluster of ideal profiles), whose noisier z* need not
    reach the leverage rule's four fifths (module docstring)."""
    programs = [p.step_conditions for p in proposals if len(p.step_conditions) == STEP_PAIR]
    for p in proposals if programs else []:
        row = {c: i for i, c in enumerate(instance_names(labels, p.profile.size))}
        energy = (p.profile - p.profile.mean()) ** 2
        for names in programs:
            if not p.flagged and energy[[row[c] for c in names]].sum() > 0.5 * energy.sum():
                p.high_leverage = list(names)
    return proposals


def _part(pair: Step, step: Step) -> bool:
    """Whether the conditions of ``pair`` are among those of ``step``."""
    return set(pair.conditions) <= set(step.conditions)


def name_step(p, step: tuple[int, ...], labels=None):
    """The proposal ``p`` (:class:`~.proposals.ClusterProposal`) of a step's set with the step's
    conditions (``step``, row indices) named by ``labels`` (``p.step_conditions``); a step in two
    conditions is flagged by both (``p.high_leverage``, :mod:`.leverage`) whatever z*'s own shares
    (module docstring). ``p`` unchanged when ``step`` is empty (a set of another source)."""
    if step:
        label = instance_names(labels, p.profile.size)
        p.step_conditions = [label[c] for c in step]
        if len(step) == STEP_PAIR:
            p.high_leverage = list(p.step_conditions)
    return p


def covers(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether sets ``a`` and ``b`` (variable indices) are mostly the same genes: their common
    genes are half of each or more (the step of a module's genes is that module, already
    proposed; a larger cluster that happens to hold half of ``a`` is not)."""
    return 2 * np.intersect1d(a, b).size >= max(len(a), len(b))

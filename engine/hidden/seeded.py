"""Seeded candidate sets from ideal profiles: the iterative signature algorithm (#22).

Average linkage over thousands of ideal profiles does not join a weak, wide module: a response
that adds a modest signal to 40 genes (an on/off driver, on in 3 of 27 conditions) gives their
ideal profiles a mean |cos| of about 0.3, barely above chance at M = 27, and the dendrogram mixes
them with chance neighbours long before it joins them (docs/decisions/genome-on-off-driver.md).
The iterative signature algorithm (Ihmels, Bergmann & Barkai 2004, "Defining transcription
modules using large-scale gene expression data", Bioinformatics 20:1993; Bergmann, Ihmels &
Barkai, Phys Rev E 67:031902, 2003) finds such modules from seeds instead: start from a profile,
take the genes that agree with it, replace the profile by their common one, and repeat until the
set is stable. Here every candidate's ideal profile is a seed, and each round takes the
:data:`SEED_TOP` genes whose standardized ideal profiles correlate most (in absolute value) with
the current profile, then the set's first principal component (the z* of eq. 11-12 for that set:
the top eigenvector of its Gram matrix) as the next profile, for :data:`SEED_ROUNDS` rounds.

All seeds are iterated at once as matrix products over the standardized ideal profiles, in blocks
of seeds so that no N x N table is held (memory ``block x N``); the top genes per seed come from
``argpartition``. The fixed points are ranked by the top eigenvalue of their set (the summed C1
bound of eq. 12, up to the factor M/2) and deduplicated (Jaccard >= :data:`SAME_JACCARD` = the
same set). They are candidate *sets* only: :func:`~.candidates.propose_from_search` scores them
like every other source, after :func:`trim` has dropped the members that do not pay for their
edge from the new parent (a fixed-size set holds chance genes, fitted by its own profile).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "SEEDED",
    "SAME_JACCARD",
    "SEED_ROUNDS",
    "SEED_SCORED",
    "SEED_TOP",
    "SEEDED_MIN_VARS",
    "seeded_sets",
    "standardized_profiles",
    "trim",
]

SEEDED = "seeded"  #: the source (``ClusterProposal.source``) of a set found here

#: genes per set in each round (the first look at the on/off driver: 30 of 2500 genes)
SEED_TOP = 30

#: rounds of (top genes, first principal component) from each seed
SEED_ROUNDS = 6

#: two candidate sets whose Jaccard index reaches this are the same set
SAME_JACCARD = 0.5

#: the seeded source runs by default from this many candidate variables (genome scale)
SEEDED_MIN_VARS = 500

#: distinct sets handed on to be scored (their eigenvalues hardly separate a weak module from
#: chance sets, so the estimate of :func:`~.candidates.score_candidate` picks among many)
SEED_SCORED = 60

#: power-iteration steps per round (each round starts from the previous profile)
POWER_STEPS = 4

#: memory bound of one block of seeds (float64 cells of the block x N correlation table)
BLOCK_CELLS = 1 << 22


def standardized_profiles(xc: np.ndarray, coef: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """Ideal profiles ``y_i = x_i - sum_p w_pi x_p`` (the residuals of the current families) of
    ``columns``, each scaled to unit norm (M x len(columns)); a constant profile stays 0."""
    y = xc[:, columns] - xc @ coef[:, columns]
    norm = np.linalg.norm(y, axis=0)
    return y / np.where(norm > 1e-12, norm, np.inf)


def _pc1(ys: np.ndarray, z: np.ndarray, steps: int = POWER_STEPS) -> tuple[np.ndarray, np.ndarray]:
    """First principal component (uncentred; ideal profiles have mean 0) of each set by power
    iteration from the current profiles: ``ys`` is (B, M, k), ``z`` (B, M). Returns the (B, M) unit
    vectors and the (B,) top eigenvalues of the sets' Gram matrices ``||Y_s^T z||^2``. (Batched
    ``eigh`` of many small matrices was 200 times slower with several BLAS threads.)"""
    for _ in range(steps):
        u = (z[:, None, :] @ ys)[:, 0, :]  # (B, k): Y_s^T z
        z = (ys @ u[:, :, None])[:, :, 0]
        z /= np.maximum(np.linalg.norm(z, axis=1, keepdims=True), 1e-300)
    u = (z[:, None, :] @ ys)[:, 0, :]
    return z, np.einsum("bk,bk->b", u, u)


def seeded_sets(
    y: np.ndarray, top: int = SEED_TOP, rounds: int = SEED_ROUNDS, limit: int = SEED_SCORED
) -> list[tuple[np.ndarray, float]]:
    """Distinct fixed-point sets of the iterative signature algorithm over unit ideal profiles.

    Parameters
    ----------
    y : ndarray (M, N), unit-norm ideal profiles (:func:`standardized_profiles`); every column is
        a seed.
    top : genes per set; rounds : iterations per seed; limit : how many distinct sets to return.

    Returns
    -------
    list of (column indices (sorted), top eigenvalue of the set's cosine matrix), largest
    eigenvalue first, no two with Jaccard >= :data:`SAME_JACCARD`.
    """
    m, n = y.shape
    top = min(top, n)
    if top < 2 or n < 2:
        return []
    block = max(1, BLOCK_CELLS // n)
    sets = np.empty((n, top), dtype=np.intp)
    lam = np.empty(n)
    for start in range(0, n, block):
        z = y[:, start : start + block].T.copy()  # (B, M): the seeds
        for _ in range(rounds + 1):
            corr = np.abs(z @ y)  # (B, N)
            idx = np.argpartition(-corr, top - 1, axis=1)[:, :top]
            ys = y[:, idx].transpose(1, 0, 2)  # (B, M, top)
            z, w = _pc1(ys, z)
        sets[start : start + z.shape[0]] = idx
        lam[start : start + z.shape[0]] = w
    out: list[tuple[np.ndarray, float]] = []
    kept = np.zeros((0, n), dtype=bool)
    for i in np.argsort(-lam, kind="stable"):
        s = np.sort(sets[i])
        inter = kept[:, s].sum(axis=1)
        if np.any(inter / (2 * top - inter) >= SAME_JACCARD):
            continue
        row = np.zeros((1, n), dtype=bool)
        row[0, s] = True
        kept = np.vstack([kept, row])
        out.append((s, float(lam[i])))
        if len(out) >= limit:
            break
    return out


def trim(cs, rescore, parents, scorer, n_samples: int, min_size: int = 2):
    """Drop the members of a seeded set that would not pay for their edge from the hidden parent.

    A member with one-factor loading a gains about ``-(M/2) log(1 - a^2)`` nats from the common
    parent (its mutual information with it) and costs ``scorer.penalty(k + 3, k + 1) -
    scorer.penalty(k + 2, k)`` with k its current parents: the break-even loading is
    ``sqrt(1 - exp(-2 pen / M))`` (about 0.6 at M = 27 under EBIC with 116 candidate parents).
    Chance members of a top-k set sit near the selection threshold and fall below it; all failing
    members go at once and the set is re-scored (``rescore(members)``, a
    :class:`~.candidates.CandidateScore`) until every member pays. Returns None when fewer than
    ``min_size`` members would remain: the set does not pay for a hidden parent.
    """
    while True:
        k = np.array([len(parents[i]) for i in cs.members])
        pen = np.array([scorer.penalty(j + 3, j + 1) - scorer.penalty(j + 2, j) for j in k])
        keep = np.abs(cs.factor_loadings) >= np.sqrt(-np.expm1(-2.0 * pen / n_samples))
        if keep.all():
            return cs
        if keep.sum() < min_size:
            return None
        cs = rescore(cs.members[keep])


def is_new(members, others) -> bool:
    """Whether ``members`` is a set none of ``others`` (sets of ints) already is: Jaccard index
    below :data:`SAME_JACCARD` with each."""
    key = set(int(v) for v in members)
    return all(len(key & o) < SAME_JACCARD * len(key | o) for o in others)

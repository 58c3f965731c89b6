"""Hidden-variable proposals that see through semi-cliques (JMLR 2007 section 5 + thesis ch. 4).

After an observed-only search, a hidden regulator's children are tied together by edges among
themselves (a semi-clique, :mod:`.semiclique`); their ideal profiles on that network are the
residuals *after* those edges, and no longer share the regulator's signal. So a candidate set C is
scored on the network **with the edges inside C removed** (the members' other parents kept):

* each member X_i is refitted on its outside parents U_i', giving the ideal profile y_i (the
  residual) and its ML variance sigma_i^2; the L x L matrix ``A = Y^T Y`` of eq. (12) comes from
  the scatter matrix, ``Y^T Y = W^T S W`` with ``W[:, i] = e_i - alpha_i`` (no pass over the data);
* z* = Y v* from the top eigenpair of A (eq. 11-12), and each member's C2 (a lower bound on its
  gain from z*, Theorem 3.4);
* the estimated score change, in the search's own score (BIC or EBIC, ``stepper.scorer``), counts
  the removed edges' loss as well as the new variable's cost, on the *observed* data (H integrated
  out, as the score that decides whether H is kept)::

      sum_i [ score(X_i | U_i') - (pen(X_i | U_i', H) - pen(X_i | U_i')) ]
    - sum_i score(X_i | U_i)                        (the current families, inside edges included)
    + G_factor(R) - pen(H as a root)

  where G_factor is the exact log-likelihood gain of one common factor for the members' residual
  correlations R (:func:`factor_gain`, loadings started from sqrt(lambda*/M) v*). The paper's
  complete-data estimate, sum_i C2_i + l_root(z*) with l_root = -(M/2)(log 2 pi + 1), treats z*
  as observed: z* is fitted to the members (it contains each member's own noise), so C2
  over-counts, and l_root is a fixed toll instead of the posterior's entropy. Pairs of unrelated
  variables then score about -0.6 M, and a real regulator's estimate is off by hundreds of nats
  in either direction (#12). C1 and C2 are still reported as the paper's bounds.

Candidate sets come from two sources and are ranked together: clusters of similar ideal profiles
on the current network (:func:`~.proposals.propose_clusters`) and semi-cliques of its skeleton
grown from 3-cliques (:func:`~.semiclique.find_semicliques`). Sets are kept non-overlapping
within each source, and ranked together by the estimate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .proposals import ClusterProposal, family_coefficients, make_proposal, propose_clusters, score_cluster
from .semiclique import find_semicliques

__all__ = ["CandidateScore", "ROOT_PER_INSTANCE", "propose_from_search", "score_candidate"]


@dataclass
class CandidateScore:
    """The estimate for one candidate set (see the module docstring)."""

    members: np.ndarray
    gain: float
    eigenvalue: float
    loadings: np.ndarray
    c2_members: np.ndarray
    profile: np.ndarray  # z* = Y v*, not yet standardized
    removed: list[tuple[int, int]]  # (parent, child) edges inside the set
    removed_loss: float  # score of the current families minus that of the families without them


def score_candidate(model, parents, members, scorer, xc: np.ndarray) -> CandidateScore:
    """Estimated score change of a new hidden parent of ``members`` replacing the edges among them.

    Parameters
    ----------
    model : LinearGaussianFamilies (has ``fit`` and ``scatter``)
    parents : list of tuple of int, every variable's current parents
    members : array of int, the candidate set (L >= 2)
    scorer : engine.score.BIC or EBIC, the search's score
    xc : ndarray (M, N), the centred values (for z* only)
    """
    members = np.asarray(members, dtype=np.intp)
    m = xc.shape[0]
    inside = set(int(v) for v in members)
    outs = [tuple(p for p in parents[i] if p not in inside) for i in members]
    removed = [(int(p), int(i)) for i in members for p in parents[i] if p in inside]
    fits = [model.fit(int(i), o) for i, o in zip(members, outs, strict=True)]
    current = sum(scorer.family(model.fit(int(i), tuple(parents[i]))) for i in members)
    kept = sum(scorer.family(f) for f in fits)
    idx = np.array(sorted(inside.union(*[set(o) for o in outs])), dtype=np.intp)
    pos = {int(v): k for k, v in enumerate(idx)}
    w = np.zeros((idx.size, members.size))
    for col, (i, o, f) in enumerate(zip(members, outs, fits, strict=True)):
        w[pos[int(i)], col] = 1.0
        if o:
            w[[pos[p] for p in o], col] = -np.asarray(f.params["coefficients"], dtype=float)
    yty = w.T @ model.scatter[np.ix_(idx, idx)] @ w
    rss = np.maximum(np.diag(yty), 1e-300)
    cos = np.clip(yty / np.sqrt(np.outer(rss, rss)), -1.0, 1.0)
    np.fill_diagonal(cos, 1.0)
    lam, vec, c2m = score_cluster(cos, m)
    add_pen = sum(scorer.penalty(len(o) + 3, len(o) + 1) - scorer.penalty(len(o) + 2, len(o)) for o in outs)
    gain = kept + factor_gain(cos, m, vec * math.sqrt(lam / m)) - add_pen - scorer.penalty(2, 0) - current
    sig = np.sqrt(rss / m)
    z = (xc[:, idx] @ w / sig) @ vec
    return CandidateScore(members, float(gain), lam, vec, c2m, z, removed, float(current - kept))


def factor_gain(corr: np.ndarray, n_samples: int, loadings: np.ndarray, n_iter: int = 60) -> float:
    """Observed-data log-likelihood gain (nats) of one common factor for variables with residual
    correlation matrix ``corr``, at the maximum-likelihood loadings (EM for factor analysis,
    Rubin & Thayer 1982, started from ``loadings``)::

        -(M/2) [ log det S + tr(S^-1 R) - L ],   S = diag(psi) + a a^T,

    against the same variables independent (the hidden variable integrated out: what the
    observed-data score of the network with H gains in these families). For L = 2 it is the pair's
    mutual information, -(M/2) log(1 - r^2). Unlike the paper's complete-data estimate (C2 plus
    the root log-likelihood of z*), it does not reward z* for fitting each member's own noise.
    """
    r = np.asarray(corr, dtype=float)
    a = np.clip(np.asarray(loadings, dtype=float), -0.99, 0.99)
    psi = np.maximum(1.0 - a**2, 1e-3)
    d = np.diag(r).copy()
    for _ in range(n_iter):
        # beta = a^T (diag(psi) + a a^T)^-1 by Sherman-Morrison: O(L), no inverse
        u = a / psi
        beta = u / (1.0 + a @ u)
        rb = r @ beta
        czz = 1.0 - beta @ a + beta @ rb
        a_new = rb / czz
        psi_new = np.maximum(d - a_new * rb, 1e-6)
        done = np.max(np.abs(a_new - a)) < 1e-6
        a, psi = a_new, psi_new
        if done:
            break
    sig = np.diag(psi) + np.outer(a, a)
    _, logdet = np.linalg.slogdet(sig)
    return float(-0.5 * n_samples * (logdet + np.trace(np.linalg.solve(sig, r)) - r.shape[0]))


def prune(cs: CandidateScore, model, parents, scorer, xc: np.ndarray, min_size: int = 3) -> CandidateScore:
    """Drop members of a semi-clique while that raises the estimate (best drop first).

    A greedily grown semi-clique often takes in network neighbours of the hidden variable's
    children (their edges to the children make them look like members); the single factor does
    not explain them, and removing their edges costs more than it gains."""
    while cs.members.size > min_size:
        trials = [score_candidate(model, parents, np.delete(cs.members, j), scorer, xc) for j in range(cs.members.size)]
        best = max(trials, key=lambda t: t.gain)
        if best.gain <= cs.gain:
            break
        cs = best
    return cs


def _skeleton(parents, cand: np.ndarray) -> np.ndarray:
    """Symmetric adjacency of the current network among the candidate variables."""
    n = len(parents)
    adj = np.zeros((n, n), dtype=bool)
    for c, ps in enumerate(parents):
        if ps:
            adj[list(ps), c] = True
    adj |= adj.T
    return adj[np.ix_(cand, cand)]


def propose_from_search(
    stepper,
    values: np.ndarray,
    names,
    *,
    candidates: np.ndarray | None = None,
    n_proposals: int = 5,
    max_size: int | None = None,
    min_size: int = 2,
    explained_threshold: float = 0.9,
    exclude: set[frozenset] | None = None,
    scatter: np.ndarray | None = None,
    semicliques: bool = True,
) -> list[ClusterProposal]:
    """Ranked hidden-variable proposals for the current state of a :class:`~engine.search.Stepper`.

    Both sources (ideal-profile clusters and, with ``semicliques``, semi-cliques of the current
    skeleton) are re-scored by :func:`score_candidate` in ``stepper.scorer``; the best sets,
    non-overlapping within each source, are returned, best estimate first. On a network with
    edges between the candidates, use ``min_size=3``: a hidden parent of two variables gives them
    the same joint distribution as an edge between them, at two more parameters. Other parameters as in
    :func:`~.proposals.propose_clusters`. On a network without edges both estimates are the
    paper's and the output is that of :func:`~.proposals.propose_clusters`.
    """
    values = np.asarray(values, dtype=float)
    model = stepper.model
    scorer = stepper.scorer
    n = stepper.n_vars
    parents = [tuple(stepper.parents(c)) for c in range(n)]
    coef, rss = family_coefficients(model, parents)
    cand = np.arange(n) if candidates is None else np.asarray(candidates, dtype=np.intp)
    exclude = set(exclude or set())
    clusters = propose_clusters(
        values,
        coef,
        rss,
        names,
        candidates=cand,
        scatter=model.scatter if scatter is None else scatter,
        n_proposals=n_proposals + 5,
        max_size=max_size,
        min_size=min_size,
        explained_threshold=explained_threshold,
        exclude=exclude,
        per_param=scorer.per_param,
    )
    sets: dict[tuple[int, ...], str] = {tuple(p.members): "profiles" for p in clusters}
    if semicliques and cand.size >= 3:
        for s in find_semicliques(_skeleton(parents, cand), max_size=max_size or cand.size):
            key = tuple(sorted(int(v) for v in cand[s]))
            if len(key) >= min_size:
                sets[key] = "profiles + semi-clique" if key in sets else "semi-clique"
    xc = values - values.mean(axis=0)
    scored = []
    for key, source in sets.items():
        cs = score_candidate(model, parents, np.array(key, dtype=np.intp), scorer, xc)
        if source == "semi-clique":
            cs = prune(cs, model, parents, scorer, xc, max(min_size, 3))
        if frozenset(str(names[i]) for i in cs.members) in exclude:
            continue
        scored.append((cs, source))
    scored.sort(key=lambda t: -t[0].gain)
    # non-overlapping within each source (a profile cluster does not hide a semi-clique that
    # shares members with it: their estimates are not comparable enough for that)
    used = {"profiles": np.zeros(n, dtype=bool), "semi-clique": np.zeros(n, dtype=bool)}
    out: list[ClusterProposal] = []
    for cs, source in scored:
        masks = [used[k] for k in used if k in source]
        if any(mask[cs.members].any() for mask in masks):
            continue
        for mask in masks:
            mask[cs.members] = True
        out.append(
            make_proposal(
                cs.profile,
                cs.members,
                cs.eigenvalue,
                cs.loadings,
                cs.c2_members,
                cs.gain,
                xc,
                values,
                names,
                explained_threshold,
                source=source,
                removed_edges=[(str(names[p]), str(names[c])) for p, c in cs.removed],
                removed_loss=cs.removed_loss,
            )
        )
        if len(out) >= n_proposals:
            break
    return out


#: the estimate's root term per instance (nats): -(log 2 pi + 1) / 2
ROOT_PER_INSTANCE = -0.5 * (math.log(2.0 * math.pi) + 1.0)

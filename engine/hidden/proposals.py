"""Hidden-variable proposals from clusters of similar ideal profiles (JMLR 2007 section 5).

If the ideal profiles of several variables look alike, and no existing variable looks like them, a
new hidden parent of that cluster could explain them all. For a cluster C = {X_1..X_L} with ideal
profiles y_i and variances sigma_i^2, the summed C1 of a common new parent Z is (eq. 10-13)::

    sum_i C1(y_i, z) = (1/2) z^T Y Y^T z / z^T z,     Y = [y_1/sigma_1, ..., y_L/sigma_L]

maximized by z* = Y v*, where (lambda*, v*) is the top eigenpair of the L x L matrix A = Y^T Y;
the maximum is lambda*/2. With ML variances, A = M * (cosines between the ideal profiles), so the
whole N x N matrix is computed once from the scatter matrix (no pass over the data) and every
cluster uses a sub-matrix. The cluster is then re-scored with C2 (a tighter bound):
``C2_i = -(M/2) log(1 - lambda* v_i^2 / M)``.

Clustering. Variables are merged agglomeratively (average linkage on 1 - |cos| between ideal profiles, so that a
hidden regulator that activates some members and represses others is still one cluster); every cluster of the
dendrogram is scored by its eigenpair and the best-scoring clusters that do not overlap are proposed. (The paper
merges by the estimated BIC itself; linkage on the same cosines gives the same tree shape for clean clusters at a
fraction of the cost.)

Scale of z*. The eigenvector fixes z* only up to scale; proposals report z* standardized to mean 0
and variance 1. The estimated BIC gain is

    sum_i C2_i  +  l_root(z*)  -  (log M / 2) (L + 2)

where l_root = -(M/2)(log(2 pi) + 1) is the log-likelihood of the standardized z* as a root (a constant under
this convention), L the new edges and 2 the root's mean and variance.

Clusters that an existing variable already explains (|corr(z*, x)| >= ``explained_threshold`` for some
variable outside the cluster) are marked with ``explained_by``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse
from scipy.cluster.hierarchy import linkage
from scipy.spatial.distance import squareform

from .._validation import check_scalar
from ..exceptions import ParameterError
from .leverage import profile_leverage
from .top_pair import top_eigenpair

__all__ = [
    "ClusterProposal",
    "ideal_cosines",
    "make_proposal",
    "profile_correlations",
    "propose_clusters",
    "score_cluster",
]

LOG_2PI = math.log(2.0 * math.pi)


@dataclass
class ClusterProposal:
    """A proposed hidden parent for ``members`` (variable indices and names).

    Attributes
    ----------
    members : list of int
    names : list of str
    profile : ndarray of shape (M,)
        z*, standardized (mean 0, variance 1), sign chosen so that most loadings are positive.
    loadings : ndarray of shape (L,)
        v* (unit norm), the weight of each member's scaled ideal profile in z*.
    eigenvalue : float
        lambda*; the summed C1 bound is lambda*/2.
    c1 : float
        sum_i C1(y_i, z*) = lambda*/2 (nats).
    c2 : float
        sum_i C2(y_i, z*) (nats).
    c2_members : ndarray of shape (L,)
        Each member's C2.
    estimated_gain : float
        Estimated BIC change of adding the hidden variable (see module docstring).
    complete_gain : float
        The paper's complete-data estimate (JMLR 2007 section 5): sum_i C2_i plus the root
        log-likelihood of z* (standardized), minus the penalty of the new parameters, as if z*
        were observed; with the inside edges removed, their loss is counted too. NaN if unset.
    closest, closest_corr : str or None, float
        The existing variable (outside the cluster) most correlated with z*, and that |corr|.
    explained_by : str or None
        ``closest`` when its correlation reaches the threshold: an existing variable already plays this role.
    key : frozenset of str
        Member names; identifies the proposal (used to reject it).
    source : str
        Where the set came from: ``"profiles"`` (a cluster of similar ideal profiles, JMLR 2007
        section 5), ``"semi-clique"`` (a semi-clique of the network, thesis ch. 4), or both.
    removed_edges : list of (parent, child) names
        Edges of the current network inside the set, which the hidden parent replaces; the
        estimate scores the members without them (their other parents kept).
    removed_loss : float
        Score the members lose when those edges are removed (>= 0 at a converged search).
    member_corr : ndarray of shape (L,)
        corr(member's values, z*), in the order of ``names``.
    common_variance : float
        Sum of the members' squared one-factor loadings (residuals with the inside edges removed):
        how much of their variance one common parent explains; ranks semi-cliques (NaN if unset).
    leverage, high_leverage, step_conditions : float, list of str, list of str
        Largest share of z*'s energy in one instance; the instances (file labels) that flag the proposal,
        empty if not flagged (:mod:`.leverage`; flagged proposals rank last); an on/off step's conditions
        (:mod:`.onoff`; a step in two conditions is flagged by both), else empty.
    """

    members: list[int]
    names: list[str]
    profile: np.ndarray
    loadings: np.ndarray
    eigenvalue: float
    c1: float
    c2: float
    c2_members: np.ndarray
    estimated_gain: float
    closest: str | None = None
    closest_corr: float = 0.0
    explained_by: str | None = None
    key: frozenset = field(default_factory=frozenset)
    source: str = "profiles"
    removed_edges: list[tuple[str, str]] = field(default_factory=list)
    removed_loss: float = 0.0
    member_corr: np.ndarray = field(default_factory=lambda: np.zeros(0))
    common_variance: float = math.nan
    complete_gain: float = math.nan
    leverage: float = math.nan
    high_leverage: list[str] = field(default_factory=list)
    step_conditions: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        """z* draws most of its energy from one or two instances (:mod:`.leverage`)."""
        return bool(self.high_leverage)

    def to_dict(self) -> dict:
        """JSON-friendly summary (without the profile)."""
        return {
            "members": list(self.names),
            "source": self.source,
            "c1": float(self.c1),
            "c2": float(self.c2),
            "estimated_gain": float(self.estimated_gain),
            "complete_gain": None if math.isnan(self.complete_gain) else float(self.complete_gain),
            "removed_edges": [list(e) for e in self.removed_edges],
            "removed_loss": float(self.removed_loss),
            "member_corr": [float(v) for v in self.member_corr],
            "closest": self.closest,
            "closest_corr": float(self.closest_corr),
            "explained_by": self.explained_by,
            "leverage": None if math.isnan(self.leverage) else float(self.leverage),
            "flagged_instances": list(self.high_leverage),
            "step_conditions": list(self.step_conditions),
        }


def ideal_cosines(scatter: np.ndarray, coef: np.ndarray, rss: np.ndarray) -> np.ndarray:
    """Cosines between every pair of ideal profiles, from the scatter matrix alone.

    The ideal profiles are ``Y = Xc (I - W)`` with ``W[p, c]`` the coefficient of parent p in
    child c's family, so ``Y^T Y = (I - W)^T S (I - W)``; dividing by ``sqrt(rss_i rss_j)`` gives
    the cosines (the diagonal is 1). ``A = M * cosines`` is the matrix of eq. (12).
    """
    w = sparse.csr_matrix(coef)  # the network's edges: sparse, so each product is O(edges x N)
    wts = np.asarray(w.T @ scatter)  # W^T S
    cos = scatter - wts  # (I - W)^T S (I - W), S symmetric; in place from here (N x N at genome scale)
    cos -= wts.T
    cos += np.asarray(w.T @ wts.T).T
    d = 1.0 / np.sqrt(np.maximum(rss, 1e-300))
    cos *= d[:, None]
    cos *= d[None, :]
    np.fill_diagonal(cos, 1.0)
    return np.clip(cos, -1.0, 1.0, out=cos)


#: largest cluster of ideal profiles proposed by default (#22: at 2500 genes the dendrogram's
#: large nodes made half the proposal time)
PROFILE_CAP = 300

#: clusters larger than this get only their top eigenpair (:mod:`.top_pair`) in :func:`score_cluster`
DENSE_EIGH = 24


def score_cluster(
    cos_sub: np.ndarray, n_samples: int, v0: np.ndarray | None = None
) -> tuple[float, np.ndarray, np.ndarray]:
    """Top eigenpair of a cluster's cosine sub-matrix and its members' C2 (eq. 11-13).

    Returns ``(lambda*, v*, c2_members)`` with lambda* on the scale of A = M * cosines. Above
    :data:`DENSE_EIGH` members only the top pair is computed (:mod:`.top_pair`; Lanczos started from
    ``v0`` when given, e.g. the two merged clusters' vectors side by side): the dendrogram's large
    clusters made the full eigendecompositions most of the proposal time at 500 variables (#12).
    """
    m = n_samples
    size = cos_sub.shape[0]
    if size == 1:
        return float(m), np.ones(1), np.array([np.inf])
    if size > DENSE_EIGH:
        w, v = top_eigenpair(cos_sub, v0)
    else:
        w, v = np.linalg.eigh(cos_sub)
    lam = float(w[-1]) * m
    vec = v[:, -1]
    if vec.sum() < 0:
        vec = -vec
    r2 = np.clip(lam * vec**2 / m, 0.0, 1.0 - 1e-12)
    return lam, vec, -0.5 * m * np.log1p(-r2)


def propose_clusters(
    values: np.ndarray,
    coef: np.ndarray,
    rss: np.ndarray,
    names: list[str] | tuple[str, ...],
    *,
    candidates: np.ndarray | None = None,
    scatter: np.ndarray | None = None,
    n_proposals: int = 5,
    max_size: int | None = None,
    min_size: int = 2,
    explained_threshold: float = 0.9,
    exclude: set[frozenset] | None = None,
    per_param: float | None = None,
    labels=None,
    explainers: np.ndarray | None = None,
) -> list[ClusterProposal]:
    """Propose hidden parents for clusters of variables with similar ideal profiles.

    Parameters
    ----------
    values : ndarray of shape (M, N)
        The data (posterior means where values are hidden or missing).
    coef : ndarray of shape (N, N)
        ``coef[p, c]``: coefficient of parent p in child c's current family (0 if not a parent).
    rss : ndarray of shape (N,)
        Residual sum of squares of every current family (``M * sigma^2``).
    names : sequence of str
    candidates : ndarray of int, optional
        Variables that may be clustered (default: all). Hidden variables are usually left out.
    scatter : ndarray of shape (N, N), optional
        Centred scatter matrix of ``values`` (computed when not given).
    n_proposals : int
        How many non-overlapping clusters to return, best first.
    max_size : int, optional
        Largest cluster considered (default :data:`PROFILE_CAP`: each dendrogram node is scored by
        an eigenpair of its size; a hidden variable accepted from a smaller cluster still takes
        any further children structural EM finds).
    min_size : int
        Smallest cluster (>= 2: a single variable always matches its own profile).
    explained_threshold : float
        |corr(z*, existing variable)| at which the cluster is marked as already explained.
    exclude : set of frozenset of names
        Clusters that were rejected; they are not proposed again.
    per_param : float, optional
        Score penalty per free parameter (default BIC's ``log(M) / 2``; the search's scorer's
        ``per_param`` when called from :func:`~engine.hidden.candidates.propose_from_search`).
    labels : sequence of str, optional
        Instance names (the file's), naming the instances of a flagged proposal (:mod:`.leverage`).
    explainers : ndarray of int, optional
        Variables that may be parents (a regulator list), the only ones that can be ``explained_by``
        (default: all): a gene that is no regulator cannot stand in for the hidden parent (#22).

    Returns
    -------
    list of ClusterProposal, by decreasing estimated gain (flagged ones last).

    Notes
    -----
    Cost: the cosines (sparse products), an O(N^2) linkage, one eigenpair per dendrogram cluster.
    """
    values = np.asarray(values, dtype=float)
    m, n = values.shape
    check_scalar(n_proposals, "n_proposals", int, min_val=1)
    check_scalar(min_size, "min_size", int, min_val=2)
    check_scalar(explained_threshold, "explained_threshold", float, min_val=0.0, max_val=1.0)
    cand = np.arange(n) if candidates is None else np.asarray(candidates, dtype=np.intp)
    if cand.size < min_size:
        raise ParameterError(f"need at least {min_size} candidate variables to propose a cluster, got {cand.size}.")
    max_size = min(cand.size, PROFILE_CAP) if max_size is None else int(max_size)
    means = values.mean(axis=0)
    xc = values - means
    if scatter is None:
        scatter = xc.T @ xc
    cos = ideal_cosines(scatter, coef, rss)
    if cand.size < n or np.any(cand != np.arange(n)):
        cos = cos[np.ix_(cand, cand)]
    exclude = exclude or set()

    # average-linkage dendrogram on 1 - |cos|
    dist = np.abs(cos)
    np.subtract(1.0, dist, out=dist)
    np.fill_diagonal(dist, 0.0)
    tree = linkage(squareform(np.maximum(dist, 0.0, out=dist), checks=False), method="average")
    del dist
    clusters: list[np.ndarray] = [np.array([i]) for i in range(cand.size)]
    pen = 0.5 * math.log(m) if per_param is None else float(per_param)
    root = -0.5 * m * (LOG_2PI + 1.0)
    # Tree-constrained BIC partition (the paper's rule "merge while the estimated BIC improves",
    # evaluated exactly on the dendrogram): a node is kept whole when its own gain beats the best
    # partition of its two children; leaves contribute 0 (no hidden parent).
    best = [0.0] * cand.size
    chosen: list[list[int]] = [[] for _ in range(cand.size)]
    info: dict[int, tuple[float, np.ndarray, float, np.ndarray, np.ndarray]] = {}
    tops: dict[int, np.ndarray] = {}  # each scored node's top vector, a warm start for its parent
    for a, b, _, _ in tree:
        a, b = int(a), int(b)
        merged = np.concatenate([clusters[a], clusters[b]])
        node = len(clusters)
        clusters.append(merged)
        split = best[a] + best[b]
        best.append(split)
        chosen.append(chosen[a] + chosen[b])
        if not (min_size <= merged.size <= max_size):
            continue
        start = np.concatenate([tops.get(a, np.ones(clusters[a].size)), tops.get(b, np.ones(clusters[b].size))])
        lam, vec, c2m = score_cluster(cos[np.ix_(merged, merged)], m, start)
        tops[node] = vec * math.sqrt(lam)
        gain = float(c2m.sum()) + root - pen * (merged.size + 2)
        info[node] = (gain, merged, lam, vec, c2m)
        if gain > split:
            best[node] = gain
            chosen[node] = [node]
    top = chosen[-1] if len(clusters) > cand.size else []
    # the optimal partition first (best gain first), then other clusters of the tree by gain
    scored = sorted((info[i] for i in top), key=lambda t: -t[0])
    scored += sorted((v for i, v in info.items() if i not in set(top)), key=lambda t: -t[0])
    used = np.zeros(cand.size, dtype=bool)
    out: list[ClusterProposal] = []
    # residual (ideal) profiles of the candidates, scaled by 1/sigma: y_i / sigma_i
    sig = np.sqrt(np.maximum(rss, 1e-300) / m)
    extra = {"labels": labels, "explainers": explainers}
    for gain, merged, lam, vec, c2m in scored:
        if used[merged].any():
            continue
        members = cand[merged]
        key = frozenset(str(names[i]) for i in members)
        if key in exclude:
            continue
        y = (xc[:, members] - xc @ coef[:, members]) / sig[members]
        z = y @ vec
        extra["complete_gain"] = gain
        out.append(make_proposal(z, members, lam, vec, c2m, gain, xc, values, names, explained_threshold, **extra))
        used[merged] = True
        if len(out) >= n_proposals:
            break
    out.sort(key=lambda p: (p.flagged, -p.estimated_gain))
    return out


def profile_correlations(z: np.ndarray, xc: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Signed corr(z, x_j) of a standardized profile with every column (a constant column: 0)."""
    m = xc.shape[0]
    sd = xc.std(axis=0)
    live = sd > 1e-12 * np.maximum(np.abs(values).max(axis=0), 1.0)
    corr = np.where(live, (z @ xc) / (m * np.maximum(sd, 1e-300)), 0.0)
    return np.clip(corr, -1.0, 1.0)


def make_proposal(
    z: np.ndarray,
    members: np.ndarray,
    lam: float,
    vec: np.ndarray,
    c2m: np.ndarray,
    gain: float,
    xc: np.ndarray,
    values: np.ndarray,
    names,
    explained_threshold: float,
    labels=None,
    explainers: np.ndarray | None = None,
    **extra,
) -> ClusterProposal:
    """A :class:`ClusterProposal` for ``members`` with profile ``z`` (standardized here), its
    closest variable outside the set, ``explained_by`` (an existing variable that may be a parent,
    one of ``explainers``, already plays the role: one outside the cluster, or a member that is
    itself nearly z*, when L > 2) and its leverage (:mod:`.leverage`, instances named by ``labels``)."""
    n = xc.shape[1]
    z = (z - z.mean()) / max(z.std(), 1e-300)
    signed = profile_correlations(z, xc, values)
    corr = np.abs(signed)
    can = np.ones(n, dtype=bool) if explainers is None else np.isin(np.arange(n), explainers)
    others = np.setdiff1d(np.arange(n), members)
    closest, closest_corr = None, 0.0
    if others.size:
        j = int(np.argmax(corr[others]))
        closest, closest_corr = str(names[others[j]]), float(corr[others][j])
    able = others[can[others]]
    explained_by = None
    if able.size and corr[able].max() >= explained_threshold:
        explained_by = str(names[able[int(np.argmax(corr[able]))]])
    inner = members[can[members]]
    if explained_by is None and inner.size and members.size > 2:
        jm = int(np.argmax(corr[inner]))
        if corr[inner][jm] >= explained_threshold:
            explained_by = str(names[inner[jm]])
    lev = profile_leverage(z, labels)
    order = np.argsort(members)
    return ClusterProposal(
        members=[int(i) for i in members[order]],
        names=[str(names[i]) for i in members[order]],
        profile=z,
        loadings=vec[order],
        eigenvalue=lam,
        c1=lam / 2.0,
        c2=float(c2m.sum()),
        c2_members=c2m[order],
        estimated_gain=gain,
        closest=closest,
        closest_corr=closest_corr,
        explained_by=explained_by,
        key=frozenset(str(names[i]) for i in members),
        member_corr=signed[members[order]],
        leverage=lev.leverage,
        high_leverage=lev.instances,
        **extra,
    )

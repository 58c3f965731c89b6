"""A regulator report for accepted hidden variables: what each one does to each child (and,
before Accept, :func:`cluster_view`: the profiles a person needs to vet a proposal).

For a hidden variable H of a linear-Gaussian network (fitted on the expected statistics of
structural EM, JMLR 2007 section 6), per child X:

* ``loading``: the coefficient of H in X's family, on the scale where H has unit variance
  (``w_HX * sd(H)``; H's variance is the network's implied marginal variance), and its ``sign``;
* ``variance_explained``: the share of X's (implied) variance due to H's direct effect,
  ``w_HX^2 Var(H) / Var(X)``;
* ``corr_child_profile``: corr(X's values, H's profile), the profile being H's posterior mean
  per instance (z* refined by EM), reported on the loadings' scale (divided by sd(H), :mod:`.scale`).

Per hidden variable: the observed variable whose values are closest to the profile (|corr|), the
proposal's estimated score change and the realized one (observed data, the same score, against the
network before the acceptance searched to convergence).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import spsolve

from .activity import activity_match, takeover_match
from .correlation import column_corr
from .global_shift import global_shift, table_axes
from .hub_targets import hub_targets
from .leverage import ODD_SHARE, instance_names, odd_conditions, odd_share, profile_leverage
from .operon import locus_index, operon_reading
from .pooled import pooled_activity
from .proposals import ClusterProposal
from .sex_genes import sex_axis, sex_reading

if TYPE_CHECKING:
    from .verdict import PayBreakdown

__all__ = [
    "READINGS",
    "REPORT_COLUMNS",
    "ChildLoading",
    "ClusterView",
    "HiddenVariable",
    "RegulatorReport",
    "cluster_view",
    "regulator_report",
    "report_rows",
]

#: what the numbers of a hidden variable's profile are, wherever it is shown or exported (.scale)
PROFILE_UNIT = "posterior mean of H in SDs of H under the network (H on unit variance, the loadings' scale)"

#: the readings of a hidden variable in a report's ``extra``, copied into the JSON's hidden entries
READINGS = ("activity", "pooled", "hub_targets", "global_shift", "operon", "sex", "odd_conditions")

#: columns of the CSV export, one row per (hidden variable, child)
REPORT_COLUMNS = [
    "hidden",
    "child",
    "loading",
    "sign",
    "variance_explained",
    "corr_child_profile",
    "closest_observed",
    "closest_corr",
    "estimated_gain",
    "realized_gain",
]


@dataclass
class ChildLoading:
    """One child of a hidden variable (see the module docstring)."""

    child: str
    loading: float
    sign: str
    variance_explained: float
    corr_child_profile: float


@dataclass
class RegulatorReport:
    """One hidden variable's report."""

    name: str
    children: list[ChildLoading]
    closest_observed: str | None
    closest_corr: float
    estimated_gain: float = math.nan
    realized_gain: float = math.nan
    extra: dict = field(default_factory=dict)
    #: H's own parents (regulators it depends on, ``H <- TF``), strongest first
    parents: list[str] = field(default_factory=list)
    #: H's profile per instance: ``{"instances": names, "values": posterior means / sd(H), "unit"}``
    profile: dict = field(default_factory=dict)
    #: share of H's (implied) variance its parents explain, ``1 - sigma_H^2 / Var(H)``: near 1, H is
    #: a combination of measured regulators rather than a new one (0 without parents)
    parents_r2: float = 0.0

    def to_dict(self) -> dict:
        def num(x: float) -> float | None:
            return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)

        return {
            "name": self.name,
            "closest_observed": self.closest_observed,
            "closest_corr": num(self.closest_corr),
            "estimated_gain": num(self.estimated_gain),
            "realized_gain": num(self.realized_gain),
            "parents": list(self.parents),
            "parents_r2": float(self.parents_r2),
            "profile": dict(self.profile),
            "children": [asdict(c) for c in self.children],
            **self.extra,  # e.g. "enrichment": known gene sets among the children (engine.enrichment)
        }


def implied_variances(coef: np.ndarray, variance: np.ndarray, *rows) -> np.ndarray:
    """Marginal variances of the network ``x = coef^T x + eps`` (``eps ~ N(0, diag(variance))``)
    at the variables ``rows`` (index iterables, or a boolean/weight block whose non-zero columns
    are wanted); NaN elsewhere. ``Var(x_i) = sum_k A[i, k]^2 d_k`` with ``A = (I - coef^T)^{-1}``:
    row i of A is a sparse solve of ``(I - coef) y = e_i``, so no N x N inverse is formed."""
    n = coef.shape[0]
    want = set()
    for r in rows:
        arr = np.asarray(r)
        want.update(int(i) for i in (np.flatnonzero(arr.any(axis=0)) if arr.ndim == 2 else arr.ravel()))
    out = np.full(n, np.nan)
    if not want:
        return out
    idx = np.array(sorted(want), dtype=np.intp)
    lhs = (sparse.identity(n, format="csc") - sparse.csc_matrix(np.asarray(coef, dtype=float))).tocsc()
    rhs = sparse.csc_matrix((np.ones(idx.size), (idx, np.arange(idx.size))), shape=(n, idx.size))
    y = spsolve(lhs, rhs)
    y = y.toarray() if sparse.issparse(y) else np.asarray(y).reshape(n, idx.size)
    out[idx] = np.maximum((y**2 * np.asarray(variance, dtype=float)[:, None]).sum(axis=0), 1e-300)
    return out


def _odd(odd: np.ndarray, share: float, inst: list[str]) -> dict:
    """A report's ``odd_conditions``: the table's odd conditions (:func:`.leverage.odd_conditions`),
    the share of H's profile's energy in them and whether it exceeds :data:`.leverage.ODD_SHARE`."""
    return {"conditions": [inst[i] for i in odd], "share": share, "flagged": bool(share > ODD_SHARE)}


def regulator_report(
    names: list[str],
    n_observed: int,
    coef: np.ndarray,
    variance: np.ndarray,
    values: np.ndarray,
    gains: dict[str, tuple[float, float]] | None = None,
    labels=None,
    regulators=None,
    before: dict[str, list[tuple[str, str]]] | None = None,
) -> list[RegulatorReport]:
    """Reports for the hidden variables ``names[n_observed:]`` of a linear-Gaussian network.

    Parameters
    ----------
    names : every variable, observed first
    n_observed : how many are observed
    coef : (N, N), ``coef[parent, child]``
    variance : (N,), each family's noise variance
    values : (M, N), observed values and the hidden variables' posterior means
    gains : name -> (estimated, realized) score change, optional
    labels : instance names (the file's), for each report's ``profile`` (``1..M`` without)
    regulators : indices of the listed regulators (a regulator list), for :mod:`.hub_targets` and
        :func:`.activity.takeover_match`
    before : name -> the (parent, child) name pairs of the network before that hidden variable was
        added, for :func:`.activity.takeover_match` (a hidden variable missing here is read without it)
    """
    n = len(names)
    var = implied_variances(coef, variance, range(n_observed, n), coef[n_observed:, :n_observed])
    gains = gains or {}
    out = []
    odd, inst = odd_conditions(values[:, :n_observed]), instance_names(labels, values.shape[0])  # .leverage
    axes = table_axes(values[:, :n_observed])  # the table's level and first component (.global_shift)
    tags = locus_index(names[:n_observed])  # the table's locus tags, None unless a genome's (.operon)
    sexes = sex_axis(values[:, :n_observed], names[:n_observed])  # XIST against the Y genes (.sex_genes)
    for h in range(n_observed, n):
        prof = values[:, h]
        kids = np.flatnonzero(coef[h, :n_observed])
        corr_obs = column_corr(prof, values[:, :n_observed])
        children = [
            ChildLoading(
                child=str(names[c]),
                loading=float(coef[h, c] * math.sqrt(var[h])),
                sign="+" if coef[h, c] > 0 else "-",
                variance_explained=float(coef[h, c] ** 2 * var[h] / var[c]),
                corr_child_profile=float(corr_obs[c]),
            )
            for c in kids
        ]
        children.sort(key=lambda c: -abs(c.loading))
        j = int(np.argmax(np.abs(corr_obs))) if n_observed else -1
        est, real = gains.get(str(names[h]), (math.nan, math.nan))
        act = activity_match(coef, names, n_observed, h)  # H as an observed parent's activity (.activity)
        if not (act and act.flagged) and (before or {}).get(str(names[h])):  # or as its replacement (.activity)
            took = takeover_match(coef, names, n_observed, h, before[str(names[h])], regulators)
            act = took if took is not None and took.flagged else act
        ups = np.flatnonzero(coef[:, h])
        ups = ups[np.argsort(-np.abs(coef[ups, h]), kind="stable")]
        # the share of H's variance its parents explain: the one R^2 of the report (the pooled reading's too)
        parents_r2 = float(max(0.0, 1.0 - variance[h] / var[h])) if ups.size else 0.0
        pool = pooled_activity(coef, values, names, n_observed, h, real, parents_r2=parents_r2)  # (.pooled)
        hubs = hub_targets(coef, values, names, n_observed, h, regulators)  # children not set apart (.hub_targets)
        shift = global_shift(axes, prof, coef[h, :n_observed])  # the whole table's level or first PC (.global_shift)
        out.append(
            RegulatorReport(
                name=str(names[h]),
                children=children,
                closest_observed=str(names[j]) if j >= 0 else None,
                closest_corr=float(abs(corr_obs[j])) if j >= 0 else math.nan,
                estimated_gain=float(est),
                realized_gain=float(real),
                parents=[str(names[p]) for p in ups],
                parents_r2=parents_r2,
                extra={
                    "activity": None if act is None else act.to_dict(),
                    "pooled": None if pool is None else pool.to_dict(),
                    "hub_targets": None if hubs is None else hubs.to_dict(),
                    "global_shift": None if shift is None else shift.to_dict(),
                    "operon": None if tags is None else operon_reading(kids, names, tags),  # one operon? (.operon)
                    "sex": None if (sex := sex_reading(prof, sexes)) is None else sex.to_dict(),  # (.sex_genes)
                    "odd_conditions": _odd(odd, odd_share(prof, odd) if odd.size else 0.0, inst),
                },
                # on the loadings' scale, H on unit variance (.scale)
                profile={
                    "instances": instance_names(labels, prof.size),
                    "values": [float(v) for v in prof / math.sqrt(var[h])],
                    "unit": PROFILE_UNIT,
                },
            )
        )
    return out


def report_rows(reports: list[RegulatorReport]) -> list[dict]:
    """One dict per (hidden variable, child) with :data:`REPORT_COLUMNS` (CSV export)."""
    rows = []
    for r in reports:
        for c in r.children:
            rows.append(
                {
                    "hidden": r.name,
                    "child": c.child,
                    "loading": c.loading,
                    "sign": c.sign,
                    "variance_explained": c.variance_explained,
                    "corr_child_profile": c.corr_child_profile,
                    "closest_observed": r.closest_observed,
                    "closest_corr": r.closest_corr,
                    "estimated_gain": r.estimated_gain,
                    "realized_gain": r.realized_gain,
                }
            )
    return rows


@dataclass
class ClusterView:
    """What a person needs to vet a proposed hidden regulator.

    ``ideal`` holds the members' ideal profiles scaled by 1/sigma_i (columns, the matrix Y of
    eq. 11), ``profile`` the proposed hidden profile z* (standardized), ``member_corr`` the
    correlation matrix of the members' values, and ``ideal_corr`` that of their ideal profiles.
    ``order`` sorts the instances by z* so that a plot of the profiles is readable; ``instances``
    names them (the file's labels, ``1..M`` without), in the data's order.
    """

    names: list[str]
    ideal: np.ndarray
    profile: np.ndarray
    member_corr: np.ndarray
    ideal_corr: np.ndarray
    loadings: np.ndarray
    order: np.ndarray
    instances: list[str] = field(default_factory=list)


def cluster_view(stepper, values: np.ndarray, proposal: ClusterProposal, labels=None) -> ClusterView:
    """Profiles and correlations of a proposal's members under the stepper's current families,
    without the edges inside the set that the proposal removes (its other parents kept);
    ``labels`` are the instance names."""
    members = np.asarray(proposal.members, dtype=np.intp)
    inside = set(int(v) for v in members)
    m = values.shape[0]
    xc = values - values.mean(axis=0)
    # only the members' families (the page calls this on every pick: all N fits and an N x N
    # coefficient matrix took 0.2 s at 2,500 genes for the same columns)
    y, rss = np.empty((m, members.size)), np.empty(members.size)
    for k, c in enumerate(members.tolist()):
        ps = tuple(p for p in stepper.parents(c) if p not in inside)
        fit = stepper.model.fit(c, ps)
        y[:, k] = xc[:, c] - xc[:, list(ps)] @ np.asarray(fit.params["coefficients"]) if ps else xc[:, c]
        rss[k] = fit.params["variance"] * stepper.model.n_samples
    y = y / np.sqrt(np.maximum(rss, 1e-300) / m)
    z = proposal.profile
    # orient each member's profile like z* so that the picture shows agreement, not sign
    sign = np.sign(y.T @ z)
    sign[sign == 0] = 1.0
    return ClusterView(
        names=list(proposal.names),
        ideal=y * sign,
        profile=z,
        member_corr=np.corrcoef(values[:, members], rowvar=False),
        ideal_corr=np.corrcoef(y, rowvar=False),
        loadings=np.asarray(proposal.loadings),
        order=np.argsort(z, kind="stable"),
        instances=instance_names(labels, m),
    )


def _num(x: float) -> float | None:
    """A float for JSON, None for NaN (not measured)."""
    return None if math.isnan(x) else float(x)


@dataclass
class HiddenVariable:
    """An accepted hidden variable."""

    name: str
    children: list[str]
    estimated_gain: float
    members: list[str]
    #: observed-data score before the acceptance (the network then, searched to convergence) and
    #: after it (structural EM over H's Markov blanket, then the full search); NaN when not measured
    baseline_score: float = math.nan
    score_after: float = math.nan
    source: str = ""
    removed_edges: list[tuple[str, str]] = field(default_factory=list)
    #: the realized change split into log-likelihood and penalty (:class:`.verdict.PayBreakdown`),
    #: when the acceptance measured it (the explorer's Accept); None otherwise
    breakdown: PayBreakdown | None = None
    #: the (parent, child) name pairs of the network before H was added (for the report's reading of
    #: H as a listed regulator's replacement, :func:`.activity.takeover_match`); not in :meth:`to_dict`
    edges_before: list[tuple[str, str]] = field(default_factory=list, repr=False)

    @property
    def realized_gain(self) -> float:
        """Observed-data score after minus before (the same score, the same data)."""
        return self.score_after - self.baseline_score

    def to_dict(self, profile: np.ndarray | None = None, labels=None) -> dict:
        """JSON-friendly record; with ``profile`` (the posterior mean per instance) also the
        instance names (``labels``, the file's; ``1..M`` without), its ``leverage`` and the
        instances that flag it (:mod:`.leverage`)."""
        out = {
            "name": self.name,
            "children": list(self.children),
            "estimated_gain": float(self.estimated_gain),
            "proposed_members": list(self.members),
            "source": self.source,
            "removed_edges": [list(e) for e in self.removed_edges],
            "baseline_score": _num(self.baseline_score),
            "score_after": _num(self.score_after),
            "realized_gain": _num(self.realized_gain),
        }
        if self.breakdown is not None:  # accepted by hand: the realized change split (.verdict)
            out["score_breakdown"] = asdict(self.breakdown)
        if profile is not None:
            out["profile"] = [float(v) for v in profile]
            out["instances"] = instance_names(labels, len(profile))
            lev = profile_leverage(profile, labels)
            out["leverage"] = lev.leverage
            out["flagged_instances"] = lev.instances
        return out

"""The result of a bootstrap: per-replicate outcomes summed up as edge and regulator confidence.

:class:`BootstrapResult` is built from the replicates' :class:`~.replicate.ReplicateOutcome`
(in index order, so the same whatever order they finished in) by :meth:`BootstrapResult.build`.
Strengths are shares of the *successful* replicates (``replicates``); failed ones are listed
in ``failures`` with their message and take no part in any figure. The JSON layout
(:meth:`BootstrapResult.to_dict`, the CLI's output)::

    {"replicates": R, "requested": B, "threshold": t, "threshold_method": "...",
     "edges": [{"parent", "child", "strength", "direction"}, ...],
     "averaged": [{"parent", "child", "strength", "direction"}, ...],
     "hidden": [{"name", "support", "n_replicates", "core", "children": [{"child", "frequency"}]}],
     "failed": [{"replicate": r, "error": "..."}], "stopped": bool,
     "warnings": [...], "settings": {...}, "stats": {...}}

``hidden`` is present only when the replicates were learned with ``hidden="auto"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..exceptions import ParameterError
from ..listing import first_few
from .regulators import MIN_JACCARD, RegulatorSupport, match_regulators
from .replicate import ReplicateOutcome
from .strength import (
    EdgeStrength,
    averaged_network,
    edge_counts,
    edge_strengths,
    inclusion_threshold,
    pair_strengths,
)

__all__ = ["BootstrapResult", "THRESHOLD_METHOD"]

#: how the default threshold is chosen, as stored in the result
THRESHOLD_METHOD = (
    "estimated: bnlearn's inclusion.threshold (Scutari & Nagarajan 2013, L1 fit of a step to the ECDF of all "
    "pair strengths)"
)


def check_threshold(threshold) -> float | None:
    """None (estimate it) or a number in [0, 1]."""
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, int | float | np.integer | np.floating):
        raise ParameterError(f"`threshold` must be None or a number between 0 and 1, got {threshold!r}.")
    if not 0.0 <= float(threshold) <= 1.0:
        raise ParameterError(f"`threshold` == {threshold}, must be between 0 and 1.")
    return float(threshold)


@dataclass
class BootstrapResult:
    """Edge (and hidden-regulator) confidence from ``replicates`` successful replicates.

    Attributes
    ----------
    names : tuple of str
        The observed variables.
    requested : int
        Replicates asked for (B).
    outcomes : list of ReplicateOutcome
        The successful replicates, by index.
    failures : list of ReplicateOutcome
        The failed ones, by index, each with its ``error``.
    threshold : float
        The averaged network's threshold (given, or estimated as ``threshold_method`` says).
    edges : list of EdgeStrength
        Every pair seen in some replicate, strongest first.
    averaged : list of EdgeStrength
        The averaged network's edges at ``threshold``.
    regulators : list of RegulatorSupport or None
        With ``hidden="auto"``: the hidden regulators matched across replicates.
    stopped : bool
        The run was stopped before every replicate had finished.
    """

    names: tuple[str, ...]
    requested: int
    outcomes: list[ReplicateOutcome]
    failures: list[ReplicateOutcome]
    threshold: float
    threshold_method: str
    edges: list[EdgeStrength]
    averaged: list[EdgeStrength]
    regulators: list[RegulatorSupport] | None = None
    stopped: bool = False
    settings: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)

    @property
    def replicates(self) -> int:
        """Number of successful replicates (the denominator of every strength)."""
        return len(self.outcomes)

    @classmethod
    def build(
        cls,
        names: Sequence[str],
        outcomes: Sequence[ReplicateOutcome],
        requested: int,
        *,
        threshold: float | None = None,
        hidden: bool = False,
        stopped: bool = False,
        settings: dict | None = None,
        stats: dict | None = None,
    ) -> BootstrapResult:
        """Sum up ``outcomes`` (any order; failed ones are set apart)."""
        names = tuple(names)
        threshold = check_threshold(threshold)
        ordered = sorted(outcomes, key=lambda o: o.index)
        ok = [o for o in ordered if o.ok]
        failed = [o for o in ordered if not o.ok]
        counts = edge_counts(len(names), (o.edges for o in ok))
        edges = edge_strengths(names, counts, len(ok))
        if threshold is None:
            t = inclusion_threshold(pair_strengths(counts, len(ok))) if ok else 0.0
            method = THRESHOLD_METHOD
        else:
            t, method = threshold, "given"
        regulators = None
        if hidden:
            regulators = match_regulators([(o.index, o.hidden) for o in ok], len(ok), names)
        return cls(
            names=names,
            requested=int(requested),
            outcomes=ok,
            failures=failed,
            threshold=t,
            threshold_method=method,
            edges=edges,
            averaged=averaged_network(edges, names, t),
            regulators=regulators,
            stopped=stopped,
            settings=dict(settings or {}),
            stats=dict(stats or {}),
        )

    def averaged_at(self, threshold: float) -> list[EdgeStrength]:
        """The averaged network at another threshold (e.g. a slider's)."""
        return averaged_network(self.edges, self.names, check_threshold(threshold))

    @property
    def warnings(self) -> list[str]:
        """The distinct warnings the replicates raised."""
        return sorted({w for o in self.outcomes + self.failures for w in o.warnings})

    def failure_summary(self, limit: int = 3) -> str:
        """'3 of 100 replicates failed: replicate 7: ...; replicate 9: ...' ('' when none failed)."""
        if not self.failures:
            return ""
        n = len(self.failures)
        total = n + self.replicates
        shown = first_few([f"replicate {o.index}: {o.error}" for o in self.failures], limit, sep="; ")
        return f"{n} of {total} replicate{'s' if total != 1 else ''} failed: {shown}"

    def edges_frame(self) -> pd.DataFrame:
        """Edges as a table: parent, child, strength, direction, averaged (in the averaged network)."""
        avg = {(e.parent, e.child) for e in self.averaged}
        return pd.DataFrame(
            [(e.parent, e.child, e.strength, e.direction, (e.parent, e.child) in avg) for e in self.edges],
            columns=["parent", "child", "strength", "direction", "averaged"],
        )

    def regulators_frame(self) -> pd.DataFrame:
        """One row per (regulator, child): regulator, support, child, frequency, in_core."""
        rows = [
            (r.name, r.support, child, freq, child in r.core)
            for r in self.regulators or []
            for child, freq in r.children.items()
        ]
        return pd.DataFrame(rows, columns=["regulator", "support", "child", "frequency", "in_core"])

    def to_dict(self) -> dict:
        """The JSON result (see the module docstring)."""
        out = {
            "replicates": self.replicates,
            "requested": self.requested,
            "threshold": self.threshold,
            "threshold_method": self.threshold_method,
            "edges": [e.to_dict() for e in self.edges],
            "averaged": [e.to_dict() for e in self.averaged],
        }
        if self.regulators is not None:
            out["hidden"] = [r.to_dict() for r in self.regulators]
            out["hidden_matching"] = f"children sets, Jaccard >= {MIN_JACCARD}"
        out["failed"] = [{"replicate": o.index, "error": o.error} for o in self.failures]
        out["stopped"] = self.stopped
        out["warnings"] = self.warnings
        out["settings"] = self.settings
        out["stats"] = self.stats
        return out

"""Hidden regulators across bootstrap replicates: matching by children sets, support, membership.

With ``hidden="auto"`` every replicate may add hidden variables (JMLR 2007 section 9.2). Their names
(H1, H2, ...) mean nothing across replicates, so a hidden variable is identified by its observed
children: two hidden variables are the same regulator when the Jaccard similarity of their
children sets, ``|A & B| / |A | B|``, is at least :data:`MIN_JACCARD` (decisions.md).

Matching (deterministic, replicates in index order, so the same whatever order they finished in):
each regulator has a reference children set, its *core*: the children found in at least half of
the hidden variables matched to it so far (the first one's children to begin with). A replicate's
hidden variables are matched one-to-one to regulators, best Jaccard first, when the Jaccard with a
core is >= 0.5; an unmatched one founds a new regulator. Cores change as members join, so a regulator
founded early (its first children set broad) can miss hidden variables of later replicates that its
final core matches: at the end a regulator is merged into one at least as large when every hidden
variable of it has Jaccard >= 0.5 with that one's final core and they share no replicate (#22 CLI review: a
40-gene module read as three regulators over 6 replicates, supports 0.67, 0.17 and 0.17, the two small
ones at Jaccard 0.64 and 0.54 with the big one's final core). Then:

* ``support`` = share of the replicates that have the regulator (Friedman et al. 1999's feature
  confidence, with the feature "a hidden parent of about these children");
* a child's ``frequency`` = share of the regulator's replicates in which it is one of its children
  (conditional on the regulator, as bnlearn's ``direction`` is conditional on ``strength``).

Assumes each replicate's hidden variables have distinct, non-empty children sets of observed names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["MIN_JACCARD", "RegulatorSupport", "match_regulators", "jaccard"]

#: two hidden variables are one regulator when their children sets overlap at least this much
MIN_JACCARD = 0.5


def jaccard(a: frozenset, b: frozenset) -> float:
    """``|a & b| / |a | b|`` (0 for two empty sets)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


@dataclass
class RegulatorSupport:
    """A hidden regulator as seen across replicates."""

    name: str
    support: float
    core: list[str]
    children: dict[str, float]  # child -> membership frequency
    replicates: list[int] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "support": self.support,
            "n_replicates": len(self.replicates),
            "core": list(self.core),
            "children": [{"child": c, "frequency": f} for c, f in self.children.items()],
        }


@dataclass
class _Cluster:
    core: frozenset
    members: list[tuple[int, frozenset]] = field(default_factory=list)

    def add(self, replicate: int, children: frozenset) -> None:
        self.members.append((replicate, children))
        counts = Counter(c for _, kids in self.members for c in kids)
        core = frozenset(c for c, n in counts.items() if 2 * n >= len(self.members))
        self.core = core or self.core


def match_regulators(
    hidden_by_replicate: Sequence[tuple[int, Sequence[Sequence[str]]]],
    n_replicates: int,
    names: Sequence[str] = (),
    min_jaccard: float = MIN_JACCARD,
) -> list[RegulatorSupport]:
    """Match hidden variables across replicates and measure each regulator's support.

    Parameters
    ----------
    hidden_by_replicate : sequence of (replicate index, [children of each hidden variable])
        One entry per successful replicate (those without hidden variables too).
    n_replicates : int
        The support's denominator (successful replicates).
    names : sequence of str
        Variable order for listing children (ties in frequency); alphabetical when empty.

    Returns
    -------
    list of RegulatorSupport
        Most supported first, named ``R1``, ``R2``, ... in that order.
    """
    clusters: list[_Cluster] = []
    for rep, hidden in sorted(hidden_by_replicate, key=lambda item: item[0]):
        sets = [frozenset(map(str, kids)) for kids in hidden if len(kids)]
        pairs = sorted(
            ((jaccard(s, c.core), -i, -j) for i, s in enumerate(sets) for j, c in enumerate(clusters)),
            reverse=True,
        )
        used_h: set[int] = set()
        used_c: set[int] = set()
        for score, mi, mj in pairs:
            i, j = -mi, -mj
            if score < min_jaccard:
                break
            if i in used_h or j in used_c:
                continue
            used_h.add(i)
            used_c.add(j)
            clusters[j].add(rep, sets[i])
        for i, s in enumerate(sets):
            if i not in used_h:
                clusters.append(_Cluster(core=s))
                clusters[-1].add(rep, s)
    _consolidate(clusters, min_jaccard)
    order = {n: k for k, n in enumerate(names)}

    def child_key(item):
        child, freq = item
        return (-freq, order.get(child, len(order)), child)

    out = []
    for c in clusters:
        reps = sorted({r for r, _ in c.members})
        counts = Counter(ch for _, kids in c.members for ch in kids)
        freqs = dict(sorted(((ch, n / len(c.members)) for ch, n in counts.items()), key=child_key))
        core = sorted(c.core, key=lambda ch: (order.get(ch, len(order)), ch))
        support = len(reps) / n_replicates if n_replicates else 0.0
        out.append(RegulatorSupport("", support, core, freqs, reps))
    out.sort(key=lambda r: (-r.support, r.replicates[0] if r.replicates else 0))
    for k, r in enumerate(out, 1):
        r.name = f"R{k}"
    return out


def _consolidate(clusters: list[_Cluster], min_jaccard: float) -> None:
    """Merge, in place, a regulator into one at least as large (as many hidden variables or more;
    the largest, then the first founded, tried first) whose final core every one of its hidden
    variables matches (Jaccard >= ``min_jaccard``), when the two share no replicate; repeated until
    no merge is left (see the module docstring)."""
    merged = True
    while merged:
        merged = False
        ranked = sorted(range(len(clusters)), key=lambda k: (-len(clusters[k].members), k))
        for big in ranked:
            reps = {r for r, _ in clusters[big].members}
            for small in ranked:
                c = clusters[small]
                if small == big or len(c.members) > len(clusters[big].members) or reps & {r for r, _ in c.members}:
                    continue
                if all(jaccard(kids, clusters[big].core) >= min_jaccard for _, kids in c.members):
                    for rep, kids in c.members:
                        clusters[big].add(rep, kids)
                    del clusters[small]
                    merged = True
                    break
            if merged:
                break

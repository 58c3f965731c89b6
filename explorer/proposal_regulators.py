"""The listed regulator that tracks a hidden-variable proposal best, in words, for the Hidden
variables page (#22): with a regulator list, the biologist's next question about a proposed hidden
regulator H is which listed transcription factor could drive it (``H <- TF``, a parent structural
EM may give H after Accept) or already is the members' regulator (a listed member).

The engine answers (:func:`engine.hidden.tracking.best_tracking`, the regulator report's
``explained_by`` too): the Pearson correlation of z* (the proposal's profile) with each listed
regulator's values, signed; nothing is refitted. The best one is offered as H's parent only above
:func:`~engine.hidden.tracking.chance_corr`, the |r| a Bonferroni-corrected two-sided 5% test over
the R regulators needs (128 regulators, 27 conditions: the best |r| is about 0.5 by chance alone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine.hidden.activity import MIN_SHARE, MIN_SHARED
from engine.hidden.correlation import column_corr
from engine.hidden.tracking import best_tracking, chance_corr, listed_in_data
from engine.io.regulators import resolve_regulators

__all__ = ["listed_text", "parent_text", "regulon_text"]


def listed_text(prop, values: np.ndarray, names: Sequence[str], regulators: Sequence[str] | None) -> str:
    """ " Of the R listed regulators, **X** tracks z* best (correlation +0.xx): ..." for ``prop``
    (a :class:`engine.hidden.ClusterProposal`); "" without a list, or when ``prop.explained_by``
    already is that regulator (the carrier's sentence names it)."""
    if not regulators:
        return ""
    name, r = best_tracking(prop.profile, values, names, regulators)
    if name is None or name == prop.explained_by:
        return ""
    n = len(listed_in_data(regulators, names))
    chance = chance_corr(n, len(prop.profile))
    if abs(r) < chance:
        return (
            f" No listed regulator tracks z* beyond chance (best: **{name}**, correlation {r:+.2f}; with "
            f"{len(prop.profile)} instances and {n} regulators, |r| ≥ {chance:.2f} passes a Bonferroni-corrected "
            "5% test): "
            + (
                # a profile resting on one or two conditions: the warning below reads it (newcomer walk, session 19)
                "for this proposal, whose profile rests on one or two conditions, more likely those conditions than "
                "a regulator (the warning below)."
                if prop.flagged
                else "H would be a regulator not on the list, or a listed one whose mRNA does not show its activity "
                "(a regulator controlled after translation, by a ligand or a modification)."
            )
        )
    head = f" Of the {n} listed regulator{'s' if n != 1 else ''}, **{name}**"
    if name in prop.names:
        return (
            f"{head} (a member) tracks z* best (correlation {r:+.2f}): it may be the members' regulator itself; "
            "compare Accept's realized change."
        )
    return (
        f"{head} tracks z* best (correlation {r:+.2f}): if H is added, structural EM may make it H's parent "
        f"(H ← {name})."
    )


def parent_text(
    prop, parents_of: Callable[[int], Sequence[int]], names: Sequence[str], regulators: Sequence[str] | None
) -> str:
    """ " **X** is already a parent of k of the n members: ..." when a listed regulator is a parent of at
    least half of ``prop``'s members in the current network (``parents_of``: a member's parent indices, the
    stepper's) and of at least 5: the bounds of the report's activity reading
    (:data:`engine.hidden.activity.MIN_SHARE`, :data:`~engine.hidden.activity.MIN_SHARED`); ""
    otherwise or without a list. z* is what the members' current parents leave unexplained, so such a
    regulator does not track it (:func:`listed_text` says "no listed regulator tracks z*"), yet the
    proposal may be its activity beyond its measured level, which the report reads after Accept
    (``engine/hidden/activity.py``; newcomer walk, session 25: TF003 a parent of 25 of 26 members, named
    only after Accept)."""
    found = set(listed_in_data(regulators, names))
    if not found:
        return ""
    gone = {tuple(e) for e in getattr(prop, "removed_edges", ())}
    count: dict[str, int] = {}
    for c in prop.members:
        for p in parents_of(int(c)):
            if not 0 <= p < len(names):  # an accepted hidden variable, not a listed regulator
                continue
            x = str(names[p])
            if x in found and (x, str(names[c])) not in gone:
                count[x] = count.get(x, 0) + 1
    if not count:
        return ""
    best = max(count, key=lambda x: (count[x], x))
    k, n = count[best], len(prop.members)
    if k < MIN_SHARED or k < MIN_SHARE * n:
        return ""
    return (
        f" **{best}** is already a parent of {k} of the {n} members: z* is what its measured level leaves in "
        f"them, so H may be the part of {best}'s activity its level misses, or a separate regulator for which "
        f"{best} stands in; after Accept the report compares their coefficients."
    )


def regulon_text(
    set_names: Sequence[str],
    profile: np.ndarray,
    values: np.ndarray,
    names: Sequence[str],
    regulators: Sequence[str] | None,
) -> str:
    """The listed regulators whose known targets (a gene set named after them, e.g. ``regulon:YLR403W``
    or ``YLR403W``: the name after the last ``:``, matched as regulator names are) are enriched among a
    proposal's members, each with its correlation with z* (``profile``), and whether one tracks z*
    beyond chance (:func:`chance_corr`); "" when no enriched set names a listed, measured regulator."""
    found = listed_in_data(regulators, names)
    if not found:
        return ""
    hits: dict[str, str] = {}  # regulator -> the set that names it
    for name in set_names:
        for candidate in dict.fromkeys((name, name.rsplit(":", 1)[-1].strip())):
            match = resolve_regulators([candidate], found)[0]
            if match and match[0] not in hits:
                hits[match[0]] = name
                break
    if not hits:
        return ""
    index = {n: j for j, n in enumerate(names)}
    corr = column_corr(np.asarray(profile, dtype=float), np.asarray(values, dtype=float)[:, [index[r] for r in hits]])
    parts = [
        f"{r} ({s}; correlation with z* {c:+.2f})" if i == 0 else f"{r} ({s}; {c:+.2f})"
        for i, ((r, s), c) in enumerate(zip(hits.items(), corr, strict=True))
    ]
    chance = chance_corr(len(found), len(profile))
    bound = f"(|r| ≥ {chance:.2f} with {len(profile)} instances and {len(found)} regulators)"
    tracking = [r for r, c in zip(hits, corr, strict=True) if abs(c) >= chance]
    one = len(hits) == 1
    head = (
        f" The regulator{'' if one else 's'} of {len(hits)} of these sets {'is' if one else 'are'} on your list: "
        + ", ".join(parts)
        + ". "
    )
    if tracking:
        return (
            head
            + f"{', '.join(tracking)} {'tracks' if len(tracking) == 1 else 'track'} z* beyond chance {bound}: "
            + (
                "it may be the members' regulator itself."
                if len(tracking) == 1
                else "they may be the members' regulators."
            )
        )
    return (
        head + f"None tracks z* beyond chance {bound}: H may stand for their activity, which their mRNA does not show."
    )

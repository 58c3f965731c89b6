"""What :meth:`HiddenSearch.auto <engine.hidden.search.HiddenSearch.auto>` considered, for the
person watching it: the proposals it set aside because one or two conditions make their profile,
and one line before each proposal it tries.

A proposal is *flagged* when one or two instances hold most of its profile z*'s energy
(:mod:`.leverage`, #22): a condition several standard deviations off in many genes (a failed
array, a treatment applied once) gives such a z*, and the automatic search never tries it. That
is worth telling a biologist, since the odd condition itself is a finding about the data; the
leverage and the instances come from :func:`~.leverage.profile_leverage`, computed when the
proposal was made (``ClusterProposal.leverage`` and ``high_leverage``), not here.

Progress: structural EM on one proposal can take minutes on thousands of genes, so the search
says which proposal it starts on before it runs (``trying proposal 2: 44 variables ...``).

The last round's trying order is kept (``order``), so that when the search stops it can say why and,
at ``max_hidden``, which proposals of that order it left untried (:mod:`.untried`, ``stop``).

**One operon** (:data:`OPERON_SET_ASIDE`, session 21): on a bacterial table whose names are locus tags, a
proposal whose members are mostly one run of adjacent genes (:mod:`.operon`: at least three and half of
them) is set aside too, and a kept H whose children read so is given back (:meth:`Considered.refused`).
Genes of one operon share one transcript, so with a regulator list (genes are not each other's parents)
every multi-gene operon is a tight cluster of ideal profiles and pays as an H; on the ``h19m`` hold-out
(a bacterial compendium) operons took 13 of the 30 kept Hs and, with the array bias, the three slots of
``--max-hidden 3`` before the removed regulator's module was tried; on *B. subtilis* 5 of the first 10
proposals are one operon, ahead of SigD's set. An H on one operon's genes is its transcript, not a
regulator a biologist can vet; the reading names it, and the result lists the set-aside proposals with
their run (``operon``), so a person can still accept one on the Hidden page.

On/off steps tried: the step source (:mod:`.onoff`) hands on one step a round, found afresh on each
round's network, so a step that did not pay would come back (the same conditions, mostly the same
genes) and no other step would be tried. Each step announced is remembered (:meth:`tried_steps`);
with :data:`~.onoff.REMEMBER_TRIED` (measured, off) the source hands on the next-best instead
(:func:`~.onoff.repeats`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..listing import first_few
from .operon import LocusIndex, OperonRun, locus_index, one_operon, operon_text
from .proposals import ClusterProposal
from .untried import AutoStop, proposal_record, stop_record

__all__ = ["Considered", "OPERON_SET_ASIDE", "SHOWN_NAMES", "last_outcome"]

#: names listed in one progress line before "... and N more"
SHOWN_NAMES = 8

#: set aside a proposal whose members are mostly one operon, and give back a kept H whose children are
#: (:mod:`.operon`; only on tables whose names are locus tags)
OPERON_SET_ASIDE = True


class Considered:
    """The flagged proposals a hidden-variable search set aside, and the count of proposals tried.

    Attributes
    ----------
    flagged : dict of frozenset -> ClusterProposal
        Every flagged proposal seen, once each (by its member set), in the order first seen.
    n_tried : int
        Proposals announced as tried (one per :meth:`announce` with a non-empty list).
    say : callable or None
        Where the progress line goes (the search's ``progress``; None: nowhere).
    order : list of ClusterProposal or None
        The last round's trying order (None: no round yet).
    stop : AutoStop or None
        Why the search stopped, and what it left untried at ``max_hidden`` (:meth:`stopped`; None: not yet).
    steps : dict of frozenset -> (frozenset of str, ndarray)
        Every on/off step announced (by its member set): its conditions' names and its members
        (variable indices), for :meth:`tried_steps`.
    operons : dict of frozenset -> OperonRun
        The proposals of :attr:`flagged` set aside as one operon (by member set), with their run.
    tags : LocusIndex or None
        The table's locus tags (:func:`~.operon.locus_index`, set by :meth:`start`; None: not locus tags,
        or :data:`OPERON_SET_ASIDE` off).
    """

    def __init__(self) -> None:
        self.flagged: dict[frozenset, ClusterProposal] = {}
        self.n_tried = 0
        self.say: Callable[[str], None] | None = None
        self.order: list[ClusterProposal] | None = None
        self.stop: AutoStop | None = None
        self.steps: dict[frozenset, tuple[frozenset, np.ndarray]] = {}
        self.operons: dict[frozenset, OperonRun] = {}
        self.tags: LocusIndex | None = None
        self.names: list[str] = []

    def start(self, progress: Callable[[str], None] | None, names: list[str]) -> Callable[[str], None]:
        """Begin a search over the observed variables ``names``: progress lines go to ``progress``
        (returned, a no-op when None) and the table's locus tags are read once (:data:`OPERON_SET_ASIDE`)."""
        self.say = progress or (lambda msg: None)
        self.names = list(names)
        self.tags = locus_index(self.names) if OPERON_SET_ASIDE else None
        return self.say

    def operon(self, members) -> OperonRun | None:
        """The run of adjacent locus tags that makes ``members`` (observed variables' indices; hidden ones
        are skipped) one operon (:func:`~.operon.operon_run`, flagged), else None."""
        return None if self.tags is None else one_operon(members, self.names, self.tags)

    def refused(self, name: str, few: bool, children: list[str]) -> str | None:
        """Why a hidden variable ``auto`` has just kept must be given back, else None: it rests on one or two
        instances (``few``: #22 item 3, :func:`.few_instances.rests_on_few`), or its ``children`` are mostly
        one operon."""
        if few:
            return f"{name} rests on one or two instances, so it is not kept"
        index = {n: i for i, n in enumerate(self.names)}
        run = self.operon([index[c] for c in children if c in index])
        if run is not None:
            return f"{operon_text(run.to_dict(), name)}, so it is not kept"
        return None

    def set_aside(self, proposals: list[ClusterProposal]) -> list[ClusterProposal]:
        """The unflagged ``proposals`` (in order); the flagged ones are recorded in :attr:`flagged`,
        and the first one flagged by a condition (or pair) is said, a two-condition program's (:mod:`.onoff`) first."""
        for p in sorted(proposals, key=lambda p: p.step_conditions != p.high_leverage):
            if p.flagged and p.key not in self.flagged:
                said = {tuple(q.high_leverage) for q in self.flagged.values()}
                self.flagged[p.key] = p
                if self.say is not None and tuple(p.high_leverage) not in said:  # once per odd condition
                    where = " and ".join(repr(c) for c in p.high_leverage)
                    self.say(
                        f"set aside a program on in {where} only, of {_members(p)}: "
                        "its evidence is two conditions, so it is not tried"
                        if p.step_conditions == p.high_leverage
                        else f"set aside a proposal of {_members(p)}: {where} "
                        f"{'holds' if len(p.high_leverage) == 1 else 'hold'} most of its profile's energy "
                        f"(leverage {p.leverage:.2f}), so it is not tried"
                    )
        for p in proposals:
            if not p.flagged and p.key not in self.operons and (run := self.operon(p.members)) is not None:
                self.flagged[p.key], self.operons[p.key] = p, run
                if self.say is not None:
                    self.say(
                        f"set aside a proposal of {_members(p)}: {run.n_run} of them are adjacent genes "
                        f"{run.first}-{run.last}, likely one operon (co-transcribed), so it is not tried"
                    )
        return [p for p in proposals if not p.flagged and p.key not in self.operons]

    def announce(self, candidates: list[ClusterProposal]) -> list[ClusterProposal]:
        """Say that the first of ``candidates`` (the order the search tries them in) is tried
        next, with its size, members, estimate and how many wait behind it; returns ``candidates``
        (kept as :attr:`order`)."""
        self.order = list(candidates)
        if candidates:
            self.n_tried += 1
            p = candidates[0]
            if p.step_conditions:  # an on/off step (:mod:`.onoff`): remembered for tried_steps
                self.steps[p.key] = (frozenset(p.step_conditions), np.asarray(p.members, dtype=np.intp))
            if self.say is not None:
                self.say(
                    f"trying proposal {self.n_tried}: {_members(p)}, "
                    f"{p.source}{' in ' + ', '.join(p.step_conditions) if p.step_conditions else ''}, "
                    f"estimated gain {p.estimated_gain:+.2f}; {len(candidates) - 1} more in line"
                )
        return candidates

    def stopped(self, hidden: list, tried: set[frozenset], max_hidden: int) -> AutoStop:
        """Record (:attr:`stop`) and return why the search stopped with ``hidden`` kept, and at ``max_hidden``
        which proposals of the last :attr:`order` it did not try (``tried``: the keys it tried or refused)."""
        self.stop = stop_record(self.order, tried, hidden, max_hidden)
        return self.stop

    def to_json(self) -> dict:
        """The result's ``flagged_proposals`` (:meth:`to_list`) and, when the search stopped at ``max_hidden``,
        ``untried_proposals`` (:meth:`.untried.AutoStop.to_dict`)."""
        at_limit = self.stop is not None and self.stop.at_limit
        return {"flagged_proposals": self.to_list(), **({"untried_proposals": self.stop.to_dict()} if at_limit else {})}

    def tried_steps(self, tried: set[frozenset]) -> list[tuple[frozenset, np.ndarray]]:
        """The on/off steps announced whose member set is in ``tried`` (the keys ``auto`` tried:
        kept or set aside), as :func:`~.onoff.handed_on` reads them (condition names, members)."""
        return [s for key, s in self.steps.items() if key in tried]

    def to_list(self) -> list[dict]:
        """The set-aside proposals for the JSON, as :func:`.untried.proposal_record` lists a proposal
        (members, their number, source, estimated gain, ``leverage``, ``flagged_instances``, ``step_conditions``),
        with ``operon``: the run of adjacent genes that set it aside (:mod:`.operon`), None when set aside by
        its leverage."""
        runs = {k: r.to_dict() for k, r in self.operons.items()}
        return [{**proposal_record(p), "operon": runs.get(k)} for k, p in self.flagged.items()]


def _members(p: ClusterProposal) -> str:
    """``12 variables (a, b, ..., ... and 4 more)``: a proposal's size and its first members."""
    return f"{len(p.names)} variables ({first_few(p.names, SHOWN_NAMES, ellipsis=True)})"


def last_outcome(lines: list[str]) -> str | None:
    """The last outcome among the lines :meth:`HiddenSearch.auto <.search.HiddenSearch.auto>` said
    (``hidden_log_``): why a proposal was not kept, or why nothing was proposed; the opening line
    (the network without hidden variables), ``"stopped"`` and the progress lines (``trying ...``,
    ``set aside ...``) are not outcomes. None when nothing was said after the opening line. What
    ``learn`` and the Hidden page's automatic run say when no hidden variable was added."""
    said = ("trying ", "set aside ")
    reasons = [line for line in lines[1:] if line != "stopped" and not line.startswith(said)]
    return reasons[-1] if reasons else None

"""Leaving out the condition(s) a flagged proposal rests on (a data edit, #22 item 3).

A proposal whose profile z* draws most of its energy from one or two instances is flagged with their
names (:mod:`engine.hidden.leverage`): a failed array, a one-off treatment. Reading the flag, a biologist's
next step is to drop that array and search again. :func:`leave_out` does it as an undoable data edit
(:class:`LeaveOut`), with a new search on the remaining instances, as a Transpose or "Name genes by" does
(:func:`explorer.actions.transpose_data`, :func:`explorer.gene_names.name_genes`); the file and the values
as loaded are unchanged, and the export's rerun notes say how the CLI leaves them out (``--drop`` with
their labels, in either orientation). The Hidden page offers it under a flagged proposal
(:func:`offer`); keys start with ``ip_leaveout_``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import streamlit as st

from engine.exceptions import IdealParentError
from explorer.actions import DataState, edit_data
from explorer.long_action import run_data_edit
from explorer.session import SearchSession

__all__ = ["LEFT_OUT", "LeaveOut", "leave_out", "offer"]

#: how the data's note on the edit begins (the export's rerun notes read it)
LEFT_OUT = "left out in the explorer: instance(s) "


@dataclass(frozen=True)
class LeaveOut:
    """Instances left out of the data (a data edit); keeps the data and search from before."""

    previous: DataState
    labels: tuple[str, ...]

    def undo(self, session: SearchSession) -> str:
        session.set_data(self.previous)
        d = self.previous.dataset
        return f"{', '.join(self.labels)} back in the data: {d.n_samples} instances x {d.n_vars} variables again."


def leave_out(session: SearchSession, labels: Sequence[str], progress=None) -> str:
    """The session's data as loaded without the instances named ``labels``, with a new search on them (the
    same settings, regulator list, orientation and fill); the edit goes on the undo stack. Raises
    :class:`~engine.exceptions.IdealParentError` when no instance has such a name or the engine refuses
    what is left (nothing changes)."""
    loaded = session.prepared.loaded
    names = [str(x) for x in labels]
    drop = set(names)
    keep = np.array([str(x) not in drop for x in loaded.instance_labels or ()], dtype=bool)
    if keep.all():  # no instance labels, or none of them named
        raise IdealParentError(f"no instance of the data is named {', '.join(names)}.")
    data = dataclasses.replace(loaded.subset(keep), notes=(*loaded.notes, LEFT_OUT + ", ".join(names)))
    edited = edit_data(session, data, session.regulators, lambda previous: LeaveOut(previous, tuple(names)), progress)
    d = edited.dataset
    return (
        f"Left out {', '.join(names)}: {d.n_samples} instances x {d.n_vars} variables, with a new search on them "
        "(run it again, then propose). Undo (Search page) takes it back."
    )


def offer(session: SearchSession, labels: Sequence[str]) -> None:
    """Under a proposal flagged by ``labels`` (one or two instances): a button leaving them out."""
    if st.button(
        f"Leave out {' and '.join(labels)} and search again",
        key="ip_leaveout_button",
        help="A failed array or a one-off condition: the data without it, a new search on them (undoable). The "
        "file is not changed.",
    ):
        run_data_edit(f"Leaving out {' and '.join(labels)}…", "Not left out", lambda: leave_out(session, labels))

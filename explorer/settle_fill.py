"""Keep the orientation of data that look the wrong way round, and fill their missing cells in it.

Data that look transposed are not completed on loading (:mod:`explorer.prepared`: their cells are
held at the variables' means until the orientation is settled). A Transpose settles it one way
(:func:`explorer.actions.transpose_data`); this settles it the other: the person says the data are
the right way round after all, and the cells are filled by structural EM (JMLR 2007 section 6) in
this orientation (or, above :data:`explorer.fill_choice.QUICK_FILL_ABOVE` variables, by the quick
fill), with a new search on the completed data. Like a Transpose it is a data edit on the
undo stack (:class:`KeepOrientation`): Undo brings back the held cells and the search on them, so
that an action before it (a Step, an Accept on the held data) is never undone on the filled data.
:func:`switch_fill` fills the cells of settled data the other way (:mod:`explorer.fill_choice`), a
data edit too (:class:`SwitchFill`). Nothing here imports Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from explorer.actions import DataState, searched_data
from explorer.fill_choice import FILL_NAMES, fill_of

if TYPE_CHECKING:
    from explorer.session import SearchSession

__all__ = ["KeepOrientation", "keep_orientation", "SwitchFill", "switch_fill"]


@dataclass(frozen=True)
class KeepOrientation:
    """The orientation kept and the held cells filled (a data edit); keeps the data and search from before."""

    previous: DataState

    def undo(self, session: SearchSession) -> str:
        session.set_data(self.previous)
        return "The missing cells are held at their columns' means again, until the orientation is settled."


def _refill(session: SearchSession, edit, progress=None, fill: str | None = None):
    """The data as loaded, their missing cells filled (``fill``, or the default) and a new search on
    them with the same settings and regulators, set on ``session`` with ``edit(previous)`` pushed on
    the undo stack; returns the new data state."""
    previous = session.data_state()
    new = searched_data(
        session,
        session.prepared.loaded,
        session.regulators,
        transposed=session.transposed,
        truth=session.truth,
        progress=progress,
        settled=True,
        fill=fill,
    )
    session.set_data(new)
    session.push(edit(previous))
    return new


def keep_orientation(session: SearchSession, progress=None) -> str:
    """Fill the held cells of ``session``'s data as loaded (structural EM or the quick fill, told
    ``progress``) and start a search on them with the same settings and regulators; the edit goes on
    the undo stack.
    Returns what was done. Raises :class:`~engine.exceptions.IdealParentError` when the engine
    refuses (nothing changes then)."""
    new = _refill(session, KeepOrientation, progress)
    n, how = new.prepared.completion.n_missing, FILL_NAMES[fill_of(new.prepared.completion)]
    return f"Kept as loaded: {n} missing cell(s) filled by {how}, and a new search started on them. Undo takes it back."


@dataclass(frozen=True)
class SwitchFill:
    """The missing cells filled the other way (a data edit); keeps the data and search from before."""

    previous: DataState

    def undo(self, session: SearchSession) -> str:
        session.set_data(self.previous)
        return f"The missing cells are filled by {FILL_NAMES[fill_of(self.previous.prepared.completion)]} again."


def switch_fill(session: SearchSession, progress=None) -> str:
    """Fill the missing cells of ``session``'s data as loaded by the other fill (told ``progress``)
    and start a new search on them with the same settings and regulators; the edit goes on the
    undo stack. Returns what was done. Raises :class:`~engine.exceptions.IdealParentError` when the
    engine refuses (nothing changes then)."""
    other = "em" if fill_of(session.prepared.completion) == "quick" else "quick"
    new = _refill(session, SwitchFill, progress, fill=other)
    c = new.prepared.completion
    return (
        f"{c.n_missing} missing cell(s) filled by {FILL_NAMES[other]} in {c.seconds:.1f} s, and a new search "
        "started on them. Undo takes it back."
    )

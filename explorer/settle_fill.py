"""Keep the orientation of data that look the wrong way round, and fill their missing cells in it.

Data that look transposed are not completed on loading (:mod:`explorer.prepared`: their cells are
held at the variables' means until the orientation is settled). A Transpose settles it one way
(:func:`explorer.actions.transpose_data`); this settles it the other: the person says the data are
the right way round after all, and the cells are filled by structural EM (JMLR 2007 section 6) in
this orientation, with a new search on the completed data. Nothing here imports Streamlit.
"""

from __future__ import annotations

from engine.learn import IdealParentSearch
from explorer.actions import DataState
from explorer.prepared import prepare
from explorer.track import SearchTrack

__all__ = ["keep_orientation"]


def keep_orientation(session, progress=None) -> str:
    """Fill the held cells of ``session``'s data as loaded by structural EM (told ``progress``) and
    start a search on them with the same settings and regulators; returns what was done. Raises
    :class:`~engine.exceptions.IdealParentError` when the engine refuses (nothing changes then)."""
    prepared = prepare(session.prepared.loaded, session.settings, session.regulators, progress, settled=True)
    dataset = prepared.searched
    stepper = IdealParentSearch(**session.settings.to_dict(), regulators=session.regulators).make_stepper(dataset)
    stepper.refresh()
    track, regs, turned = SearchTrack(stepper), session.regulators, session.transposed
    session.set_data(DataState(dataset, session.truth, None, track, None, frozenset(), turned, prepared, regs))
    n = prepared.completion.n_missing
    return f"Kept as loaded: {n} missing cell(s) filled by structural EM, and a new search started on them."

"""The Hidden page's automatic run: ``--hidden auto`` from the current network (JMLR 2007 section 9.2), and,
after it, why it stopped in plain words: at the limit with proposals still in line, or because nothing more
paid (#22).

The run is :meth:`engine.hidden.HiddenSearch.auto` on a new search from the current observed network (the
CLI's protocol: proposals, trials, the keep rule); its result becomes the session's search, undoable as an
Accept is. The note reads what the engine recorded (``HiddenSearch.considered.stop``,
:mod:`engine.hidden.untried`): nothing is recomputed here. At ~270 conditions ``auto`` usually stops at its
limit with sets that would pay still untried (the removed FNR's and SigD's on the full real tables), so the
note says that the limit, not the data, ended the run.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import partial

import streamlit as st

from engine.hidden.considered import last_outcome
from engine.hidden.untried import AutoStop
from engine.listing import first_few
from explorer import actions
from explorer.long_action import run_stoppable

__all__ = ["KEY_AUTO", "KEY_AUTO_MAX", "NONE_KEPT", "auto_section", "run_auto", "search_first_box", "stop_note"]

#: how the message of a run that kept nothing starts (the page shows it as a warning, not a success)
NONE_KEPT = "Auto kept no hidden variable"
KEY_AUTO = "ip_hidden_auto"
KEY_AUTO_MAX = "ip_hidden_auto_max"
KEY_AUTO_STOP = "ip_hidden_auto_stop"
KEY_SEARCH_FIRST = "ip_hidden_search_first"
#: the search the last automatic run left (its note is shown while it is the session's)
KEY_AUTO_SEARCH = "ip_hidden_auto_search"


def operon_note(runs: Sequence) -> str:
    """What auto set aside as one operon each (``runs``: :class:`engine.hidden.operon.OperonRun`, from
    ``HiddenSearch.considered.operons``), in words; "" when nothing. Without it "no further proposal paid"
    read as if the one-operon proposals, estimated to pay, had been tried (newcomer walk, session 21)."""
    if not runs:
        return ""
    n = len(runs)
    spans = first_few([f"{r.first}-{r.last}" for r in runs], 4)
    return (
        f" It did not try {n} proposal{'s' if n != 1 else ''} whose members are mostly adjacent genes ({spans}): "
        f"likely one operon{' each' if n != 1 else ''} (co-transcribed), not a regulator. The list below "
        'shows such proposals after the others (status "one operon"); accept one by hand if you know a regulator '
        "of those genes beyond their shared transcript."
    )


def stop_note(stop: AutoStop | None, operons: Sequence = ()) -> str | None:
    """Why the automatic run stopped, in plain words (None before a run), with what it set aside as one
    operon (``operons``: :func:`operon_note`)."""
    if stop is None:
        return None
    return _why(stop) + operon_note(operons)


def _why(stop: AutoStop) -> str:
    """Why the automatic run stopped: nothing more paid, or its limit (and what was still in line)."""
    limit = f"the limit of {stop.max_hidden} hidden variable{'s' if stop.max_hidden != 1 else ''}"
    if not stop.at_limit:
        return (
            f"Auto stopped because no further proposal paid ({stop.n_hidden} kept): every proposal it tried "
            "after the last one kept left the observed-data score no better, or none was left to try."
        )
    if not stop.untried:
        return (
            f"Auto stopped at {limit}, not because nothing more paid; its last round had no other proposal in "
            "line. Raise the limit and run again to let it propose on the network it reached."
        )
    top = stop.largest
    n = len(stop.untried)
    shared = sum(1 for p in stop.untried if p.overlap)
    return (
        f"Auto stopped at {limit}, not because nothing more paid: {n} proposal{'s were' if n != 1 else ' was'} "
        f"still in line, untried ({stop.n_positive} estimated to pay with the rest of the network fixed; an "
        "estimate below zero can still pay once the edges around the set are re-learned). The largest has "
        f"{top.n_members:,} members ({first_few(top.top_members, 5)}), estimated {top.estimated_gain:+,.0f}. "
        + (f"{shared} of them share members with a kept hidden variable's children. " if shared else "")
        + "Raise the limit and run again to try them, or accept them one at a time from the list above "
        "(it is proposed on the current network, so their sets may differ a little)."
    )


def progress_text(line: str, width: int = 160) -> str:
    """An auto progress line for the bar, cut at a word with an ellipsis when longer than ``width``
    (newcomer walk, session 25: "1 more in l · 1 s elapsed", cut mid-word)."""
    return textwrap.shorten(line, width, placeholder=" …")


def run_auto(session, max_hidden: int, progress=None) -> str:
    """``auto`` from the session's current network (no hidden variable accepted yet); its result becomes
    the session's search (undoable) when it kept a hidden variable. Returns the message for the page."""
    say = progress or (lambda stage, fraction: None)
    hs = actions.hidden_search(session)
    lines: list[str] = []

    def told(line: str) -> None:
        lines.append(line)
        say(progress_text(line), min(0.05 + 0.9 * len(hs.hidden) / max(max_hidden, 1), 0.95))

    hs.auto(max_hidden, progress=told)
    if not hs.hidden:  # the last outcome said, as the CLI's "no hidden variable was added: ...", and what it
        # set aside as one operon (newcomer walk, session 25: "no cluster ... is left" beside two that pay)
        operons = operon_note(list(hs.considered.operons.values()))
        return f"{NONE_KEPT}: {last_outcome(lines) or 'nothing was proposed'}.{operons}"
    actions.install_hidden(session, hs, ", ".join(h.name for h in hs.hidden))
    kept = "; ".join(f"{h.name} ({len(h.children)} children, {h.realized_gain:+,.1f})" for h in hs.hidden)
    return f"Auto added {kept}. Undo takes them back."


def auto_section(session, message_key: str) -> None:
    """The automatic run's controls (before any Accept) and, while its search is the session's, its note."""
    hs = session.hidden
    ours = hs is not None and hs is st.session_state.get(KEY_AUTO_SEARCH)
    if ours and (note := stop_note(hs.considered.stop, list(hs.considered.operons.values()))):
        (st.warning if hs.considered.stop.at_limit and hs.considered.stop.untried else st.info)(note)
    if hs is not None and hs.hidden:
        return  # auto starts from a network without hidden variables
    # open while auto runs: its progress bar and Stop are inside (newcomer walk, session 25: the click's
    # rerun drew the section closed, the bar and Stop out of sight)
    running_now = bool(st.session_state.get(KEY_AUTO))
    with st.expander("Let auto add hidden variables (as `--hidden auto`)", expanded=running_now):
        st.caption(
            "Auto tries proposals in its own order on the network searched to convergence and keeps one only "
            "when the observed-data score improves; it stops when nothing more pays or at the limit below. "
            "On thousands of genes each try takes minutes."
        )
        limit = st.number_input("At most this many hidden variables", 1, 10, 3, key=KEY_AUTO_MAX)
        c1, c2, _ = st.columns([1, 1, 4])
        running = c1.button("Run auto", key=KEY_AUTO)
        if run_stoppable(c2, KEY_AUTO_STOP, message_key, "Auto", running, partial(run_auto, session, int(limit))):
            st.session_state[KEY_AUTO_SEARCH] = session.hidden  # its note is shown while it is the session's
            st.rerun()


def search_first_box(session) -> None:
    """The Hidden page before any search. Step 0: the ideal profiles are the raw variables, so
    proposals stand in for plain edges. After the search the page asks before proposing again:
    listing them at once would let an Accept clicked on the greyed-out list during the search
    accept a proposal of the new network unseen."""
    st.warning(
        "The network has not been searched yet (step 0). The ideal profiles are then the variables "
        "themselves, so a proposal here mostly stands in for edges the search would add, and its "
        "estimate is not a hidden variable's gain. Run the search first; proposals on the converged "
        "network look for what edges cannot explain."
    )
    if st.button("Run the search to convergence first", key=KEY_SEARCH_FIRST, type="primary"):
        with st.spinner("Searching to convergence...", show_time=True):
            session.start_run(None)
            while session.run_chunk(0.5):
                pass
        st.rerun()

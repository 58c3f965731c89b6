"""How long the Search page's last Step took: the search's own part and the page's.

A Step on a small network takes the search about a millisecond; the wait a person sees is the
page being drawn. :func:`timed_step` runs the Step button's action and notes the time and the
search's share (``Stepper.elapsed_s``); :func:`show` completes the record at the end of the
panel's run and writes one line under the counters. The browser's own drawing comes after and is
not measured (the server cannot see it). Session-state key: :data:`KEY`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from explorer import text

__all__ = ["KEY", "timed_step", "clear", "show"]

#: the record of the last Step click: when it started, the search's time, the app's total
KEY = "ip_search_step_timing"


def timed_step(session, action: Callable[[], None]) -> None:
    """Run the Step button's ``action`` and note when it started and the search's time in it."""
    t0, search_before = time.perf_counter(), session.stepper.elapsed_s
    action()
    st.session_state[KEY] = {"start": t0, "search": session.stepper.elapsed_s - search_before, "total": None}


def clear() -> None:
    """Forget the last Step's times (after Undo, Reset or a run they describe another page)."""
    st.session_state.pop(KEY, None)


def show(slot) -> None:
    """Write the last Step's times in ``slot``; the first call after the click fixes the total."""
    timing = st.session_state.get(KEY)
    if not timing:
        return
    if timing["total"] is None:  # the run right after the click: the page is drawn now
        timing["total"] = time.perf_counter() - timing["start"]
    page = max(timing["total"] - timing["search"], 0.0)
    slot.caption(
        f"Last Step: {text.duration(timing['total'])} in the app — the search {text.duration(timing['search'])}, "
        f"preparing the network, plots and log {text.duration(page)}. Your browser then draws them, which on a "
        "small network is most of the wait."
    )

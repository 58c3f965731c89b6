"""A long action's progress bar: its stage, where structural EM is, the seconds elapsed, and Stop.

Accept on the Hidden page runs structural EM two or three times over the whole network (seconds
on a 2,500-gene table, longer on a larger one), each run a structure search per iteration.
:func:`action_bar` draws one progress bar told the action's stages (``stage(text, fraction)``, as
:func:`explorer.actions.accept_hidden` calls it) and, within a stage, where the EM run is, every
second (:func:`engine.hidden.em_progress.reporting`: the iteration, the moves of its structure
search, its expected score), with the seconds elapsed.

How Stop works. The page draws its Stop button (:func:`stop_button`) enabled only in the run that
performs the action. A click asks Streamlit for a new run of the page, and Streamlit ends the
current one at its next element update: the bar is updated at least once a second while EM runs,
so the action ends within about a second, inside the engine. The action must keep nothing it
was building (Accept works on a copy of the model and installs it only at its end); the click's
callback leaves :data:`STOPPED` as the page's message. Each action's Stop names it ("Stop Accept",
"Stop Auto": the Hidden page has two). :func:`run_stoppable` is the whole pattern: the Stop button,
the bar around the action, its message, and an engine refusal shown as an error.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

from engine.exceptions import IdealParentError
from engine.hidden.em_progress import EMStatus, reporting
from explorer import state

__all__ = ["action_bar", "run_data_edit", "run_stoppable", "stop_button", "stopped", "STOPPED"]

#: the message after a Stop
STOPPED = "Stopped: {action} was cancelled before it finished; the network is as it was before."


def stopped(message: str) -> bool:
    """Whether ``message`` is :data:`STOPPED`, whichever action was stopped (the page shows it as a warning)."""
    head, tail = STOPPED.split("{action}")
    return message.startswith(head) and message.endswith(tail)


def _running(key: str) -> str:
    """The session-state key that says the action of the Stop button ``key`` is running."""
    return f"{key}__running"


@contextmanager
def action_bar(action: str, stop_key: str | None = None) -> Iterator[Callable[[str, float], None]]:
    """A progress bar for ``action`` (e.g. "Accept") while the block runs; yields ``stage(text,
    fraction)``. Structural EM runs in the block report to the bar every second. When the block
    ends (not stopped), the Stop button ``stop_key`` no longer applies: a click that comes too late
    says nothing."""
    bar = st.progress(0.0, text=f"{action}: starting…")
    start = time.perf_counter()
    now = {"stage": "starting", "fraction": 0.0, "em": ""}

    def draw() -> None:
        em = f" — structural EM {now['em']}" if now["em"] else ""
        elapsed = time.perf_counter() - start
        bar.progress(now["fraction"], text=f"{action}: {now['stage']}{em} · {elapsed:.0f} s elapsed")

    def stage(text: str, fraction: float) -> None:
        now.update(stage=text, fraction=min(max(float(fraction), 0.0), 1.0), em="")
        draw()

    def em(status: EMStatus) -> None:
        now["em"] = status.text
        draw()

    with reporting(em, every=1.0):
        yield stage
    if stop_key is not None:
        st.session_state[_running(stop_key)] = False
    bar.empty()


def stop_button(slot, key: str, message_key: str, action: str, running: bool) -> None:
    """Draw ``action``'s Stop button in ``slot`` (a column), enabled while it runs; a click while
    it runs leaves :data:`STOPPED` under ``message_key`` for the page to show."""

    def on_stop() -> None:
        if st.session_state.get(_running(key)):  # not when the action ended before the click came
            st.session_state[message_key] = STOPPED.format(action=action)

    st.session_state[_running(key)] = running

    slot.button(
        f"Stop {action}",
        key=key,
        on_click=on_stop,
        disabled=not running,
        help=f"Cancel {action} while it runs (it takes effect within about a second).",
    )


def run_stoppable(
    slot, key: str, message_key: str, action: str, running: bool, work: Callable[[Callable[[str, float], None]], str]
) -> bool:
    """``action``'s Stop button in ``slot`` (:func:`stop_button`) and, when ``running``, ``work(stage)``
    under its progress bar (:func:`action_bar`), its message left under ``message_key``. True when the
    action finished (the page reruns to show it); False when it did not run or the engine refused it
    (an :class:`~engine.exceptions.IdealParentError`, shown as an error: the session is unchanged)."""
    stop_button(slot, key, message_key, action, running)
    if not running:
        return False
    try:
        with action_bar(action, key) as stage:
            st.session_state[message_key] = work(stage)
    except IdealParentError as exc:
        st.error(str(exc))
        return False
    return True


def run_data_edit(spinner: str, refused: str, edit: Callable[[], str], *, clear_error: bool = False) -> None:
    """A button's data edit (one :func:`explorer.actions.edit_data`: Name genes by, Leave out, Use log2 CPM):
    ``edit()`` under a spinner, its message kept as the session's notice for the Search page, then a rerun;
    an engine refusal shown as ``refused: reason`` (nothing changed). ``clear_error``: the sidebar's
    message (``state.ERROR``) goes, for an edit that answers it."""
    try:
        with st.spinner(spinner):
            if clear_error:
                state.put(state.ERROR, None)
            notice = edit()
    except IdealParentError as exc:
        st.error(f"{refused}: {exc}")
        return
    state.session().notice = notice
    st.rerun()

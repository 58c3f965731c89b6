"""Search: step the structure search one move at a time and watch the network, log and score.

Everything that changes on a click lives in one ``@st.fragment`` (:func:`step_panel`), so Step /
Undo / Run redraw only this panel, not the sidebar.

How "Run to convergence" and "Stop" work
----------------------------------------
Streamlit runs one script run at a time per session and handles a click only between runs. A
long run is therefore cut into chunks of about 0.4 s of search (``SearchSession.run_chunk``, the
engine's one run loop in time slices). Each chunk
is one run of the panel: it draws the buttons (only Stop enabled), runs the chunk, draws the
progress, counters, score trace and log, and asks for another run of itself
(``st.rerun(scope="fragment")``). The panel draws the same elements in every run (the network
controls' slot stays, empty), so none from an earlier run lingers: a run that ends in a rerun
leaves stale elements on the page, and an empty move log from before the run stayed, faded, under
the live one. Between two chunks Streamlit handles pending clicks: the Stop
button's callback asks the run loop to stop, and the next chunk ends the run. So a
Stop takes effect at the end of the current chunk (within about half a second), never in the
middle of a move: every move is applied to the stepper, the log and the trace before anything is
drawn. (With Streamlit's default ``runner.fastReruns`` the click can also cut short the drawing
of the current chunk; the state is complete at that point, so nothing is lost.) The network
drawing is paused during a run and comes back when it ends (its controls, a search box of every
gene name and the sub-network's selection and layout, are not drawn meanwhile: at 4,217 genes they
cost more than the chunk's search); the move log shows its newest moves
and the score trace is thinned (:mod:`explorer.run_view`), so a chunk's drawing does not grow
with the moves made. Streamlit's own "Stop" in the
toolbar only halts the current script run; the search then waits, and the panel's Stop button
ends it.
"""

from __future__ import annotations

import streamlit as st

from engine.exceptions import IdealParentError
from engine.search import TERMINATION_MESSAGES
from explorer import (
    move_log,
    network_panel,
    network_view,
    plots,
    run_view,
    search_notes,
    state,
    step_timing,
    text,
)
from explorer.glossary import render_glossary
from explorer.missing_box import missing_box
from explorer.orientation_box import orientation_box
from explorer.pages import show_html

#: the prefix of the network controls' widget keys
NETWORK_KEYS = "w_search_net"


def _rerun_panel() -> None:
    """Run the panel again (only the fragment when this run is a fragment run)."""
    try:
        st.rerun(scope="fragment")
    except st.errors.StreamlitAPIException:
        st.rerun()


def _action(fn, *args) -> None:
    """Run a button's action in its callback (before the panel is drawn); an engine error is
    kept for the panel to show."""
    try:
        fn(*args)
    except IdealParentError as exc:
        state.put(state.ACTION_ERROR, str(exc))


def _on_compare() -> None:
    session = state.session()
    try:
        session.set_compare(bool(state.get(state.W_COMPARE)))
    except IdealParentError as exc:
        state.put(state.ACTION_ERROR, f"Comparison not started: {exc}")
        session.set_compare(False)


def _on_step() -> None:
    session = state.session()
    step_timing.timed_step(session, lambda: _action(session.step_click))


def _on_run_n() -> None:
    step_timing.clear()
    _action(state.session().start_run, int(state.get(state.W_N_STEPS) or 10))


def _on_run_all() -> None:
    step_timing.clear()
    _action(state.session().start_run, None)


def _on_undo() -> None:
    step_timing.clear()
    _action(state.session().undo)


def _on_reset() -> None:
    step_timing.clear()
    _action(state.session().reset)


def _on_stop() -> None:
    state.session().stop()


def _buttons() -> None:
    """The control row. Actions run in the buttons' callbacks, so the row is drawn after them."""
    session = state.session()
    running = session.running
    # a wrapping row: on a narrow window the buttons flow onto a second line instead of being cut
    # to "S..", "U.." as fixed columns would
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    row.button("Step", key=state.W_STEP, type="primary", disabled=running, on_click=_on_step)
    row.button("Run N steps", key=state.W_RUN_N, disabled=running, on_click=_on_run_n)
    row.number_input(
        "N", min_value=1, max_value=10000, value=10, step=1, key=state.W_N_STEPS, disabled=running, width=110
    )
    row.button("Run to convergence", key=state.W_RUN_ALL, disabled=running, on_click=_on_run_all)
    row.button("Stop", key=state.W_STOP, on_click=_on_stop, disabled=not running)
    row.button(
        "Undo",
        key=state.W_UNDO,
        disabled=running or not session.can_undo,
        on_click=_on_undo,
        help="Takes back the last step, or the last accepted hidden variable.",
    )
    row.button("Reset", key=state.W_RESET, disabled=running, on_click=_on_reset)
    error = state.get(state.ACTION_ERROR)
    if error:
        st.error(error)
        state.put(state.ACTION_ERROR, None)


def _progress() -> bool:
    """Run one chunk of the run in progress and draw its progress; True while it goes on."""
    session = state.session()
    run = session.run
    try:
        going = session.run_chunk(state.CHUNK_SECONDS)
    except IdealParentError as exc:
        session.abort_run()
        state.put(state.ACTION_ERROR, f"The run stopped: {exc}")
        return False
    if not going:
        return False
    done = session.stepper.n_iter - run.start_iter
    log = session.main.log
    total = run.n_steps
    if total:
        frac = min(1.0, run.loop.n_steps / total)
        text_ = f"Running: {done} of {total} steps"
    else:
        # no step count is known in advance: how far the gains have shrunk
        frac, text_ = search_notes.convergence_progress(done, log, session.score_label)
    st.progress(frac, text=text_)
    return True


def _counters():
    """The counter row; returns the slot under it where :func:`step_timing.show` writes the last
    Step's times once the panel is drawn."""
    session = state.session()
    stepper = session.stepper
    # a wrapping row: on a narrow window a metric moves to the next line instead of showing "-12,..."
    row = st.container(horizontal=True, horizontal_alignment="distribute", gap="medium")
    row.metric("Moves", stepper.n_iter, width="content")
    choice = stepper.score_choice
    row.metric(
        f"{session.score_label} (nats)",
        f"{stepper.score:,.1f}",
        width="content",
        help=text.score_help(choice.name, choice.reason),
    )
    shown = session.main.shown_work  # the network shown: the work of moves Undo took back left out
    work = " The work that reached the network shown (after Undo, the line below says what the undone moves cost)."
    row.metric(
        "Exact evaluations",
        f"{shown.n_exact:,}",
        help="Candidate families fitted and scored exactly (eq. 2 of the paper)." + work,
        width="content",
    )
    row.metric(
        "Ranked candidates",
        f"{shown.n_ranked:,}",
        help="Candidates ranked by the cheap C1/C2 measures (ideal method only)." + work,
        width="content",
    )
    row.metric(
        "Search time",
        text.duration(shown.elapsed_s),
        help="Time the search itself spent in its steps, all steps together (the rest of a Step's wait "
        "is drawing the page: see the line below after a Step)." + work,
        width="content",
    )
    if (undone := search_notes.undone_note(session.main)) is not None:
        st.caption(undone)
    slot = st.empty()
    hidden = session.hidden_names()
    if hidden:
        st.caption(
            f"This network was learned by structural EM after accepting hidden variable(s) "
            f"{', '.join(sorted(hidden))}; the move log starts from it (Undo goes back to the search "
            "before, once the moves made since are undone). "
            f"With hidden variables the {session.score_label} shown is the *expected* complete-data "
            f"{session.score_label} that structural EM's search maximizes (it includes the hidden variables' "
            f"own terms); the Hidden variables page shows the observed-data {session.score_label}, with the "
            "hidden variables integrated out."
        )

    return slot


def _status() -> None:
    session = state.session()
    msg = session.notice
    if msg:
        (st.success if msg.startswith("Converged") else st.info)(msg)
    elif session.main.converged:
        st.success(TERMINATION_MESSAGES[1])
    if session.twin is not None and session.twin.converged and not session.main.converged:
        st.caption("The comparison search has converged; the main one goes on.")


def _network(session, names: list[str], last, view: network_panel.NetworkView, *, paused: bool) -> None:
    """The network drawing (rebuilt only when the structure, the last move or the view changed)."""
    if paused:
        # Redrawing the network (a new iframe) every chunk would make it flicker and slow the
        # run down; it is drawn again as soon as the run ends or is stopped.
        st.info(
            f"Network drawing paused while the search runs ({session.stepper.n_iter} moves, "
            f"{len(session.stepper.edges())} edges so far); it comes back with its controls when the run "
            "ends or you press Stop."
        )
        return
    key = (session.data_version, session.version, tuple(session.stepper.edges()), last, tuple(names), view.key)
    html = state.memo(
        "search_network",
        key,
        lambda: network_view.search_network_html(
            names,
            session.weighted_edges(),
            view.positions,
            last_move=last,
            hidden=session.hidden_names(),
            height=view.height,
            shown=view.shown,
            focus=view.focus,
            regulators=session.regulators or (),
        ),
    )
    if view.sub is not None:
        st.caption(view.sub.caption())
    show_html(html, view.height + 40)
    st.caption(
        "Edge width grows with |weight|; the last move is orange (a removed edge is dashed red). "
        "Hover or click a node to highlight its neighbours. "
        + (
            "Nodes keep their places while the variables shown stay the same; drag them or zoom freely."
            if view.sub is not None
            else "Nodes keep their places between steps; drag them or zoom freely."
        )
    )


@st.fragment
def step_panel() -> None:
    """Controls, counters, network, score trace and move log (redrawn alone on a click)."""
    session = state.session()
    other = text.method_label(session.other_method).lower()
    st.toggle(
        f"Compare greedy and ideal (runs {'an' if other[0] in 'aeiou' else 'a'} {other} search alongside, "
        "stepped together)",
        value=session.compare,
        key=state.W_COMPARE,
        on_change=_on_compare,
    )
    # While a run is in progress the buttons are drawn first (Stop enabled), then one chunk runs. When that
    # chunk ends the run, the panel reruns at once to redraw the buttons (Step enabled again) with the final
    # state. The panel draws the same elements in every run (the network controls' slot stays, empty, during
    # a run), so no element of an earlier run is left behind at a place the run no longer draws.
    running = session.running
    _buttons()
    going = running and _progress()
    if running and not going:
        _rerun_panel()
    _status()
    timing_slot = _counters()
    stepper = session.stepper
    names = session.variable_names()
    last = stepper.history[-1] if stepper.history else None
    # while a run goes on the drawing is paused: no controls (a 4,217-gene search box every chunk), no layout
    controls = st.empty()
    view = None
    if not going:
        with controls.container():
            view = network_panel.network_controls(NETWORK_KEYS, names, stepper.edges(), stepper.history)
    large = network_panel.paused_large(NETWORK_KEYS) if going else view.large
    thin = run_view.thin_trace if going else list  # a long run's trace thinned while it goes on
    traces = {text.method_label(session.settings.method): thin(session.main.trace)}
    if session.twin is not None:
        traces[text.method_label(session.other_method)] = thin(session.twin.trace)
    # the large view takes the whole width, the score trace goes below it
    graph, trace = (st.container(), st.container()) if large else st.columns([3, 2])
    with graph:
        _network(session, names, last, view, paused=going)
    with trace:
        st.plotly_chart(
            plots.score_trace_figure(traces, score=session.score_label), width="stretch", key="search_trace"
        )
    move_log.draw(going)
    if not running:
        step_timing.show(timing_slot)
    if going:
        _rerun_panel()


def render() -> None:
    state.init_state()
    st.title("Search")
    session = state.session()
    design, data = text.design_summary(session.dataset), session.dataset
    st.caption(
        f"{session.label} — {session.dataset.summary()}{'; ' + design if design else ''}. "
        f"Search: {text.settings_summary(session.settings, session.regulators, data.names, data.covariates)} "
        "(change them in the sidebar and press Apply)."
    )
    orientation_box("w_search")
    missing_box(compact=True)
    step_panel()
    render_glossary()  # BIC, EBIC, move, family... (explorer.glossary)


if __name__ == "__main__":
    render()

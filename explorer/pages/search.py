"""Search: step the structure search one move at a time and watch the network, log and score.

Everything that changes on a click lives in one ``@st.fragment`` (:func:`step_panel`), so Step /
Undo / Run redraw only this panel, not the sidebar.

How "Run to convergence" and "Stop" work
----------------------------------------
Streamlit runs one script run at a time per session and handles a click only between runs. A
long run is therefore cut into chunks of about 0.4 s of search (``state.run_chunk``). Each chunk
is one run of the panel: it draws the buttons (only Stop enabled), runs the chunk, draws the
progress, counters, score trace and log, and asks for another run of itself
(``st.rerun(scope="fragment")``). Between two chunks Streamlit handles pending clicks: the Stop
button's callback sets ``state.STOP``, and the next chunk sees the flag and ends the run. So a
Stop takes effect at the end of the current chunk (within about half a second), never in the
middle of a move: every move is applied to the stepper, the log and the trace before anything is
drawn. (With Streamlit's default ``runner.fastReruns`` the click can also cut short the drawing
of the current chunk; the state is complete at that point, so nothing is lost.) The network
drawing is paused during a run and comes back when it ends. Streamlit's own "Stop" in the
toolbar only halts the current script run; the search then waits, and the panel's Stop button
ends it.
"""

from __future__ import annotations

import streamlit as st

from engine.exceptions import IdealParentError
from engine.search import TERMINATION_MESSAGES
from explorer import network_view, plots, state
from explorer.pages import show_html

NETWORK_HEIGHT = 560


def _rerun_panel() -> None:
    """Run the panel again (only the fragment when this run is a fragment run)."""
    try:
        st.rerun(scope="fragment")
    except st.errors.StreamlitAPIException:
        st.rerun()


def _on_compare() -> None:
    try:
        state.set_compare(bool(state.get(state.W_COMPARE)))
    except IdealParentError as exc:
        state.put(state.ACTION_ERROR, f"Comparison not started: {exc}")
        state.put(state.COMPARE, False)
        state.put(state.TWIN, None)


def _method_label(method: str) -> str:
    return {"ideal": "Ideal parent", "greedy": "Greedy"}.get(method, method)


def _action(fn, *args) -> None:
    """Run a button's action in its callback (before the panel is drawn); an engine error is
    kept for the panel to show."""
    try:
        fn(*args)
    except IdealParentError as exc:
        state.put(state.ACTION_ERROR, str(exc))


def _on_step() -> None:
    state.put(state.RUN_MESSAGE, None)
    _action(state.step_searches)


def _on_run_n() -> None:
    _action(state.start_run, int(state.get(state.W_N_STEPS) or 10))


def _on_run_all() -> None:
    _action(state.start_run, None)


def _on_undo() -> None:
    _action(state.undo_searches)


def _on_reset() -> None:
    _action(state.reset_search)


def _buttons() -> None:
    """The control row. Actions run in the buttons' callbacks, so the row is drawn after them."""
    running = bool(state.get(state.RUNNING))
    stepper = state.get(state.STEPPER)
    n_moves = stepper.n_iter if stepper is not None else 0
    twin = state.get(state.TWIN)
    if twin is not None:
        n_moves = max(n_moves, twin.n_iter)
    # a wrapping row: on a narrow window the buttons flow onto a second line instead of being cut
    # to "S..", "U.." as fixed columns would
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    row.button("Step", key=state.W_STEP, type="primary", disabled=running, on_click=_on_step)
    row.button("Run N steps", key=state.W_RUN_N, disabled=running, on_click=_on_run_n)
    row.number_input(
        "N", min_value=1, max_value=10000, value=10, step=1, key=state.W_N_STEPS, disabled=running, width=110
    )
    row.button("Run to convergence", key=state.W_RUN_ALL, disabled=running, on_click=_on_run_all)
    row.button("Stop", key=state.W_STOP, on_click=state.request_stop, disabled=not running)
    row.button("Undo", key=state.W_UNDO, disabled=running or n_moves == 0, on_click=_on_undo)
    row.button("Reset", key=state.W_RESET, disabled=running, on_click=_on_reset)
    error = state.get(state.ACTION_ERROR)
    if error:
        st.error(error)
        state.put(state.ACTION_ERROR, None)


def _progress() -> bool:
    """Run one chunk of the run in progress and draw its progress; True while it goes on."""
    try:
        going = state.run_chunk()
    except IdealParentError as exc:
        state.put(state.RUNNING, False)
        state.put(state.ACTION_ERROR, f"The run stopped: {exc}")
        return False
    if not going:
        return False
    stepper = state.get(state.STEPPER)
    start_iter, _, total = state.get(state.RUN_START)
    done = stepper.n_iter - start_iter
    log = state.get(state.LOG)
    if total:
        frac = min(1.0, (total - (state.get(state.RUN_LEFT) or 0)) / total)
        text = f"Running: {done} of {total} steps"
    else:
        # No step count is known in advance: estimate from how far the gains have shrunk.
        first = log[0]["exact ΔBIC"] if log else None
        last = log[-1]["exact ΔBIC"] if log else None
        frac = 0.0
        if first and last is not None and first > 0:
            frac = min(0.99, max(0.0, 1.0 - last / first))
        text = (
            f"Running to convergence: {done} move(s) so far, last ΔBIC "
            f"{last:.2f} (bar: share of the first gain used up)"
            if last is not None
            else "Running to convergence..."
        )
    st.progress(frac, text=text)
    return True


def _counters() -> None:
    stepper = state.get(state.STEPPER)
    # a wrapping row: on a narrow window a metric moves to the next line instead of showing "-12,..."
    row = st.container(horizontal=True, horizontal_alignment="distribute", gap="medium")
    row.metric("Moves", stepper.n_iter, width="content")
    row.metric("BIC (nats)", f"{stepper.score:,.1f}", width="content")
    work = (
        " Counts all the work done so far: Undo takes a move back but keeps what was computed for it "
        "(the scores stay cached, so stepping forward again costs nothing and adds nothing here)."
    )
    row.metric(
        "Exact evaluations",
        f"{stepper.n_exact:,}",
        help="Candidate families fitted and scored exactly (eq. 2 of the paper)." + work,
        width="content",
    )
    row.metric(
        "Ranked candidates",
        f"{stepper.n_ranked:,}",
        help="Candidates ranked by the cheap C1/C2 measures (ideal method only)." + work,
        width="content",
    )
    row.metric(
        "Seconds", f"{stepper.elapsed_s:.2f}", help="Time spent inside the search's steps." + work, width="content"
    )
    hidden = state.hidden_names(stepper)
    if hidden:
        st.caption(
            f"This network was learned by structural EM after accepting hidden variable(s) "
            f"{', '.join(sorted(hidden))}; the move log starts from it (Undo accept on the Hidden "
            "variables page goes back to the search before). "
            f"With hidden variables the BIC shown is the *expected* "
            "complete-data BIC that structural EM's search maximizes (it includes the hidden "
            "variables' own terms); the Hidden variables page shows the observed-data BIC, with the "
            "hidden variables integrated out."
        )


LOG_CONFIG = {
    "edge": st.column_config.TextColumn("edge", width="large"),
    "C1": st.column_config.TextColumn(
        "C1", alignment="right", help="Ideal-parent estimate of the gain (nats); – for Delete and Reverse"
    ),
    "C2": st.column_config.TextColumn(
        "C2", alignment="right", help="Ideal-parent estimate of the gain (nats); – for Delete and Reverse"
    ),
    "exact gain": st.column_config.NumberColumn(
        "exact gain",
        format="%.2f",
        help="Exact log-likelihood gain of the move (nats), the quantity C1 and C2 estimate "
        "(for a linear-Gaussian model C1 <= C2 <= exact gain)",
    ),
    "exact ΔBIC": st.column_config.NumberColumn(
        "exact ΔBIC", format="%.2f", help="The exact gain minus the BIC penalty of the change (nats)"
    ),
    "rank": st.column_config.TextColumn(
        "rank",
        alignment="right",
        help="Where the chosen move stood in its family's ranking by C2 (or C1), 1 = most similar to the "
        "ideal parent. Ideal K scores exactly only ranks 1..K of each family; greedy scores all of "
        "them, so its chosen move can have any rank.",
    ),
    "exact evaluations": st.column_config.NumberColumn("exact evaluations", help="Exact score evaluations made so far"),
}


def _log_caption(stepper) -> str:
    return (
        f"Moves: {stepper.n_iter} · exact evaluations: {stepper.n_exact:,} · "
        f"ranked candidates: {stepper.n_ranked:,} · {stepper.elapsed_s:.2f} s"
    )


def _logs() -> None:
    log = state.get(state.LOG)
    twin = state.get(state.TWIN)
    settings = state.get(state.SETTINGS)
    stepper = state.get(state.STEPPER)
    if twin is None:
        st.subheader("Move log")
        st.caption(_log_caption(stepper))
        frame = plots.move_log_frame(log).iloc[::-1]
        st.dataframe(
            plots.highlight_steps(frame, ()),
            column_config=LOG_CONFIG,
            width="stretch",
            height=min(400, 38 + 35 * max(1, len(frame))),
            key="search_log",
        )
        return
    main_f, twin_f, differ = plots.compare_logs(log, state.get(state.TWIN_LOG))
    st.subheader("Move logs side by side")
    if differ:
        st.caption(
            f"Shaded rows: steps where the two searches chose different moves "
            f"({len(differ)} of {max(len(main_f), len(twin_f))})."
        )
    elif len(main_f):
        st.caption("The two searches have chosen the same moves so far.")
    left, right = st.columns(2)
    for col, frame, step_r, method, key in (
        (left, main_f, stepper, settings["method"], "search_log"),
        (right, twin_f, twin, state.other_method(settings["method"]), "search_twin_log"),
    ):
        with col:
            who = "main" if key == "search_log" else "comparison"
            st.markdown(f"**{_method_label(method)}** ({who})")
            st.caption(_log_caption(step_r))
            st.dataframe(
                plots.highlight_steps(frame.iloc[::-1], differ),
                width="stretch",
                column_config={**LOG_CONFIG, "edge": st.column_config.TextColumn("edge", width="medium")},
                column_order=plots.COMPARE_LOG_COLUMNS,
                key=key,
                height=min(400, 38 + 35 * max(1, len(frame))),
            )


def _status() -> None:
    msg = state.get(state.RUN_MESSAGE)
    conv = state.get(state.CONVERGED) or {}
    if msg:
        (st.success if msg.startswith("Converged") else st.info)(msg)
    elif conv.get("main"):
        st.success(TERMINATION_MESSAGES[1])
    if state.get(state.TWIN) is not None and conv.get("twin") and not conv.get("main"):
        st.caption("The comparison search has converged; the main one goes on.")


def _network(stepper, names: list[str], last, *, paused: bool) -> None:
    """The network drawing (rebuilt only when the structure or the last move changed)."""
    if paused:
        # Redrawing the network (a new iframe) every chunk would make it flicker and slow the
        # run down; it is drawn again as soon as the run ends or is stopped.
        st.info(
            f"Network drawing paused while the search runs ({stepper.n_iter} moves, "
            f"{len(stepper.edges())} edges so far); it comes back when the run ends or you "
            "press Stop."
        )
        return
    key = (
        state.get(state.SEARCH_VERSION),
        state.get(state.DATA_VERSION),
        tuple(stepper.edges()),
        last,
        tuple(names),
    )
    html = state.memo(
        "search_network",
        key,
        lambda: network_view.search_network_html(
            names,
            state.weighted_edges(stepper),
            state.layout_positions(),
            last_move=last,
            hidden=state.hidden_names(stepper),
            height=NETWORK_HEIGHT,
        ),
    )
    show_html(html, NETWORK_HEIGHT + 40)
    st.caption(
        "Edge width grows with |weight|; the last move is orange (a removed edge is dashed red). "
        "Nodes keep their places between steps; drag them or zoom freely."
    )


@st.fragment
def step_panel() -> None:
    """Controls, counters, network, score trace and move log (redrawn alone on a click)."""
    stepper = state.get(state.STEPPER)
    if stepper is None:
        st.info("No search: load data in the sidebar.")
        return
    settings = state.get(state.SETTINGS)
    other = _method_label(state.other_method(settings["method"])).lower()
    st.toggle(
        f"Compare greedy and ideal (runs {'an' if other[0] in 'aeiou' else 'a'} {other} search alongside, "
        "stepped together)",
        value=bool(state.get(state.COMPARE)),
        key=state.W_COMPARE,
        on_change=_on_compare,
    )
    # While a run is in progress the buttons are drawn first (Stop enabled), then one chunk
    # runs. When that chunk ends the run, the panel reruns at once to redraw the buttons (Step
    # enabled again) with the final state.
    running = bool(state.get(state.RUNNING))
    _buttons()
    going = running and _progress()
    if running and not going:
        _rerun_panel()
    _status()
    stepper = state.get(state.STEPPER)
    _counters()
    names = state.variable_names(stepper)
    last = stepper.history[-1] if stepper.history else None
    graph, trace = st.columns([3, 2])
    with graph:
        _network(stepper, names, last, paused=going)
    with trace:
        traces = {_method_label(settings["method"]): state.get(state.TRACE)}
        if state.get(state.TWIN) is not None:
            traces[_method_label(state.other_method(settings["method"]))] = state.get(state.TWIN_TRACE)
        st.plotly_chart(plots.score_trace_figure(traces), width="stretch", key="search_trace")
    _logs()
    if going:
        _rerun_panel()


def render() -> None:
    state.init_state()
    st.title("Search")
    settings = state.get(state.SETTINGS)
    dataset = state.get(state.DATASET)
    if dataset is not None:
        st.caption(
            f"{state.get(state.DATA_LABEL)} — {dataset.summary()}. Search: {state.settings_summary(settings)} "
            "(change them in the sidebar and press Apply)."
        )
    step_panel()


if __name__ == "__main__":
    render()

"""The Search page's move log: its columns (C1, C2, the exact gain and score change, the chosen
move's rank in its family) and the log drawn alone or beside the comparison search's.

C1 and C2 are the ideal-parent estimates of a move's gain (JMLR 2007, Theorems 3.2 and 3.4); the
exact gain is the change they bound, so for a linear-Gaussian model C1 <= C2 <= exact gain row by row.
"""

from __future__ import annotations

import streamlit as st

from explorer import plots, run_view, search_notes, state, text

__all__ = ["COMPARE_EDGE_WIDTH", "LOG_CONFIG", "draw", "log_config"]

LOG_CONFIG = {
    "edge": st.column_config.TextColumn("edge", width="medium"),
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


def log_config(score: str) -> dict:
    """:data:`LOG_CONFIG` with the score change headed by the score the search maximizes (EBIC on wide data)."""
    help_ = f"The exact gain minus the {score} penalty of the change (nats), > 0 for every move taken (0.00: < 0.005)"
    return {**LOG_CONFIG, "exact ΔBIC": st.column_config.NumberColumn(f"exact Δ{score}", format="%.2f", help=help_)}


#: the edge column of each of the two logs side by side (pixels): at "medium" (200 px) half of a
#: 1280-px page showed only operator, edge and C2, and cut off the exact gains and the rank
COMPARE_EDGE_WIDTH = 95


def draw(running: bool = False) -> None:
    """The move log (newest first), or the two logs side by side when a comparison runs; while a run
    goes on, its last moves only (:mod:`explorer.run_view`)."""
    session = state.session()
    log = session.main.log
    if session.twin is None:
        st.subheader("Move log")
        st.caption(search_notes.log_caption(session.main))
        search_notes.first_move_caption(session.main)  # why the counters are not 0 at Moves 0
        shown = run_view.log_shown(log, running)  # the newest moves only while a run goes on
        if len(shown) < len(log):
            st.caption(run_view.tail_caption(len(log)))
        frame = plots.move_log_frame(shown).iloc[::-1]
        # a plain frame, not a pandas Styler: nothing is shaded here, and marshalling a Styler
        # cost 0.3 s per redraw at 900 moves, paid after every chunk of a run (LOG_CONFIG formats)
        st.dataframe(
            frame,
            column_config=log_config(session.score_label),
            width="stretch",
            height=min(400, 38 + 35 * max(1, len(frame))),
            key="search_log",
        )
        return
    n_steps = max(len(log), len(session.twin.log))
    cut = running and n_steps > run_view.LOG_TAIL  # the same last steps on both sides
    main_f, twin_f, differ = plots.compare_logs(log, session.twin.log, run_view.LOG_TAIL if cut else None)
    if cut:
        st.caption(run_view.tail_caption(len(log)))
    st.subheader("Move logs side by side")
    if differ:
        st.caption(f"Shaded rows: steps where the two searches chose different moves ({len(differ)} of {n_steps}).")
    elif len(main_f):
        st.caption("The two searches have chosen the same moves so far.")
    left, right = st.columns(2)
    for col, frame, track, method, key in (
        (left, main_f, session.main, session.settings.method, "search_log"),
        (right, twin_f, session.twin, session.other_method, "search_twin_log"),
    ):
        with col:
            who = "main" if key == "search_log" else "comparison"
            st.markdown(f"**{text.method_label(method)}** ({who})")
            st.caption(search_notes.log_caption(track))
            st.dataframe(
                plots.highlight_steps(frame.iloc[::-1], differ),
                width="stretch",
                column_config={
                    **log_config(session.score_label),
                    "edge": st.column_config.TextColumn("edge", width=COMPARE_EDGE_WIDTH),
                },
                column_order=plots.COMPARE_LOG_COLUMNS,
                key=key,
                height=min(400, 38 + 35 * max(1, len(frame))),
            )

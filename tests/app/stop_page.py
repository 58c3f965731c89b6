"""A page with a long action's Stop button alone (explorer.long_action.stop_button), for
test_long_action.py: a checkbox stands for "the action runs", another for "and it ended before
the click came", a third for "another action, which the engine refuses" (:func:`run_stoppable`)."""

import streamlit as st

from engine.exceptions import IdealParentError
from explorer.long_action import action_bar, run_stoppable, stop_button


def render() -> None:
    running = st.checkbox("running", key="running")
    message = st.session_state.pop("msg", None)
    if message:
        st.warning(message)
    stop_button(st, "stop", "msg", "Accept", running)
    if st.checkbox("finished", key="finished"):
        with action_bar("Accept", "stop"):
            pass
    if st.checkbox("refused", key="refused"):

        def refuse(stage) -> str:
            stage("starting", 0.1)
            raise IdealParentError("`data` has 1 variable, must be >= 2.")

        assert not run_stoppable(st, "stop_auto", "msg", "Auto", True, refuse)


if __name__ == "__main__":  # not when a spawned process (Dask's) re-imports the main script
    render()

"""A page with a long action's Stop button alone (explorer.long_action.stop_button), for
test_long_action.py: a checkbox stands for "the action runs", another for "and it ended before
the click came"."""

import streamlit as st

from explorer.long_action import action_bar, stop_button


def render() -> None:
    running = st.checkbox("running", key="running")
    message = st.session_state.pop("msg", None)
    if message:
        st.warning(message)
    stop_button(st, "stop", "msg", "Accept", running)
    if st.checkbox("finished", key="finished"):
        with action_bar("Accept", "stop"):
            pass


if __name__ == "__main__":  # not when a spawned process (Dask's) re-imports the main script
    render()

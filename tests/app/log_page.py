"""The Search page's move log alone (explorer.move_log.draw), for test_run_view.py: a checkbox
stands for "a run is in progress"."""

import streamlit as st

from explorer import move_log


def render() -> None:
    move_log.draw(st.checkbox("running", key="running"))


if __name__ == "__main__":  # not when a spawned process (Dask's) re-imports the main script
    render()

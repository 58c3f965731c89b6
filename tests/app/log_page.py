"""The Search page's move log alone (explorer.pages.search._logs), for test_run_view.py: a checkbox
stands for "a run is in progress"."""

import streamlit as st

from explorer.pages import search


def render() -> None:
    search._logs(st.checkbox("running", key="running"))


if __name__ == "__main__":  # not when a spawned process (Dask's) re-imports the main script
    render()

"""Ideal Parent Explorer: the Streamlit entry point (``streamlit run app.py``).

Page setup, session state, the sidebar and the page router; nothing else.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from explorer import sidebar, state

PAGES_DIR = Path(__file__).resolve().parent / "explorer" / "pages"

#: (file, title, icon) in menu order
PAGES = [
    ("home.py", "Home", ":material/home:"),
    ("search.py", "Search", ":material/account_tree:"),
    ("inspector.py", "Inspector", ":material/search:"),
    ("bounds.py", "Bounds", ":material/stacked_line_chart:"),
    ("hidden.py", "Hidden variables", ":material/visibility_off:"),
    ("confidence.py", "Confidence", ":material/verified:"),
    ("truth.py", "Truth & export", ":material/fact_check:"),
    ("teaching.py", "Teaching", ":material/school:"),
]


def main() -> None:
    st.set_page_config(page_title="Ideal Parent Explorer", page_icon=":material/hub:", layout="wide")
    state.init_state()
    sidebar.render()
    pages = [
        st.Page(PAGES_DIR / name, title=title, icon=icon, default=(name == "home.py")) for name, title, icon in PAGES
    ]
    st.navigation(pages).run()


main()

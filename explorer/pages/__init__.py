"""One Streamlit page script per view (registered by ``app.py`` with ``st.navigation``).

Each page defines ``render()`` and calls it under ``if __name__ == "__main__":`` (Streamlit runs a
page file as ``__main__``), so a page module can also be imported without drawing anything.
Helpers shared by several pages live here.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["show_html"]


def show_html(html: str, height: int) -> None:
    """Place self-contained HTML (e.g. a pyvis drawing with its JavaScript inlined) in an iframe.

    Uses ``st.iframe`` where it exists (Streamlit >= 1.50, where ``components.v1.html`` is
    deprecated) and ``streamlit.components.v1.html`` otherwise.
    """
    if hasattr(st, "iframe"):
        st.iframe(html, height=height)
    else:  # pragma: no cover - older Streamlit
        import streamlit.components.v1 as components

        components.html(html, height=height, scrolling=False)

"""The sidebar's glossary: every page can say what its jargon means (explorer/glossary.py).

A newcomer walk met z*, C1/C2, leverage and EBIC with no place that said what they are."""

from __future__ import annotations

from conftest import APP, PAGES, TIMEOUT
from streamlit.testing.v1 import AppTest

from explorer.glossary import GLOSSARY, glossary_markdown
from explorer.hidden_columns import proposal_columns
from explorer.pages.hidden import HOW_TO_READ


def _defined(word: str) -> bool:
    return any(word.lower() in term.lower() for term in GLOSSARY)


def test_the_glossary_is_on_the_pages_that_use_the_terms():
    """Under each page's own "How to read" (in the sidebar it sat below the settings, out of sight: a real
    browser's view of session 26)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    for page in ("search.py", "inspector.py", "bounds.py", "hidden.py"):
        at.switch_page(str(PAGES / page)).run()
        assert not at.exception
        (box,) = [e for e in at.main.expander if e.label.startswith("Glossary")]
        shown = " ".join(m.value for m in box.markdown)
        assert "**z\\***" in shown or "**z*" in shown
        assert all(f"**{term}**" in shown for term in ("BIC", "EBIC", "C1, C2", "structural EM")), page
    assert not [e for e in at.sidebar.expander if e.label.startswith("Glossary")]


def test_the_hidden_pages_terms_are_defined():
    """Jargon the Hidden page sets in bold in "How to read this page", and its table's headers."""
    used = [
        w for w in ("**semi-cliques**", "**co-expression**", "**on/off steps**", "**C1**", "**C2**") if w in HOW_TO_READ
    ]
    assert len(used) == 5  # the page still sets them in bold
    for word in ("semi-clique", "co-expression", "on/off", "C1", "C2", "z*", "odd", "structural EM", "EBIC"):
        assert _defined(word), word
    headers = " ".join(str(c.get("label", "")) for c in proposal_columns("EBIC").values() if isinstance(c, dict))
    for word in ("C1", "C2"):
        assert word in headers and _defined(word)


def test_every_entry_says_something_and_cites_where_it_comes_from():
    assert len(GLOSSARY) >= 20 and glossary_markdown().count("\n- ") == len(GLOSSARY) - 1
    for term, what in GLOSSARY.items():
        assert len(what) > 60 and what[0].islower() and what.endswith((".", ")")), term
    paper = [t for t, w in GLOSSARY.items() if "JMLR 2007" in w]
    assert {"ideal profile", "C1, C2", "z*", "structural EM"} <= set(paper)

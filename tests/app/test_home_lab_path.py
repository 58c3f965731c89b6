"""The Home page names a biologist's path through the pages, upload to Accept and export (newcomer
walk, session 19: its text named only Search and Step, and the hidden-regulator work that brings a
lab to the app was three pages away with nothing pointing there)."""

from __future__ import annotations


def test_home_page_gives_the_expression_table_path(app):
    at = app  # the whole app, on its Home page
    assert "Hidden regulators in your own expression table" in [h.value for h in at.subheader]
    path = next(m.value for m in at.markdown if "Propose hidden variables" in m.value)
    steps = [
        "**Upload**",
        "**Transpose**",
        "*Candidate regulators*",
        "**Apply**",
        "*Sample traits (read, not modelled)*",
    ]
    steps += ["**Run to convergence**"]
    steps += ["**Hidden variables**", "**Accept**", "**Truth & export**"]
    positions = [path.index(s) for s in steps]
    assert positions == sorted(positions)  # in the order a user goes through them

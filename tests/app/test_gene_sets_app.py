"""Gene sets in the explorer (issue #23, deliverable 4): the sidebar's box and the enrichment of an
accepted hidden variable's children on the Hidden page. AppTest cannot upload a file, so the
parsed sets are put in session state where the sidebar's upload puts them (the upload itself is
covered by the browser test)."""

from __future__ import annotations

import pytest
from scipy import stats
from streamlit.testing.v1 import AppTest
from test_hidden_page import PAGE, planted

from engine.io.gene_sets import parse_gene_sets
from explorer import gene_sets_box, state
from explorer.session import SearchSession


def test_hidden_page_shows_known_sets_among_the_children(repo_root):
    ds, kids = planted()
    others = [n for n in ds.names if n not in kids][:5]
    gmt = "\r\n".join(
        [
            "\t".join(["KNOWN_TARGETS", "na", *kids, "UNMEASURED"]),
            "\t".join(["UNRELATED", "na", *others]),
            "EMPTY\tna",
        ]
    )
    sets = parse_gene_sets(gmt, source="targets.gmt", name="targets.gmt")
    at = AppTest.from_file(str(repo_root / "app.py"), default_timeout=120)
    at.run()
    at.session_state[state.SESSION] = SearchSession(ds, None, "planted factor")
    at.session_state[gene_sets_box.KEY_SETS] = sets
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    # the sidebar says what was read, notes included
    captions = [c.value for c in at.sidebar.caption]
    assert any(c.startswith("targets.gmt: 2 gene set(s) (GMT)") for c in captions), captions
    assert any("1 set(s) without genes left out" in c for c in captions)
    assert any("1 of the 12 genes in the sets are not variables of the data" in c for c in captions)
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception
    tables = [d.value for d in at.dataframe if "set" in d.value.columns and "hidden" in d.value.columns]
    assert tables, "no enrichment table on the Hidden page"
    top = tables[0].iloc[0]
    assert top["hidden"] == "H1" and top["set"] == "KNOWN_TARGETS"
    session = at.session_state[state.SESSION]
    names = session.variable_names()
    children = [names[c] for p, c in session.stepper.edges() if names[p] == "H1"]
    assert top["genes"] == ", ".join(c for c in ds.names if c in set(children) & set(kids))
    assert top["p"] == pytest.approx(stats.hypergeom.sf(top["overlap"] - 1, 30, 6, len(children)))
    assert top["p"] < 1e-3
    labels = [b.label for b in at.get("download_button")]
    assert "Download hidden-variable enrichment (CSV)" in labels
    # the Truth page's JSON export carries the same enrichment as `learn --gene-sets`
    at.switch_page("explorer/pages/truth.py").run()
    assert not at.exception
    hidden_rows, regulator_rows = at.session_state[state.MEMO]["export_enrichment"][1]
    assert hidden_rows["H1"][0].set == "KNOWN_TARGETS" and hidden_rows["H1"][0].p == top["p"]
    assert all(set(r) >= {"regulator", "set", "overlap", "set_size", "p", "q", "genes"} for r in regulator_rows)

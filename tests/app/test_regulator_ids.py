"""A regulator file of gene ids after "Name genes by gene_name" (QA, #22): it was refused with "check the
names against the data's column names", not saying that the table is named by symbols now. The refusal
names the ids and their symbols, the names matching nothing, and offers one button mapping the ids
through the same column; the mapped list (every listed name) goes in the box and applies."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import texts
from test_gene_names import _table

from explorer import gene_names, lab_options, regulator_ids, sidebar, state


def _renamed_app(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.csv", _table(), "text/csv"))
    app.run()
    app.button(key=gene_names.KEY_NAME).click().run()
    assert app.session_state[state.SESSION].dataset.names[:3] == ("sym0", "sym1", "sym2")
    return app


def _apply_file(app, listed: str):
    app.file_uploader(key=lab_options.regulator_file_key()).set_value(("tfs.txt", listed.encode(), "text/plain"))
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception


def test_a_file_of_ids_is_refused_with_why_and_the_mapping_applies_it(app):
    _apply_file(_renamed_app(app), "# TFs\ng0\nG1\ng2\nnotagene\n")
    said = " ".join(texts(app.sidebar.error))
    assert "Settings not applied" in said
    assert "3 of the 4 listed names are gene ids (g0 → sym0, G1 → sym1, g2 → sym2)" in said
    assert "now named by their gene_name symbols" in said
    assert "Neither a gene nor a gene id of the data: notagene" in said
    assert app.session_state[state.SESSION].regulators is None  # nothing applied, the renamed data kept
    assert app.session_state[state.SESSION].dataset.names[0] == "sym0"

    app.button(key=regulator_ids.KEY_MAP).click().run()
    assert not app.exception and not texts(app.sidebar.error)
    session = app.session_state[state.SESSION]
    assert session.regulators == ["sym0", "sym1", "sym2", "notagene"]  # every listed name kept
    assert app.text_area(key=state.W_REGULATORS).value.split("\n") == ["sym0", "sym1", "sym2", "notagene"]
    note = " ".join(texts(app.sidebar.warning))
    assert "3 gene id(s) of the list mapped through gene_name" in note and "3 of 4 listed names" in note
    assert "Not in the data (ignored): notagene" in note
    assert not [b for b in app.button if b.key == regulator_ids.KEY_MAP]  # done: no second offer


def test_ids_partly_matching_apply_with_the_reason_and_the_offer(app):
    """g3 kept its id (its symbol is shared): the list applies to g3 alone, and the note says why g0, g1
    matched nothing; the mapping then applies all three."""
    _apply_file(_renamed_app(app), "g0\ng1\ng3\n")
    assert not texts(app.sidebar.error)
    assert app.session_state[state.SESSION].regulators == ["g0", "g1", "g3"]
    note = " ".join(texts(app.sidebar.warning))
    assert "1 of 3 listed names are variables" in note
    assert "2 of the 3 listed names are gene ids (g0 → sym0, g1 → sym1)" in note
    app.button(key=regulator_ids.KEY_MAP).click().run()
    assert not app.exception
    assert app.session_state[state.SESSION].regulators == ["sym0", "sym1", "g3"]


def test_no_offer_for_symbols_or_before_renaming(app):
    _apply_file(_renamed_app(app), "sym0\nsym1\n")
    assert not [b for b in app.button if b.key == regulator_ids.KEY_MAP]
    assert app.session_state[state.SESSION].regulators == ["sym0", "sym1"]
    assert regulator_ids.reading(["g0"], SimpleNamespace(dataset=SimpleNamespace(notes=(), names=("g0",)))) is None


def test_reading_uses_the_renaming_on_the_undo_stack():
    rename = gene_names.NameGenes(None, "gene_name", (("b1334", "fnr"), ("b0001", "thrL")))
    session = SimpleNamespace(
        dataset=SimpleNamespace(notes=(f"{gene_names.NAMED}'gene_name' (0 kept)",), names=("fnr", "thrL", "b9")),
        undo_stack=[rename],
    )
    r = regulator_ids.reading(["B1334", "b9", "crp", "b1334"], session)
    assert r.ids == ("B1334", "b1334") and r.symbols == ("fnr", "fnr") and r.unmatched == ("crp",)
    assert r.n_listed == 4 and "2 of the 4 listed names are gene ids" in regulator_ids.explain(r)

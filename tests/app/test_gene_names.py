"""Naming the genes by the file's symbol column (QA walk, #22): an *E. coli* table with b-numbers
and a gene_name column beside them spoke b-numbers on every page (a FliA-regulon proposal read
"b1881, b1882, ..."), and a regulator list or gene-set file of symbols matched no gene. The
sidebar's button renames the variables by that column as an undoable data edit."""

from __future__ import annotations

from conftest import texts

from explorer import export, gene_names, sidebar, state
from explorer.gene_names import renamed

N_GENES, N_CONDITIONS = 30, 12


def _table() -> bytes:
    """Genes in rows: id, symbol, 12 conditions; g3 and g7 share a symbol, g5 has none, g9's
    symbol is g8's id."""
    import numpy as np

    rng = np.random.default_rng(0)
    symbols = [f"sym{i}" for i in range(N_GENES)]
    symbols[3] = symbols[7] = "insA"
    symbols[5] = ""
    symbols[9] = "g8"
    lines = ["gene,gene_name," + ",".join(f"c{j}" for j in range(N_CONDITIONS))]
    for i in range(N_GENES):
        lines.append(f"g{i},{symbols[i]}," + ",".join(f"{v:.3f}" for v in rng.normal(size=N_CONDITIONS)))
    return ("\n".join(lines) + "\n").encode()


def test_renamed_keeps_ids_where_a_symbol_is_missing_shared_or_taken():
    names = ["g0", "g1", "g2", "g3"]
    new, kept = renamed(names, {"g0": "fnr", "g1": "insA", "g2": "insA", "g3": "g0"})
    assert new == ["fnr", "g1", "g2", "g3"] and kept == 3  # g3 -> "g0" is g0's id: kept too
    assert renamed(["b1", "b2"], {"b1": "b1"}) == (["b1", "b2"], 1)  # a symbol equal to its id is no change


def test_the_sidebar_names_genes_by_symbol_with_the_regulator_list_renamed_and_undo(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.csv", _table(), "text/csv"))
    app.run()
    app.text_area(key=state.W_REGULATORS).set_value("g0\ng1\ng3")
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception
    session = app.session_state[state.SESSION]
    assert session.dataset.names[:2] == ("g0", "g1") and session.regulators == ["g0", "g1", "g3"]

    button = app.button(key=gene_names.KEY_NAME)
    assert button.label.startswith("Name genes by gene_name (sym0, sym1, sym2")
    button.click().run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    names = session.dataset.names
    assert names[:3] == ("sym0", "sym1", "sym2")
    assert names[3] == "g3" and names[7] == "g7" and names[5] == "g5" and names[9] == "g9"
    assert len(set(names)) == N_GENES
    assert session.regulators == ["sym0", "sym1", "g3"]  # the list follows its genes
    assert session.stepper.n_iter == 0  # a new search on the renamed data
    assert any("Genes named by column 'gene_name' (4 kept their id" in c for c in texts(app.sidebar.caption))
    assert not [b for b in app.button if b.key == gene_names.KEY_NAME]  # done: no second offer
    assert any("first column (ids)" in n for n in export.rerun_notes(session))

    said = session.undo()
    assert "named by their ids again" in said
    assert session.dataset.names[:2] == ("g0", "g1") and session.regulators == ["g0", "g1", "g3"]
    assert not export.rerun_notes(session)


def test_no_offer_for_a_description_column(app):
    """A column of free text (descriptions with spaces) is not a symbol column: no button."""
    data = _table().replace(b",sym", b",kinase ").replace(b",insA,", b",kinase x,")
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.csv", data, "text/csv"))
    app.run()
    assert not app.exception
    assert not [b for b in app.button if b.key == gene_names.KEY_NAME]


def test_a_list_of_symbols_beside_ids_is_told_the_button_then_applies(app):
    """A TF list of symbols on a table of ids: the refusal says they are the file's symbols and names
    the button; after it, the same list applies."""
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.csv", _table(), "text/csv"))
    app.run()
    app.text_area(key=state.W_REGULATORS).set_value("sym0\nSYM1\nnotagene")
    app.button(key=state.W_APPLY).click().run()
    said = " ".join(texts(app.sidebar.error))
    assert "Settings not applied" in said
    assert "2 of the 3 listed names are symbols in the file's column gene_name" in said
    assert '"Name genes by gene_name"' in said
    app.button(key=gene_names.KEY_NAME).click().run()
    app.text_area(key=state.W_REGULATORS).set_value("sym0\nSYM1\nnotagene")
    app.button(key=state.W_APPLY).click().run()
    assert not app.exception and not texts(app.sidebar.error)
    # kept as listed (a name not in the data is reported and ignored), matched to the renamed genes
    assert app.session_state[state.SESSION].regulators == ["sym0", "sym1", "notagene"]
    said = texts(app.sidebar.info) + texts(app.sidebar.warning)
    assert any("2 of 3" in t for t in said), said


def test_a_bad_file_uploaded_after_a_table_with_an_annotation_column_is_one_error_not_a_trace(app):
    """QA walk (session 28): after a genes-in-rows table with a description column was loaded, a second
    upload that is not a table (a PNG renamed .csv, an empty file) raised the reader's error from the
    sidebar's "Name genes by" offer on every page; now the sidebar's one message says it, the loaded
    data stay, and the offer is gone (the uploader no longer holds the file the data came from)."""
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.csv", _table(), "text/csv")).run()
    assert [b for b in app.button if b.key == gene_names.KEY_NAME]
    names = app.session_state[state.SESSION].dataset.names
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    for name, payload in [("figure.csv", png), ("empty.csv", b"")]:
        app.file_uploader(key=state.W_UPLOAD).set_value((name, payload, "text/csv")).run()
        assert not app.exception, app.exception
        assert any(name in e for e in texts(app.error)), texts(app.error)
        assert app.session_state[state.SESSION].dataset.names == names  # the loaded table stays
        assert not [b for b in app.button if b.key == gene_names.KEY_NAME]

"""A gene-description column beside the gene ids (genes in rows) is expected in an expression
file: the sidebar says it was set aside in a neutral caption, not a yellow "Not used" warning.
Columns left out for other reasons stay warnings."""

from __future__ import annotations

import io

import numpy as np
from conftest import texts

from engine.io import load_table, omissions
from explorer import gene_names, load_notes, sidebar, state


def _expression_tsv(n_genes: int = 30, n_conditions: int = 12, stray: bool = False) -> bytes:
    rng = np.random.default_rng(0)
    lines = ["gene\tdescription\t" + "\t".join(f"c{j}" for j in range(n_conditions))]
    for i in range(n_genes):
        values = [f"{v:.3f}" for v in rng.normal(size=n_conditions)]
        if stray and i == 4:
            values[2] = "oops"
        lines.append(f"g{i}\tkinase {i}, putative\t" + "\t".join(values))
    return ("\n".join(lines) + "\n").encode()


def _left_out(data: bytes, transpose: bool) -> str:
    ds = load_table(io.BytesIO(data), name="e.tsv", transpose=transpose, drop_non_numeric=True)
    (note,) = omissions(ds.notes)
    return note


class TestAnnotationColumns:
    def test_genes_in_rows_description_is_an_annotation(self):
        assert load_notes.annotation_columns(_left_out(_expression_tsv(), True), True) == "description"

    def test_turned_round_after_loading_is_an_annotation_too(self):
        """Loaded the wrong way round, then turned by the Transpose button: every cell is text."""
        note = _left_out(_expression_tsv(), False)
        assert "30 of 30 cells" in note
        assert load_notes.annotation_columns(note, True) == "description"
        assert load_notes.annotation_columns(note, False) is None  # samples in rows: a real omission

    def test_a_stray_text_cell_among_numbers_is_not(self):
        note = _left_out(_expression_tsv(stray=True), False)
        assert "c2" in note
        assert load_notes.annotation_columns(note, True) is None


def test_sidebar_says_it_in_a_caption_not_a_warning(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.tsv", _expression_tsv(), "text/tab-separated-values"))
    app.run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].dataset.names[:2] == ("g0", "g1")
    assert not any("description" in w for w in texts(app.sidebar.warning)), texts(app.sidebar.warning)
    captions = texts(app.sidebar.caption)
    assert any("description" in c and "Set aside" in c and "expected" in c for c in captions), captions


def test_before_transpose_it_is_a_caption_too_when_the_table_looks_turned(app):
    """QA walk (session 28): loaded as it is, genes in rows (the Home page then offers Transpose), the
    description column read as a yellow "Not used" warning; the same neutral caption now, and no renaming
    offer until the table is turned (the variables are the conditions until then)."""
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    data = _expression_tsv(n_genes=60).replace(b"\tc", b"\tGSM10")  # sample-like condition names
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.tsv", data, "text/tab-separated-values")).run()
    assert not app.exception and not texts(app.error)
    assert app.session_state[state.SESSION].dataset.n_samples == 60  # not turned yet
    assert not any("description" in w for w in texts(app.sidebar.warning)), texts(app.sidebar.warning)
    assert any("description" in c and "Set aside" in c for c in texts(app.sidebar.caption))
    assert not [b for b in app.button if b.key == gene_names.KEY_NAME]


def test_the_transpose_hint_names_the_apps_controls_not_the_cli(app):
    """The loader's note for a first column of labels tells CLI users '--transpose'; the app's user
    is pointed at the sidebar's Orientation radio instead (the QA walk on the E. coli table read 'CLI
    --transpose' on the Home page; since session 23's walk not at the Home page's Transpose button,
    which is drawn only with a wrong-way-round warning)."""
    note = (
        "used the first column 'gene' as instance labels (if the variables are in rows, "
        "e.g. genes x conditions, load with transpose: CLI --transpose)"
    )
    said = load_notes.in_app_words(note)
    assert "CLI" not in said and "Orientation" in said and "sidebar" in said and "Transpose button" not in said
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.tsv", _expression_tsv(), "text/tab-separated-values"))
    app.run()
    assert not app.exception
    shown = " ".join(texts(app.markdown))
    assert "instance labels" in shown and "CLI --transpose" not in shown and "Orientation" in shown


def test_home_page_lists_it_in_the_same_words(app):
    """Newcomer walk, session 19: the Home page's list of what loading did still said "left out
    non-numeric column(s) description" of the column the sidebar called expected."""
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("expr.tsv", _expression_tsv(), "text/tab-separated-values"))
    app.run()
    assert not app.exception
    (listed,) = [m.value for m in app.main.markdown if m.value.startswith("- ") and "description" in m.value]
    assert "Set aside as gene annotation: description" in listed and "left out" not in listed
    # a stray text cell among the numbers stays an omission there too
    assert load_notes.home_note(_left_out(_expression_tsv(stray=True), False), True).startswith("left out")

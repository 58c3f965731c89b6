"""A regulator list in another case than the gene ids (``at1g00010`` for ``AT1G00010``), applied while
the genes are still rows, then the Transpose button: the list is in force on the turned data as the
CLI's --regulators matches it (ignoring case). The Transpose kept only exact matches, so such a list
was dropped and every gene could be a parent."""

from __future__ import annotations

from conftest import APP, TIMEOUT, texts
from streamlit.testing.v1 import AppTest
from test_lab_session import _upload, genes_x_conditions_headerless

from explorer import state


def test_a_lower_case_list_applies_after_transpose(tmp_path):
    path, ids = genes_x_conditions_headerless(tmp_path / "expr.tsv")
    path.write_text("gene\t" + "\t".join(f"heat_{t}min" for t in range(5, 125, 5)) + "\n" + path.read_text())
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    _upload(at, path, transpose=False)
    listed = "\n".join(i.lower() for i in ids[:8]).encode()
    at.file_uploader(key=state.W_REGULATOR_FILE).set_value(("tfs.txt", listed, "text/plain"))
    at.button(key=state.W_APPLY).click().run()
    refused = [e for e in texts(at.error) if "Settings not applied" in e]
    assert refused and "8 of them label the data's rows" in refused[0]
    at.button(key="w_home_transpose").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    names = session.dataset.names
    assert session.transposed and session.regulators == ids[:8]
    assert [names[i] for i in session.stepper.cols] == sorted(ids[:8], key=names.index)
    assert any("applied to the turned data: 8 of 8 listed names found" in t for t in texts(at.sidebar.info))


def test_a_second_file_the_wrong_way_round_keeps_the_list_for_its_transpose(tmp_path):
    """Newcomer walk of session 25: a second file, genes in rows again, removed the regulator list ("none of
    its names is a variable") before its Transpose, so it had to be uploaded again. Its names label the
    new file's rows: kept, not applied, and applied by the Transpose."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    for k, name in enumerate(("expr.tsv", "expr2.tsv")):
        path, ids = genes_x_conditions_headerless(tmp_path / name)
        header = "gene\t" + "\t".join(f"heat_{t}min_r{k}" for t in range(5, 125, 5)) + "\n"
        path.write_text(header + path.read_text())
        _upload(at, path, transpose=False)
        if k == 0:
            at.file_uploader(key=state.W_REGULATOR_FILE).set_value(
                ("tfs.txt", "\n".join(ids[:8]).encode(), "text/plain")
            )
            at.button(key=state.W_APPLY).click().run()
            at.button(key="w_home_transpose").click().run()
            assert at.session_state[state.SESSION].regulators == ids[:8]
    assert not at.exception
    notes = texts(at.sidebar.warning)
    assert any("is kept but not applied" in t and "8 of them name its rows" in t for t in notes), notes
    assert not at.session_state[state.SESSION].regulators  # not in force on genes-as-rows data
    at.button(key="w_home_transpose").click().run()
    assert not at.exception
    assert at.session_state[state.SESSION].regulators == ids[:8]
    assert any("applied to the turned data: 8 of 8 listed names found" in t for t in texts(at.sidebar.info))

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

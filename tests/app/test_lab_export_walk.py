"""A newcomer's walk with a lab's export (QA, session 18): no header row, genes in rows, a description
column beside the ids and a few missing cells (empty, ``NA``). Before, the first line (``YAL001W``,
``heat shock protein``, numbers) was taken as the header without a word: the first gene was lost and
the conditions were named by its values (``missing cells in 6.206 (2)``). Now the upload is refused with
the one-click fix, the description is set aside as ``text1`` and the conditions are ``sample1..``;
then Search, Hidden, Accept run without an error."""

from __future__ import annotations

import numpy as np
from conftest import texts

from explorer import sidebar, state

N_GENES, N_CONDITIONS = 40, 14
DESCRIPTIONS = ["heat shock protein", "ribosomal protein L2", "hypothetical protein", "ABC transporter, ATP-binding"]


def lab_export(seed: int = 7) -> bytes:
    """The file of the module docstring: a 10-gene module driven by an unmeasured regulator."""
    rng = np.random.default_rng(seed)
    h = rng.normal(size=N_CONDITIONS)
    values = rng.normal(size=(N_GENES, N_CONDITIONS)) + 8.0
    values[:10] += 1.5 * h
    lines = []
    for g in range(N_GENES):
        cells = [f"{v:.3f}" for v in values[g]]
        if g in (3, 17):
            cells[g % N_CONDITIONS] = ""
        if g == 25:
            cells[5] = "NA"
        lines.append("\t".join([f"YAL{g + 1:03d}W", DESCRIPTIONS[g % len(DESCRIPTIONS)], *cells]))
    return ("\n".join(lines) + "\n").encode()


def test_headerless_export_with_descriptions_load_search_hidden_accept(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("lab_export.tsv", lab_export(), "text/tab-separated-values"))
    app.run()
    assert not app.exception
    said = " ".join(texts(app.sidebar.error))
    assert "no header row" in said and "'YAL001W'" in said and "sample1..sample14" in said
    app.button(key="w_fix_no_header").click().run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert session.dataset.names[0] == "YAL001W" and session.dataset.n_vars == N_GENES  # no gene lost
    assert session.dataset.instance_labels[0] == "sample1" and session.dataset.n_samples == N_CONDITIONS
    assert any("gene annotation: text1" in c for c in texts(app.sidebar.caption))

    app.switch_page("explorer/pages/search.py").run()
    app.button(key=state.W_RUN_ALL).click().run()
    assert not app.exception and any("Converged" in t for t in texts(app.success))

    from explorer.pages import hidden

    app.switch_page("explorer/pages/hidden.py").run()
    assert not app.exception
    if [b for b in app.button if b.key == hidden.KEY_PROPOSE]:
        app.button(key=hidden.KEY_PROPOSE).click().run()
    app.button(key=hidden.KEY_ACCEPT).click().run()
    assert not app.exception and not texts(app.error)
    said = texts(app.success) + texts(app.warning) + texts(app.info)
    assert any(t.startswith("Added H1 as parent of") and "realized change" in t for t in said), said

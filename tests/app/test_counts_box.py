"""A raw RNA-seq count matrix in the explorer: the sidebar and the Search page say the table looks like counts
(library sizes apart, sequencing depth passing for a regulator) and offer "Use log2 CPM", an undoable data
edit with a new search on the engine's log2 CPM; the export's rerun command carries --log-cpm."""

from __future__ import annotations

import numpy as np
from conftest import texts

from engine.io.counts import is_log_cpm, log_cpm
from explorer import export, sidebar, state

N_GENES, N_SAMPLES = 25, 12


def _counts() -> np.ndarray:
    """Samples x genes: a few reads to ~100,000 per gene, libraries 1-5x apart, zeros in the low genes."""
    rng = np.random.default_rng(7)
    base = np.exp(rng.uniform(0, 11, N_GENES))
    depth = rng.uniform(1.0, 5.0, N_SAMPLES)
    counts = rng.poisson(rng.gamma(3.0, np.outer(depth, base) / 3.0)).astype(float)
    counts[:, :2] = rng.poisson(0.4, (N_SAMPLES, 2))
    return counts


def _upload() -> bytes:
    """A featureCounts-like table: genes in rows, one column per sample."""
    counts = _counts().astype(int)
    lines = ["gene_id," + ",".join(f"sample{j + 1}" for j in range(N_SAMPLES))]
    lines += [f"g{i}," + ",".join(str(v) for v in counts[:, i]) for i in range(N_GENES)]
    return ("\n".join(lines) + "\n").encode()


def test_an_uploaded_count_table_is_offered_log2_cpm_in_the_sidebar_and_undone(app):
    app.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    app.radio(key=state.W_ORIENT).set_value(sidebar.ORIENTATIONS[1]).run()
    app.file_uploader(key=state.W_UPLOAD).set_value(("counts.csv", _upload(), "text/csv"))
    app.run()
    assert not app.exception
    session = app.session_state[state.SESSION]
    raw = session.dataset
    assert raw.n_vars == N_GENES and not is_log_cpm(raw)
    warned = [w for w in texts(app.sidebar.warning) if w.startswith("Raw counts?")]
    assert len(warned) == 1 and "library sizes from" in warned[0]

    app.button(key="ip_counts_sidebar").click().run()
    assert not app.exception and not texts(app.error)
    session = app.session_state[state.SESSION]
    assert is_log_cpm(session.dataset) and session.stepper.n_iter == 0  # a new search on them
    np.testing.assert_allclose(session.dataset.values, log_cpm(raw).values)  # the engine's transform
    assert session.notice.startswith("In log2 counts per million")
    assert any(c.startswith("In log2 counts per million") for c in texts(app.sidebar.caption))
    assert not [b for b in app.button if b.key == "ip_counts_sidebar"]  # done: no second offer
    settings = export.export_settings(session)
    assert settings["log_cpm"] is True and "--log-cpm" in export.export_dict(session)["rerun"].split()

    said = session.undo()
    assert "raw counts again" in said
    assert session.dataset is raw and not export.export_settings(session).get("log_cpm")


def test_no_offer_for_data_that_are_not_counts(app):
    """The default sample (flow cytometry intensities): no counts offer in the sidebar."""
    assert not [w for w in texts(app.sidebar.warning) if "Raw counts" in w]
    assert not [b for b in app.button if b.key == "ip_counts_sidebar"]

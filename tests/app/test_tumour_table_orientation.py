"""A tumour table as a cancer lab brings it: gene symbols in rows under a ``gene_symbol`` header, one
column per tumour named by its TCGA barcode, a few ``NA`` cells (walk of session 23, a 2,504 x 172
TCGA-like table). The app read it as 2,504 instances of 172 variables without a word above the fold,
filled the missing cells by structural EM over the 172 tumours (a minute), and its only hint, a grey
load note, pointed to "the Transpose button of the Home page", which is not drawn without a warning."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import APP, TIMEOUT, texts
from streamlit.testing.v1 import AppTest

from engine.synth import random_network, sample
from explorer import load_notes, sidebar, state

N_GENES, N_TUMOURS = 40, 30
BARCODES = [f"TCGA-{'A1 A2 B6 E2 EW'.split()[t % 5]}-{0x1A2B + 97 * t:04X}-01A-11R-A090-13" for t in range(N_TUMOURS)]
SYMBOLS = [f"{s}{i}" for i in range(1, N_GENES // 4 + 1) for s in ("ABHD", "NOP", "CCT", "RRP")]


@pytest.fixture(scope="module")
def tumour_table(tmp_path_factory):
    values = np.asarray(sample(random_network(N_GENES, seed=5), N_TUMOURS, seed=6)) + 8.0  # tumours x genes
    lines = ["gene_symbol\t" + "\t".join(BARCODES)]
    for g, symbol in enumerate(SYMBOLS):
        cells = ["NA" if (g, t) in {(3, 7), (11, 2)} else f"{values[t, g]:.4f}" for t in range(N_TUMOURS)]
        lines.append(symbol + "\t" + "\t".join(cells))
    path = tmp_path_factory.mktemp("tumours") / "brca.tsv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_genes_by_tumours_gets_the_transpose_box_and_no_fill_yet(tumour_table):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    data = (tumour_table.name, tumour_table.read_bytes(), "text/plain")
    at.file_uploader(key=state.W_UPLOAD).set_value(data).run()
    assert not at.exception and not texts(at.error)
    box = " ".join(texts(at.warning))
    assert "These data look the wrong way round" in box and "TCGA-A1-1A2B-01A-11R-A090-13" in box
    assert at.session_state[state.SESSION].prepared.pending  # no structural EM over the tumours as variables
    at.button(key="w_home_transpose").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    assert (session.dataset.n_samples, session.dataset.n_vars) == (N_TUMOURS, N_GENES)
    assert list(session.dataset.instance_labels) == BARCODES


def test_the_label_note_names_a_control_that_is_always_there():
    """Without a warning box there is no Transpose button: the note points to the sidebar's radio."""
    note = (
        "used the first column 'gene_symbol' as instance labels (if the variables are in rows, "
        "e.g. genes x conditions, load with transpose: CLI --transpose)"
    )
    words = load_notes.in_app_words(note)
    assert "'variables in rows (transpose)' under Orientation" in words and "CLI" not in words
    assert "Transpose button" not in words

"""Missing cells in a genes x conditions file turned round (the Transpose button, or ``--transpose``):
the cells are filled on the data as the search sees them, from the file's own cells, the app names
each filled cell, and the CLI reports the same cells of the same file on the same scale."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import APP, TIMEOUT, texts
from genes_table import write_genes_x_conditions
from streamlit.testing.v1 import AppTest

from engine.cli import main
from engine.io import MAX_MISSING, filled_cells, load_table, transpose_dataset
from engine.learn_em import complete_missing
from engine.synth import random_network, sample
from explorer import export, prepared, sidebar, state

#: (gene, condition) of the cells written NA; two in one gene
HOLES = ((2, 4), (2, 17), (7, 0), (10, 25))
LAB = {"drop_non_numeric": True, "drop_constant": True, "rename_repeats": True, "max_missing": MAX_MISSING}


@pytest.fixture(scope="module")
def genes_x_conditions(tmp_path_factory):
    """12 genes (rows, a gene_id column) x 30 named conditions, 4 cells NA."""
    values = np.asarray(sample(random_network(12, seed=21), 30, seed=22)) + 8.0  # conditions x genes
    path = tmp_path_factory.mktemp("holes") / "expr.tsv"
    genes, conditions = write_genes_x_conditions(path, values, HOLES)
    return path, [(genes[g], conditions[c]) for g, c in sorted(HOLES, key=lambda h: (h[1], h[0]))]


def test_transpose_fills_from_the_file_and_agrees_with_the_cli(genes_x_conditions, tmp_path, capsys):
    path, holes = genes_x_conditions
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    at.file_uploader(key=state.W_UPLOAD).set_value((path.name, path.read_bytes(), "text/plain")).run()
    assert not at.exception
    before = at.session_state[state.SESSION].prepared  # as uploaded: 30 conditions are the variables
    at.button(key="w_home_transpose").click().run()
    assert not at.exception and not texts(at.error)
    session = at.session_state[state.SESSION]
    cells = session.prepared.cells()
    assert [(c["variable"], c["instance"]) for c in cells] == holes  # named gene at condition
    # filled on the data as the search sees them: as if the file had been read turned round ...
    direct = load_table(path, transpose=True, standardize=True, **LAB)
    once = complete_missing(direct, session.settings, max_iter=prepared.EM_ITERATIONS).dataset
    assert [c["value"] for c in cells] == pytest.approx([c["value"] for c in filled_cells(direct, once.values)])
    # ... never from the values filled before the transpose
    stale = transpose_dataset(before.searched)
    rows, cols = np.nonzero(direct.missing)
    assert not np.allclose(stale.original_values()[rows, cols], [c["value"] for c in cells], atol=1e-6)
    banner = " ".join(texts(at.info))
    assert "after the transpose, from the file's own cells" in banner
    assert f"{holes[0][0]} at {holes[0][1]} = " in banner
    assert export.export_dict(session)["missing_cells"] == cells  # the export names them too
    # the CLI on the same file: the same scale and the same cells, filled by structural EM run on
    # to convergence (the app stops after EM_ITERATIONS): near the app's values
    out = tmp_path / "cli.json"
    assert main(["learn", str(path), "--transpose", "--skip-unusable", "--number-repeats", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    means = result["transform"]["means"]
    assert [means[v] for v in session.dataset.names] == pytest.approx(list(session.dataset.means))
    cli = result["missing_cells"]
    assert [(c["variable"], c["instance"]) for c in cli] == holes
    sd = {v: session.dataset.scales[i] for i, v in enumerate(session.dataset.names)}
    gaps = [abs(a["value"] - b["value"]) / sd[a["variable"]] for a, b in zip(cli, cells, strict=True)]
    assert max(gaps) < 0.25  # in SDs of the gene; 0.07 at most here
    assert (
        f"filled 4 missing cell(s), on the file's scale: {holes[0][0]} at {holes[0][1]} = " in capsys.readouterr().err
    )


def test_more_filled_cells_than_the_banner_names_are_in_a_table(tmp_path):
    """The banner names the first few filled cells; all of them are in a table under it."""
    rng = np.random.default_rng(3)
    values = rng.normal(size=(40, 5)).round(3).astype(object)
    holes = [(r, r % 5) for r in range(2, 34, 4)]  # 8 cells, rows 3, 7, ... (1-based)
    for r, c in holes:
        values[r, c] = ""
    csv = "a,b,c,d,e\n" + "\n".join(",".join(str(v) for v in row) for row in values) + "\n"
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()
    at.radio(key=state.W_SOURCE).set_value(sidebar.SOURCES[1]).run()
    at.file_uploader(key=state.W_UPLOAD).set_value(("holes.csv", csv.encode(), "text/csv")).run()
    assert not at.exception
    banner = " ".join(texts(at.info))
    assert "c at row 3 = " in banner and f"and {8 - prepared.SHOWN_CELLS} more (listed below)" in banner
    assert any(e.label == "The 8 filled cells" for e in at.expander)
    table = next(d.value for d in at.dataframe if "instance" in d.value.columns)
    assert list(table.columns) == ["variable", "instance", "value"] and len(table) == 8
    assert [(v, i) for v, i in zip(table["variable"], table["instance"], strict=True)] == [
        ("abcde"[c], f"row {r + 1}") for r, c in holes
    ]

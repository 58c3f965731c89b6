"""engine.io.orientation on a tumour table: TCGA (and TARGET, GTEx) barcodes are sample names
(walk of session 23: a 2,504 genes x 172 tumours table with ``gene_symbol`` rows and TCGA barcode
columns was read as 2,504 instances of 172 variables with no warning, because a barcode has letters and
digits and so counted as an id like a gene symbol)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.io import from_frame, orientation_warning
from engine.io.orientation import looks_sample_like

BARCODES = [f"TCGA-A{i % 9}-{1000 + 37 * i:04X}-01A-11R-A090-13" for i in range(40)]
SYMBOLS = [f"{s}{i}" for i in range(1, 21) for s in ("ABHD", "NOP")]


def _frame(rows: list[str], columns: list[str], label: str) -> pd.DataFrame:
    values = np.random.default_rng(0).normal(size=(len(rows), len(columns)))
    frame = pd.DataFrame(values, columns=columns)
    frame.insert(0, label, rows)
    return frame


def test_barcodes_read_as_sample_names():
    for s in (BARCODES[0], "TCGA-A1-07M5", "TCGA.A1.07M5.01A", "TARGET-10-PAKSWW-03A", "GTEX-1117F-0226-SM-5GZZ7"):
        assert looks_sample_like(s), s
    for s in ("TCF21", "TFAP4", "TAGLN", "TCGA", "GTEX1"):
        assert not looks_sample_like(s), s


def test_genes_by_tumours_warns():
    warning = orientation_warning(from_frame(_frame(SYMBOLS, BARCODES, "gene_symbol")))
    assert warning is not None and (warning.n_rows, warning.n_cols) == (40, 40)
    assert "TCGA-A0-03E8-01A-11R-A090-13" in warning.reason and "sample names" in warning.reason


def test_tumours_by_genes_gets_no_warning():
    """The same table the right way round (tumours in rows) is left alone."""
    assert orientation_warning(from_frame(_frame(BARCODES, SYMBOLS, "sample"))) is None

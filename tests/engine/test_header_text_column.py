"""A lab export without a header whose rows carry a text column beside the gene id (QA walk, session
18): ``YAL001W<TAB>heat shock protein<TAB>7.973<TAB>...``. The header check skipped only the leading
id cell, met the description's text and took the line as names: the first gene was lost and the
conditions were named by its values (``missing cells in 6.206 (2)``). A text cell over a text column
of the body is skipped like the id; a header of names over numeric columns still passes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.io import HeaderlessFileError, load_table
from engine.io.header import data_in_header


def _export(path, n_genes: int = 12, m: int = 6):
    rng = np.random.default_rng(0)
    words = ["heat shock protein", "ribosomal protein L2", "hypothetical protein"]
    lines = [
        "\t".join([f"YAL{g + 1:03d}W", words[g % 3]] + [f"{v:.3f}" for v in rng.normal(8, 1, m)])
        for g in range(n_genes)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_first_line_with_a_description_is_data(tmp_path):
    path = _export(tmp_path / "export.tsv")
    with pytest.raises(HeaderlessFileError, match=r"YAL001W, heat shock …, .* holds 6 numbers"):
        load_table(path, transpose=True)
    with pytest.raises(HeaderlessFileError, match=r"named sample1\.\.sample6\."):  # the 6 conditions
        load_table(path, transpose=True)
    ds = load_table(path, transpose=True, no_header=True, drop=["text1"])
    assert ds.n_vars == 12 and ds.names[0] == "YAL001W"  # the first gene kept
    assert ds.instance_labels == tuple(f"sample{i}" for i in range(1, 7))  # the conditions from sample1
    assert any("(a text column named text1)" in n for n in ds.notes)
    wide = load_table(path, no_header=True, drop=["text1"])  # genes as instances: conditions V1..V6
    assert wide.names == tuple(f"V{i}" for i in range(1, 7))


def test_names_over_numeric_columns_still_pass():
    body = pd.DataFrame([[1.5, 2.5, 3.5, 4.5, 5.5]] * 3)
    assert data_in_header(["gene", "treatment", "0.5", "1.5", "2"], body) is None  # text over numbers: names
    text = pd.DataFrame([["g1", "a kinase", 1.5, 2.5, 3.5]] * 3)
    assert data_in_header(["gene", "descr", "s1", "s2", "s3"], text) is None
    assert "holds 3 numbers" in data_in_header(["g0", "a protein", "7.1", "6.2", "9.3"], text)

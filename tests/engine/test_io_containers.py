"""Tables held in other files (engine.io.containers): GEO series matrices, gzip-compressed or not."""

from __future__ import annotations

import gzip
import io

import numpy as np
import pytest

from engine.cli import main
from engine.exceptions import DataValidationError
from engine.io import load_table
from engine.io.containers import series_matrix_table


def _series_matrix(
    n_genes: int = 12, samples: tuple[str, ...] = ("GSM1", "GSM2", "GSM3", "GSM4", "GSM5")
) -> tuple[str, np.ndarray]:
    rng = np.random.default_rng(3)
    values = rng.normal(size=(n_genes, len(samples))).round(3)
    head = [
        '!Series_title\t"Heat shock time course"',
        '!Series_geo_accession\t"GSE0001"',
        "!Sample_title\t" + "\t".join(f'"{s} title"' for s in samples),
        "!series_matrix_table_begin",
        '"ID_REF"\t' + "\t".join(f'"{s}"' for s in samples),
    ]
    rows = [f'"G{g}"\t' + "\t".join(str(v) for v in values[g]) for g in range(n_genes)]
    return "\n".join([*head, *rows, "!series_matrix_table_end", ""]), values


def test_table_between_the_markers():
    text, _ = _series_matrix(3)
    table = series_matrix_table(text.encode()).decode()
    assert table.splitlines()[0].startswith('"ID_REF"')
    assert len(table.splitlines()) == 4 and "!" not in table
    assert series_matrix_table(b"a,b\n1,2\n") is None
    assert series_matrix_table(b"!just a comment\na,b\n1,2\n") is None


@pytest.mark.parametrize("compressed", [False, True])
def test_series_matrix_loads_genes_by_samples_with_transpose(tmp_path, compressed):
    """GEO's GSE*_series_matrix.txt.gz: probes in rows, samples in columns; with transpose each
    sample is an instance and each probe a variable, the values exactly the file's."""
    text, values = _series_matrix()
    name = "GSE0001_series_matrix.txt" + (".gz" if compressed else "")
    path = tmp_path / name
    path.write_bytes(gzip.compress(text.encode()) if compressed else text.encode())
    data = load_table(path, transpose=True, standardize=False)
    assert list(data.names) == [f"G{g}" for g in range(12)]
    assert list(data.instance_labels) == ["GSM1", "GSM2", "GSM3", "GSM4", "GSM5"]
    np.testing.assert_array_equal(data.values, values.T)
    upload = load_table(io.BytesIO(path.read_bytes()), name=name, transpose=True, standardize=False)
    np.testing.assert_array_equal(upload.values, values.T)


def test_series_matrix_without_rows_names_the_file(tmp_path, capsys):
    path = tmp_path / "GSE0002_series_matrix.txt.gz"
    path.write_bytes(gzip.compress(b'!Series_title\t"x"\n!series_matrix_table_begin\n!series_matrix_table_end\n'))
    with pytest.raises(DataValidationError, match=r"^GSE0002_series_matrix.txt.gz: "):
        load_table(path)
    assert main(["learn", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: GSE0002_series_matrix.txt.gz: ") and err.count("\n") == 1


def test_a_series_matrix_cut_off_at_the_begin_marker_is_one_error(tmp_path, capsys):
    """A download that stops right after ``!series_matrix_table_begin`` (no line end): no table,
    one line naming the file (the whole file was taken for its own table, read again and again)."""
    raw = b'!Series_title\t"x"\n!series_matrix_table_begin'
    with pytest.raises(DataValidationError, match="no data rows"):
        series_matrix_table(raw)
    path = tmp_path / "GSE0003_series_matrix.txt"
    path.write_bytes(raw)
    with pytest.raises(DataValidationError, match=r"^GSE0003_series_matrix.txt: "):
        load_table(path)
    assert main(["learn", str(path)]) == 2
    assert capsys.readouterr().err.startswith("error: GSE0003_series_matrix.txt: ")


@pytest.mark.parametrize("table", ["", '"ID_REF"\t"GSM1"\t"GSM2"\n'])
def test_a_series_matrix_without_data_rows_says_so(tmp_path, table):
    """GEO's RNA-seq series publish a matrix whose table is empty or a header only (the counts are in
    supplementary files): said as such, not as an empty file or a single line to read with --no-header."""
    text = f'!Series_title\t"x"\n!series_matrix_table_begin\n{table}!series_matrix_table_end\n'
    path = tmp_path / "GSE0004_series_matrix.txt.gz"
    path.write_bytes(gzip.compress(text.encode()))
    with pytest.raises(
        DataValidationError, match=r"^GSE0004_series_matrix.txt.gz: .*series matrix.*no data rows"
    ) as err:
        load_table(path)
    assert "--no-header" not in str(err.value) and "the file is empty" not in str(err.value)


@pytest.mark.parametrize("compressed", [False, True])
@pytest.mark.parametrize("short_row", [False, True])
def test_lone_carriage_returns_end_lines(tmp_path, compressed, short_row):
    """An R/old-Mac export whose lines end in a lone CR (the Inferelator's B. subtilis table, #22) is
    read as the table it is, with or without a short row, gzip-compressed or not."""
    rows = [
        '\t"S1"\t"S2"\t"S3"',
        '"G1"\t1.5\t2.5\t3.5',
        '"G2"\t4\t5\t6.25',
        '"G3"\t7\t8' + ("" if short_row else "\t9"),
    ]
    raw = "\r".join(rows).encode()
    path = tmp_path / ("expr.tsv.gz" if compressed else "expr.tsv")
    path.write_bytes(gzip.compress(raw) if compressed else raw)
    ds = load_table(path, transpose=True, standardize=False)
    assert ds.names == ("G1", "G2", "G3") and ds.instance_labels == ("S1", "S2", "S3")
    np.testing.assert_array_equal(ds.values[:, 0], [1.5, 2.5, 3.5])
    np.testing.assert_array_equal(ds.values[:2, 2], [7, 8])
    assert np.isnan(ds.values[2, 2]) == short_row

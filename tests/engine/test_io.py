"""engine.io: reading files and DataFrames (formats, orientation, labels, missing cells, notes).

One test per case. Every bad input must raise DataValidationError (never a bare pandas/numpy error)
with a message that names the problem, and the caller's data must come out untouched.
"""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pandas as pd
import pytest

from engine.data import Dataset
from engine.exceptions import DataValidationError
from engine.io import from_frame, load_table, orientation_warning, read_table, transpose_dataset
from engine.io.orientation import looks_gene_like, looks_sample_like

ABC = "a,b,c\n1,2,3\n4,5,7\n7,9,8\n2,0,1\n"
EXPECTED_ABC = np.array([[1, 2, 3], [4, 5, 7], [7, 9, 8], [2, 0, 1]], dtype=float)


def write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def load_raw(path, **kw) -> Dataset:
    return load_table(path, standardize=False, **kw)


# --------------------------------------------------------------------------- formats


def test_csv(tmp_path):
    ds = load_raw(write(tmp_path, "data.csv", ABC))
    assert ds.names == ("a", "b", "c")
    assert ds.values.dtype == np.float64
    np.testing.assert_array_equal(ds.values, EXPECTED_ABC)
    assert not ds.has_missing
    assert ds.instance_labels is None
    assert ds.source == "data.csv"


def test_tsv(tmp_path):
    ds = load_raw(write(tmp_path, "data.tsv", ABC.replace(",", "\t")))
    assert ds.names == ("a", "b", "c")
    np.testing.assert_array_equal(ds.values, EXPECTED_ABC)


def test_whitespace_text(tmp_path):
    text = "a   b c\n1 2   3\n4  5 7\n7 9 8\n2 0\t1\n"
    ds = load_raw(write(tmp_path, "data.txt", text))
    assert ds.names == ("a", "b", "c")
    np.testing.assert_array_equal(ds.values, EXPECTED_ABC)


def test_semicolon_csv(tmp_path):
    ds = load_raw(write(tmp_path, "data.csv", ABC.replace(",", ";")))
    assert ds.names == ("a", "b", "c")
    np.testing.assert_array_equal(ds.values, EXPECTED_ABC)


def test_csv_with_crlf_and_bom(tmp_path):
    ds = load_raw(write(tmp_path, "data.csv", ("\ufeff" + ABC).replace("\n", "\r\n")))
    assert ds.names == ("a", "b", "c")
    np.testing.assert_array_equal(ds.values, EXPECTED_ABC)


def test_excel_round_trip(tmp_path):
    pytest.importorskip("openpyxl")
    frame = pd.DataFrame({"4": [1.5, 2.0, 3.25, 4.0], "YR.GLASS": [1.0, np.nan, 2.0, 5.5], "a b": [3, 1, 2, 0]})
    path = tmp_path / "data.xlsx"
    frame.to_excel(path, index=False)
    ds = load_raw(path)
    assert ds.names == ("4", "YR.GLASS", "a b")
    np.testing.assert_array_equal(ds.values, frame.to_numpy(dtype=float))
    assert ds.missing.tolist() == frame.isna().to_numpy().tolist()


def test_open_file_object(tmp_path):
    path = write(tmp_path, "data.csv", ABC)
    with path.open("rb") as fh:
        ds = load_table(fh, standardize=False, name="upload.csv")
    assert ds.names == ("a", "b", "c")
    assert ds.source == "upload.csv"
    np.testing.assert_array_equal(ds.values, EXPECTED_ABC)


# --------------------------------------------------------------------------- orientation, labels


def test_transpose_genes_by_conditions(tmp_path):
    text = "gene,heat1,heat2,cold1,cold2\nYAL001C,1.0,2.0,3.0,4.0\nYAL002W,2.0,1.0,4.0,4.5\nYAL003W,0.5,5.0,3.0,1.0\n"
    ds = load_raw(write(tmp_path, "expr.csv", text), transpose=True)
    assert ds.names == ("YAL001C", "YAL002W", "YAL003W")
    assert ds.instance_labels == ("heat1", "heat2", "cold1", "cold2")
    assert ds.values.shape == (4, 3)
    np.testing.assert_array_equal(ds.values[:, 1], [2.0, 1.0, 4.0, 4.5])
    assert any("transposed" in n for n in ds.notes)


def test_transpose_with_digit_gene_ids_and_explicit_label_column(tmp_path):
    # digit ids look like numbers, so "auto" cannot tell them from data: name the column
    text = "gene,c1,c2,c3,c4\n4,1,2,3,4\n8,2,1,4,4\n13,0,5,3,1\n"
    ds = load_raw(write(tmp_path, "expr.csv", text), transpose=True, label_column="gene")
    assert ds.names == ("4", "8", "13")
    assert ds.instance_labels == ("c1", "c2", "c3", "c4")
    np.testing.assert_array_equal(ds.values[:, 2], [0, 5, 3, 1])


def test_label_column_auto_detected(tmp_path):
    text = "sample,x,y\ns1,1,2\ns2,3,5\ns3,4,4\ns4,0,1\n"
    ds = load_raw(write(tmp_path, "data.csv", text))
    assert ds.names == ("x", "y")
    assert ds.instance_labels == ("s1", "s2", "s3", "s4")
    # an unnamed first column (a pandas index written with to_csv) is labels too
    frame = pd.DataFrame({"x": [1.0, 3, 4, 0], "y": [2.0, 5, 4, 1]}, index=list("pqrs"))
    frame.to_csv(tmp_path / "indexed.csv")
    ds2 = load_raw(tmp_path / "indexed.csv")
    assert ds2.names == ("x", "y")
    assert ds2.instance_labels == ("p", "q", "r", "s")
    # a numeric first column is data, and label_column=None turns detection off
    assert load_raw(write(tmp_path, "plain.csv", ABC)).names == ("a", "b", "c")
    with pytest.raises(DataValidationError, match="'sample'"):
        load_raw(tmp_path / "data.csv", label_column=None)


def test_odd_and_digit_names_kept_as_labels(tmp_path):
    text = "YR.GLASS,1B,a b,0,4,007\n1,2,3,4,5,6\n2,3,1,5,1,0\n3,1,2,9,2,2\n4,4,4,0,3,1\n"
    ds = load_raw(write(tmp_path, "odd.csv", text))
    assert ds.names == ("YR.GLASS", "1B", "a b", "0", "4", "007")
    assert all(isinstance(n, str) for n in ds.names)
    assert ds.index("0") == 3 and ds.index("007") == 5
    assert ds.to_frame().columns.tolist() == list(ds.names)
    # the same through from_frame with non-string column labels
    frame = pd.DataFrame([[1.0, 2.0], [2.0, 0.0], [3.0, 5.0]], columns=[0, 4])
    assert from_frame(frame).names == ("0", "4")


def test_sample_arth150_names_stay_strings(sample_dir):
    ds = load_table(sample_dir / "arth150_sample.csv")
    assert ds.values.shape == (1000, 107)
    assert ds.names[:3] == ("4", "8", "13")
    assert ds.instance_labels is None


# --------------------------------------------------------------------------- standardize, missing


def test_standardize_on(tmp_path):
    ds = load_table(write(tmp_path, "data.csv", ABC))
    assert ds.standardized
    np.testing.assert_allclose(ds.values.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(ds.values.var(axis=0), 1.0, rtol=1e-12)
    np.testing.assert_allclose(ds.means, EXPECTED_ABC.mean(axis=0))
    np.testing.assert_allclose(ds.scales, EXPECTED_ABC.std(axis=0))
    np.testing.assert_allclose(ds.original_values(), EXPECTED_ABC, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ds.to_frame(original=True).to_numpy(), EXPECTED_ABC, atol=1e-12)


def test_standardize_off(tmp_path):
    ds = load_table(write(tmp_path, "data.csv", ABC), standardize=False)
    assert not ds.standardized
    np.testing.assert_array_equal(ds.values, EXPECTED_ABC)
    np.testing.assert_array_equal(ds.means, 0.0)
    np.testing.assert_array_equal(ds.scales, 1.0)
    np.testing.assert_array_equal(ds.original_values(), EXPECTED_ABC)


def test_missing_cells_kept_as_nan_and_flagged(tmp_path):
    text = "a,b,c\n1,NA,3\n4,,7\n7,?,8\n2,3,NaN\n5,6,9\n0,1,2\n"
    ds = load_table(write(tmp_path, "data.csv", text))
    expected = np.zeros((6, 3), dtype=bool)
    expected[[0, 1, 2], 1] = True
    expected[3, 2] = True
    np.testing.assert_array_equal(ds.missing, expected)
    np.testing.assert_array_equal(np.isnan(ds.values), expected)
    assert ds.has_missing
    assert "4 missing cells" in ds.summary()
    # standardized over the observed cells only
    np.testing.assert_allclose(np.nanmean(ds.values, axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(np.nanvar(ds.values, axis=0), 1.0, rtol=1e-12)


def test_dataset_is_read_only(tmp_path):
    ds = load_table(write(tmp_path, "data.csv", ABC))
    with pytest.raises(ValueError):
        ds.values[0, 0] = 99.0
    with pytest.raises(ValueError):
        ds.missing[0, 0] = True


# --------------------------------------------------------------------------- the caller's data


def test_from_frame_does_not_modify_callers_frame():
    frame = pd.DataFrame(
        {
            " id ": ["r1", "r2", "r3", "r4"],
            "x ": [1.0, 2.0, np.nan, 4.0],
            "y": ["1", "NA", "3", "5"],
        }
    )
    before = frame.copy(deep=True)
    ds = from_frame(frame, drop=[])
    assert ds.names == ("x", "y")
    assert ds.instance_labels == ("r1", "r2", "r3", "r4")
    pd.testing.assert_frame_equal(frame, before)
    assert frame.columns.tolist() == [" id ", "x ", "y"]


# --------------------------------------------------------------------------- bad input


def test_non_numeric_column_named(tmp_path):
    text = "a,b,c\n1,x,3\n4,y,7\n7,z,8\n"
    with pytest.raises(DataValidationError, match=r"non-numeric column\(s\) 'b'"):
        load_table(write(tmp_path, "data.csv", text))


def test_constant_column_named(tmp_path):
    text = "a,flat,c\n1,5,3\n4,5,7\n7,5,8\n"
    with pytest.raises(DataValidationError, match=r"'flat'.*constant"):
        load_table(write(tmp_path, "data.csv", text))


def test_duplicate_names_in_file_named(tmp_path):
    text = "a,a,c\n1,2,3\n4,5,7\n7,9,8\n"
    with pytest.raises(DataValidationError, match=r"duplicate.*'a'"):
        load_table(write(tmp_path, "data.csv", text))


@pytest.mark.parametrize("columns", [["a", "b", "b"], ["a", "b", "b "], ["a", "b", "a"]])
def test_duplicate_names_in_frame_named(columns):
    frame = pd.DataFrame([[1.0, 2.0, 3.0], [3.0, 1.0, 2.0], [4.0, 4.0, 1.0]], columns=columns)
    with pytest.raises(DataValidationError, match="duplicate"):
        from_frame(frame)


def test_too_few_rows(tmp_path):
    with pytest.raises(DataValidationError, match=r"2 instance\(s\).*at least 3"):
        load_table(write(tmp_path, "data.csv", "a,b\n1,2\n3,4\n"))


def test_infinities_column_named(tmp_path):
    text = "a,spike,c\n1,2,3\n4,inf,7\n7,9,8\n"
    with pytest.raises(DataValidationError, match=r"'spike'.*infinite"):
        load_table(write(tmp_path, "data.csv", text))


def test_empty_file(tmp_path):
    with pytest.raises(DataValidationError, match="empty"):
        load_table(write(tmp_path, "data.csv", ""))


def test_blank_file(tmp_path):
    with pytest.raises(DataValidationError, match="empty"):
        load_table(write(tmp_path, "data.csv", " \n\n  \n"))


def test_binary_file(tmp_path):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06" + bytes(64)
    with pytest.raises(DataValidationError, match="binary"):
        load_table(write(tmp_path, "picture.png", png))
    with pytest.raises(DataValidationError, match="binary"):
        load_table(write(tmp_path, "renamed.csv", png))


def test_html_file(tmp_path):
    page = "<!DOCTYPE html>\n<html><body><table><tr><td>1</td></tr></table></body></html>\n"
    with pytest.raises(DataValidationError, match="HTML"):
        load_table(write(tmp_path, "download.csv", page))


def test_single_text_column(tmp_path):
    with pytest.raises(DataValidationError, match="single text column"):
        load_table(write(tmp_path, "genes.txt", "gene\nYAL001C\nYAL002W\nYAL003W\n"))
    # prose with ragged spaces is not a table either
    with pytest.raises(DataValidationError, match="could not be read as a table"):
        load_table(write(tmp_path, "notes.txt", "hello\nworld\nthis is\nnot a table\n"))


def test_missing_path(tmp_path):
    with pytest.raises(DataValidationError, match=r"nowhere\.csv: file not found"):
        load_table(tmp_path / "nowhere.csv")


def test_folder_instead_of_file(tmp_path):
    with pytest.raises(DataValidationError, match="folder"):
        load_table(tmp_path)


def test_all_missing_column_named(tmp_path):
    text = "a,gone,c\n1,NA,3\n4,,7\n7,?,8\n"
    with pytest.raises(DataValidationError, match=r"'gone'.*no observed values"):
        load_table(write(tmp_path, "data.csv", text))


def test_not_a_frame():
    with pytest.raises(DataValidationError, match="not a table"):
        from_frame([[1, 2], [3, 4]])  # type: ignore[arg-type]


def test_decimal_commas_are_read(tmp_path):
    """European exports: ';' separators and decimal commas."""
    ds = load_raw(write(tmp_path, "eu.csv", "a;b;c\n1,5;2,25;3\n2,0;1,0;4\n3,5;0,5;1\n-1,5;2,0;2\n"))
    assert ds.names == ("a", "b", "c")
    np.testing.assert_allclose(ds.values[:, 0], [1.5, 2.0, 3.5, -1.5])
    assert any("decimal commas" in n for n in ds.notes)


def test_drop_non_numeric_leaves_out_text_columns(tmp_path):
    path = write(tmp_path, "field.csv", "x,site,y\n1,north,2\n2,south,3\n3,east,1\n4,west,5\n")
    with pytest.raises(DataValidationError, match="'site'"):
        load_table(path)
    ds = load_table(path, drop_non_numeric=True)
    assert ds.names == ("x", "y")
    assert any("left out non-numeric column(s) site" in n for n in ds.notes)


# ----------------------------------------------------------- review findings (session 3)


def _genes_file(tmp_path, *, constant_gene: bool = False):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.standard_normal((12, 8)), columns=[f"c{i}" for i in range(8)])
    frame.insert(0, "gene_id", [f"G{i}" for i in range(12)])
    frame["annotation"] = ["TF"] * 12
    if constant_gene:
        frame.iloc[5, 1:9] = 2.0
    path = tmp_path / "genes.csv"
    frame.to_csv(path, index=False)
    return path


def test_transposed_text_column_is_named_and_can_be_left_out(tmp_path):
    path = _genes_file(tmp_path)
    with pytest.raises(DataValidationError, match=r"'annotation' hold text.*--drop annotation"):
        load_table(path, transpose=True)
    ds = load_table(path, transpose=True, drop_non_numeric=True)
    assert ds.names[:2] == ("G0", "G1") and ds.n_vars == 12 and ds.n_samples == 8
    assert any("annotation" in n for n in ds.notes)


def test_drop_names_a_variable_in_rows(tmp_path):
    path = _genes_file(tmp_path, constant_gene=True)
    with pytest.raises(DataValidationError, match=r"variable\(s\) 'G5' are constant"):
        load_table(path, transpose=True, drop=["annotation"])
    ds = load_table(path, transpose=True, drop=["annotation", "G5"])
    assert "G5" not in ds.names and ds.n_vars == 11
    with pytest.raises(DataValidationError, match="no such column or variable"):
        load_table(path, transpose=True, drop=["annotation", "G99"])


def test_drop_names_an_instance_in_rows_of_a_samples_in_rows_file(tmp_path):
    """A failed array in a samples-in-rows file is left out by its label; the data otherwise unchanged."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(9, 4))
    frame = pd.DataFrame(x, columns=["A", "B", "C", "D"])
    frame.insert(0, "sample", [f"GSM{i}" for i in range(9)])
    path = tmp_path / "samples.csv"
    frame.to_csv(path, index=False)
    ds = load_table(path, drop=["GSM4", "D"], standardize=False)
    assert ds.instance_labels == tuple(f"GSM{i}" for i in range(9) if i != 4)
    assert ds.names == ("A", "B", "C")
    np.testing.assert_array_equal(ds.values, np.delete(x, 4, axis=0)[:, :3])
    assert any("dropped instance(s) GSM4" in n for n in ds.notes)
    with pytest.raises(DataValidationError, match=r"'GSM99': no such column or instance"):
        load_table(path, drop=["GSM99"])
    frame.drop(columns="sample").to_csv(path, index=False)  # no labels: nothing to drop a row by
    with pytest.raises(DataValidationError, match="the rows have no labels"):
        load_table(path, drop=["GSM4"])


def test_drop_constant_leaves_constant_variables_out_with_a_note(tmp_path):
    path = _genes_file(tmp_path, constant_gene=True)
    ds = load_table(path, transpose=True, drop_non_numeric=True, drop_constant=True)
    assert "G5" not in ds.names and ds.n_vars == 11
    assert any("constant variable(s) G5" in n for n in ds.notes)


def test_dropping_every_column_is_a_clear_error(tmp_path):
    path = write(tmp_path, "abc.csv", ABC)
    with pytest.raises(DataValidationError, match="leaves no column"):
        load_table(path, drop=["a", "b", "c"])


def test_values_too_large_for_double_precision(tmp_path):
    path = write(tmp_path, "huge.csv", "a,b\n1,1e300\n2,3e300\n3,-2e300\n4,5e299\n")
    for standardize in (True, False):
        with pytest.raises(DataValidationError, match="'b' have values beyond"):
            load_table(path, standardize=standardize)


def test_first_infinite_cell_in_reading_order(tmp_path):
    path = write(tmp_path, "inf.csv", "w,x\n1,2\n2,inf\n3,4\ninf,5\n")
    with pytest.raises(DataValidationError, match=r"instance 2 of 'x'"):
        load_table(path)


def test_identical_columns_get_a_note(tmp_path):
    path = write(tmp_path, "dup.csv", "a,b,c\n1,2,1\n4,5,4\n7,9,7\n2,0,2\n")
    ds = load_table(path)
    assert any("'a', 'c' have identical values" in n for n in ds.notes)


def test_scoring_mode_accepts_one_row_and_constant_columns(tmp_path):
    path = write(tmp_path, "one.csv", "a,b\n1,2\n")
    with pytest.raises(DataValidationError, match="at least 3"):
        load_table(path)
    ds = load_table(path, standardize=False, min_samples=1, allow_constant=True)
    assert ds.n_samples == 1


def test_numeric_first_row_is_refused_with_the_fix(tmp_path):
    # #24: a first line of numbers is data, not a header (engine/io/header.py; tests/engine/test_header.py)
    path = write(tmp_path, "nohead.csv", "0.1,0.2,0.3\n1,2,3\n2,3,1\n3,1,2\n4,4,4.5\n")
    with pytest.raises(DataValidationError, match="no header row.*--no-header"):
        load_table(path)
    assert load_table(path, no_header=True).n_samples == 5
    assert not any("header" in n for n in load_table(write(tmp_path, "abc.csv", ABC)).notes)


def test_row_number_column_is_a_label_not_a_variable(tmp_path):
    ds = load_table(write(tmp_path, "id.csv", "id,a,b\n1,0.3,2\n2,0.5,1\n3,0.1,7\n4,0.9,3\n"))
    assert ds.names == ("a", "b") and ds.instance_labels == ("1", "2", "3", "4")
    # an 'id' column that is not a row number stays a variable
    ds = load_table(write(tmp_path, "id2.csv", "id,a,b\n5,0.3,2\n2,0.5,1\n9,0.1,7\n4,0.9,3\n"))
    assert ds.names == ("id", "a", "b")


def test_numeric_headers_of_transposed_files_are_conditions(tmp_path):
    path = write(tmp_path, "time.csv", "gene,0,30,60,90\ng1,1,2,3,5\ng2,2,1,4,3\ng3,5,3,1,2\n")
    ds = load_table(path, transpose=True)
    assert ds.names == ("g1", "g2", "g3")
    assert not any("holds numbers" in n for n in ds.notes)


def test_short_rows_are_noted(tmp_path):
    ds = load_table(write(tmp_path, "ragged.csv", "a,b,c\n1,2,3\n4,5\n7,9,8\n2,0,1\n"), standardize=False)
    assert np.isnan(ds.values[1, 2])
    assert any("line(s) 3 of the file have fewer cells" in n for n in ds.notes)
    assert not any("fewer cells" in n for n in load_table(write(tmp_path, "abc.csv", ABC)).notes)


# ----------------------------------------------------------- parser failures (specific exceptions)


def _xlsx_bytes() -> bytes:
    pytest.importorskip("openpyxl")
    buf = io.BytesIO()
    pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [2.0, 0.0, 1.0]}).to_excel(buf, index=False)
    return buf.getvalue()


def test_damaged_spreadsheets_are_not_tables(tmp_path):
    whole = _xlsx_bytes()
    not_xlsx = io.BytesIO()
    with zipfile.ZipFile(not_xlsx, "w") as archive:
        archive.writestr("hello.txt", "hi")
    cases = {
        "truncated.xlsx": (whole[: len(whole) // 2], "File is not a zip file"),  # zipfile.BadZipFile
        "text.xlsx": (ABC.encode(), "cannot be determined"),  # ValueError
        "archive.xlsx": (not_xlsx.getvalue(), ""),  # KeyError (no workbook in the archive)
    }
    for name, (content, detail) in cases.items():
        with pytest.raises(DataValidationError, match=rf"{name}: could not be read as a \.xlsx table .*{detail}"):
            read_table(write(tmp_path, name, content))


def test_not_a_parquet_file(tmp_path):
    with pytest.raises(DataValidationError, match=r"text\.parquet: (could not be read as a \.parquet table|reading)"):
        load_table(write(tmp_path, "text.parquet", ABC))


@pytest.mark.parametrize(
    ("name", "text", "detail"),
    [
        ("quote.csv", 'a,b\n1,"2\n', "EOF inside string"),  # pandas ParserError
        ("carriage.tsv", "a\tb\n1\t2\r3\n4\t5\n6\t7\n", "new-line character"),  # csv.Error (short rows)
        ("wide.csv", 'a,b\n1,"' + "x" * 140_000 + '"\n2,3\n', "field larger than field limit"),  # csv.Error
    ],
)
def test_text_that_does_not_parse(tmp_path, name, text, detail):
    with pytest.raises(DataValidationError, match=rf"{name}: could not be read as a table \(.*{detail}"):
        load_table(write(tmp_path, name, text))


def test_a_failing_reader_is_not_hidden(tmp_path, monkeypatch):
    """Only parser failures become 'not a table': a bug in the reader still shows as itself."""

    def broken(*args, **kwargs):
        raise AssertionError("a bug, not a bad file")

    monkeypatch.setattr(pd, "read_csv", broken)
    with pytest.raises(AssertionError, match="a bug"):
        load_table(write(tmp_path, "data.csv", ABC))


# ------------------------------------------------------------------ orientation evidence (#11)
def _expr(n_genes: int, n_conds: int, seed: int = 0) -> pd.DataFrame:
    """A genes x conditions table: yeast ORF names in rows, GEO sample names in the header."""
    rng = np.random.default_rng(seed)
    genes = [f"Y{'ABCDEFGHIJKLMNOP'[i % 16]}{'LR'[i % 2]}{i % 1000:03d}{'WC'[i % 2]}" for i in range(n_genes)]
    conds = [f"GSM{1000 + j}" for j in range(n_conds)]
    return pd.DataFrame(rng.normal(size=(n_genes, n_conds)), index=genes, columns=conds)


class TestOrientationWarning:
    """engine.io.orientation: warn on evidence from the labels, not on shape alone (issue #11)."""

    def test_wide_correctly_oriented_file_gets_no_warning(self, tmp_path):
        # the paper's shape: 173 conditions (rows, named like samples) x 2000 genes (columns)
        wide = _expr(2000, 173).T
        wide.to_csv(tmp_path / "wide.csv")
        ds = load_table(tmp_path / "wide.csv")
        assert ds.values.shape == (173, 2000)
        assert orientation_warning(ds) is None
        assert not any("wrong way round" in n or "orientation" in n for n in ds.notes)
        # nor without row labels, or with gene-like names and numbered conditions
        assert orientation_warning(from_frame(wide.reset_index(drop=True), label_column=None)) is None

    def test_genes_in_rows_warns_with_the_fix(self, tmp_path):
        _expr(300, 12).to_csv(tmp_path / "expr.csv")
        ds = load_table(tmp_path / "expr.csv")
        warning = orientation_warning(ds)
        assert warning is not None and (warning.n_rows, warning.n_cols) == (300, 12)
        assert "GSM1000" in warning.reason and "YAL000W" in warning.reason
        assert sum("wrong way round" in n for n in ds.notes) == 1
        assert warning.note(False) in ds.notes and "with transpose" in warning.note(False)
        assert "--transpose" in warning.cli_message(False)
        # loaded the right way round: no warning
        assert orientation_warning(load_table(tmp_path / "expr.csv", transpose=True)) is None

    def test_wrongly_transposed_wide_file_warns_to_drop_transpose(self, tmp_path):
        _expr(400, 20).T.to_csv(tmp_path / "wide.csv")
        ds = load_table(tmp_path / "wide.csv", transpose=True)
        assert ds.values.shape == (400, 20)
        assert orientation_warning(ds) is not None
        assert any("without transpose" in n for n in ds.notes)

    def test_rows_that_look_like_genes(self):
        # gene symbols in rows, time points in the header: many rows, few columns, id-like labels
        rng = np.random.default_rng(1)
        frame = pd.DataFrame(rng.normal(size=(80, 6)), columns=["0", "10", "20", "40", "60", "120"])
        frame.insert(0, "gene", [f"GAL{i}" for i in range(80)])
        warning = orientation_warning(from_frame(frame))
        assert warning is not None and "rows look like genes" in warning.reason

    def test_tall_data_with_sample_ids_gets_no_warning(self):
        rng = np.random.default_rng(2)
        frame = pd.DataFrame(rng.normal(size=(300, 5)), columns=["Raf", "Mek", "Erk", "Akt", "PKA"])
        frame.insert(0, "cell", [f"cell_{i}" for i in range(300)])
        assert orientation_warning(from_frame(frame)) is None
        # nor a written row index (0..M-1) over numeric gene-id columns (arth150)
        numbered = pd.DataFrame(rng.normal(size=(300, 5)), columns=["4", "8", "13", "20", "26"])
        assert orientation_warning(from_frame(numbered.reset_index().rename(columns={"index": ""}))) is None

    def test_labels(self):
        for s in ("GSM1234", "sample_3", "cond2", "t15", "30min", "heat_rep2", "Day 4"):
            assert looks_sample_like(s), s
        for s in ("YAL001C", "BRCA1", "AT1G01010", "Raf", "X12"):
            assert not looks_sample_like(s), s
        for s in ("YAL001C", "AT1G01010", "ENSG00000139618", "NM_000546", "1007_s_at", "ILMN_1343291"):
            assert looks_gene_like(s), s
        assert not looks_gene_like("GSM1234") and not looks_gene_like("BRCA1")


class TestTransposeDataset:
    def test_matches_loading_with_transpose_and_keeps_the_input(self, tmp_path):
        _expr(30, 8).to_csv(tmp_path / "expr.csv")
        as_loaded = load_table(tmp_path / "expr.csv")
        before = as_loaded.values.copy()
        turned = transpose_dataset(as_loaded)
        direct = load_table(tmp_path / "expr.csv", transpose=True)
        assert turned.names == direct.names and turned.instance_labels == direct.instance_labels
        np.testing.assert_allclose(turned.values, direct.values)
        np.testing.assert_array_equal(as_loaded.values, before)
        assert orientation_warning(turned) is None
        assert not any("wrong way round" in n for n in turned.notes)
        assert any(n.startswith("transposed") for n in turned.notes)

    def test_repeated_labels_note_follows_the_turn(self, tmp_path):
        # genes in rows with a repeated id, loaded as is: the note speaks of instance labels;
        # turned round, the repeated ids are variable names and the note must say so
        frame = _expr(30, 8)
        frame.index = [*frame.index[:-1], frame.index[0]]
        frame.to_csv(tmp_path / "expr.csv")
        as_loaded = load_table(tmp_path / "expr.csv", rename_repeats=True)
        assert any("repeated instance label" in n for n in as_loaded.notes)
        turned = transpose_dataset(as_loaded)
        direct = load_table(tmp_path / "expr.csv", transpose=True, rename_repeats=True)
        assert not any("instance label" in n for n in turned.notes)
        said = [n for n in turned.notes if "repeated variable name" in n]
        assert said and said == [n for n in direct.notes if "repeated variable name" in n]

    def test_missing_cells_stay_missing_and_without_labels_variables_are_numbered(self):
        values = np.arange(20, dtype=float).reshape(5, 4) ** 1.5
        values[1, 2] = np.nan
        ds = from_frame(pd.DataFrame(values, columns=list("abcd")), standardize=False, label_column=None)
        turned = transpose_dataset(ds)
        assert turned.names == ("V1", "V2", "V3", "V4", "V5") and turned.instance_labels == tuple("abcd")
        assert turned.missing[2, 1] and turned.missing.sum() == 1
        np.testing.assert_array_equal(turned.values[0], values[:, 0])

    def test_refused_with_a_message(self):
        ds = from_frame(pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [2.0, 1, 4, 3]}), label_column=None)
        with pytest.raises(DataValidationError):
            transpose_dataset(ds)  # two columns cannot become enough instances

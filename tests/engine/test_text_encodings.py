"""UTF-16 text with and without a byte-order mark, little- and big-endian, in every text file the
CLI and the app read: the data table, the regulator list and the gene sets (one decoder,
:func:`engine.io.files.decode_text`). A binary file that is no table is still refused by name."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.cli import main
from engine.exceptions import DataValidationError
from engine.io import load_table
from engine.io.files import decode_text
from engine.io.gene_sets import gene_sets_from_bytes
from engine.io.regulators import read_regulators

#: (encoding written, what the file starts with): UTF-16 with a BOM, and without one both ways
ENCODINGS = ["utf-16", "utf-16-le", "utf-16-be"]


def _table(n: int = 40) -> str:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(n, 3))
    x[:, 1] += x[:, 0]
    x[:, 2] += x[:, 1]
    head = "condition\theat_15min\theat_30min\tcold_1h\r\n"  # Windows line ends, as Excel writes them
    return head + "".join(f"c{i}\t" + "\t".join(f"{v:.4f}" for v in row) + "\r\n" for i, row in enumerate(x))


class TestDecodeText:
    @pytest.mark.parametrize("encoding", ENCODINGS)
    def test_utf16_with_and_without_bom(self, encoding):
        text = "# regulators\nAT1G01010\nGène µ\n"
        raw = text.encode(encoding)
        assert raw.startswith((b"\xff\xfe", b"\xfe\xff")) == (encoding == "utf-16")
        assert decode_text(raw, "list.txt", "not a text file.") == text

    @pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
    def test_characters_ending_in_a_zero_byte(self, encoding):
        text = "基因\t一号\t二号\n" + "".join(f"g{i}\t{i}.5\t{i}.25\n" for i in range(30))  # U+4E00 = 4E 00
        assert decode_text(text.encode(encoding), "t.tsv", "binary") == text

    def test_utf8_and_latin1_unchanged(self):
        assert decode_text("\ufeffa,b\n".encode(), "x", "binary") == "a,b\n"
        assert decode_text("Gène\n".encode("latin-1"), "x", "binary") == "Gène\n"

    @pytest.mark.parametrize(
        "raw",
        [
            bytes(range(256)) * 8,
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64),
            np.arange(1, 200, dtype="<u2").tobytes() * 10,  # zero high bytes, but control characters
        ],
    )
    def test_binary_is_refused_with_the_callers_message(self, raw):
        with pytest.raises(DataValidationError, match="^blob.bin: not a text file.$"):
            decode_text(raw, "blob.bin", "not a text file.")


class TestDataTable:
    @pytest.mark.parametrize("encoding", ENCODINGS)
    @pytest.mark.parametrize("suffix", [".tsv", ".txt"])
    def test_read_by_load_table_and_the_cli(self, tmp_path, capsys, encoding, suffix):
        path = tmp_path / f"expr{suffix}"
        path.write_bytes(_table().encode(encoding))
        plain = tmp_path / "plain.tsv"
        plain.write_text(_table().replace("\r\n", "\n"))
        ds, ref = load_table(path), load_table(plain)
        assert ds.names == ("heat_15min", "heat_30min", "cold_1h") and ds.instance_labels[0] == "c0"
        np.testing.assert_array_equal(ds.values, ref.values)
        assert main(["learn", str(path), "--quiet"]) == 0
        assert json.loads(capsys.readouterr().out)["variables"] == list(ds.names)

    def test_binary_file_is_still_not_a_table(self, tmp_path, capsys):
        path = tmp_path / "counts.csv"
        path.write_bytes(np.arange(1, 200, dtype="<u2").tobytes() * 10)
        with pytest.raises(DataValidationError, match="binary file, not a text table"):
            load_table(path)
        assert main(["learn", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: counts.csv: looks like a binary file") and err.count("\n") == 1


class TestListsAndGeneSets:
    @pytest.mark.parametrize("encoding", ENCODINGS)
    def test_regulator_list(self, tmp_path, encoding):
        path = tmp_path / "tfs.txt"
        path.write_bytes("# TFs\nheat_15min\ncold_1h\n".encode(encoding))
        assert read_regulators(path) == ["heat_15min", "cold_1h"]

    @pytest.mark.parametrize("encoding", ENCODINGS)
    def test_gene_sets(self, encoding):
        raw = "HEAT\tdesc\tg1\tg2\tg3\nCOLD\tdesc\tg4\tg5\n".encode(encoding)
        sets = gene_sets_from_bytes(raw, "sets.gmt")
        assert list(sets.names) == ["HEAT", "COLD"] and sets.genes[0] == ("g1", "g2", "g3")

    def test_cli_reads_a_bomless_regulator_list(self, tmp_path, capsys):
        data = tmp_path / "expr.tsv"
        data.write_bytes(_table().encode("utf-16-be"))
        regs = tmp_path / "tfs.txt"
        regs.write_bytes("heat_15min\nnot_measured\n".encode("utf-16-le"))
        assert main(["learn", str(data), "--regulators", str(regs), "--quiet"]) == 0
        res = json.loads(capsys.readouterr().out)
        assert res["settings"]["regulators"] == ["heat_15min", "not_measured"]  # the list as given, decoded
        assert {e["parent"] for e in res["edges"]} <= {"heat_15min"}

    def test_binary_regulator_file_is_not_a_text_file(self, tmp_path, capsys):
        path = tmp_path / "tfs.xlsx"
        path.write_bytes(b"PK\x03\x04\x00\x00binary" * 20)
        data = tmp_path / "expr.tsv"
        data.write_text(_table())
        assert main(["learn", str(data), "--regulators", str(path)]) == 2
        assert "not a text file" in capsys.readouterr().err


class TestRenamedBinaries:
    """A workbook, Parquet or zip file saved under a text name is named for what it is, with the fix; a gzip
    file is read as the table it holds."""

    def test_excel_workbook_named_csv(self, tmp_path, capsys):
        import pandas as pd

        book = tmp_path / "expr.xlsx"
        pd.DataFrame({"A": [1.0, 2.0, 3.0], "B": [2.0, 1.0, 0.5]}).to_excel(book, index=False)
        path = tmp_path / "expr.csv"
        path.write_bytes(book.read_bytes())
        with pytest.raises(DataValidationError, match=r"^expr.csv: is an Excel \(.xlsx\) workbook, .*\.xlsx name"):
            load_table(path)
        assert main(["learn", str(path)]) == 2
        assert capsys.readouterr().err.count("\n") == 1
        assert list(load_table(book).names) == ["A", "B"]  # under its own name it loads

    @pytest.mark.parametrize(
        ("raw", "said"),
        [
            (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512), r"old Excel \(.xls\) workbook"),
            (b"PAR1" + bytes(64) + b"PAR1", "Parquet file"),
        ],
    )
    def test_other_kinds(self, tmp_path, raw, said):
        path = tmp_path / "expr.tsv"
        path.write_bytes(raw)
        with pytest.raises(DataValidationError, match=f"^expr.tsv: is .*{said}"):
            load_table(path)

    @pytest.mark.parametrize("name", ["expr.csv.gz", "expr.tsv.gz", "expr.gz", "expr.csv"])
    def test_gzip_table_is_read_as_what_it_holds(self, tmp_path, name):
        """GEO's series matrices and many lab exports come gzip-compressed: the table inside is read,
        its cells exactly as the uncompressed file's (also from bytes, as the explorer's upload)."""
        import gzip
        import io

        sep = "\t" if ".tsv" in name else ","
        text = (
            sep.join(["g1", "g2", "g3"])
            + "\n"
            + "\n".join(sep.join(f"{(i * k) % 7 + 0.25 * k}" for k in (1, 2, 3)) for i in range(8))
        )
        plain = tmp_path / ("plain.tsv" if sep == "\t" else "plain.csv")
        plain.write_text(text + "\n")
        path = tmp_path / name
        path.write_bytes(gzip.compress(plain.read_bytes()))
        want = load_table(plain)
        for got in (load_table(path), load_table(io.BytesIO(path.read_bytes()), name=name)):
            assert list(got.names) == ["g1", "g2", "g3"]
            np.testing.assert_array_equal(got.values, want.values)

    def test_gzip_damaged_or_not_a_table_names_the_file(self, tmp_path, capsys):
        import gzip

        path = tmp_path / "expr.csv.gz"
        path.write_bytes(gzip.compress(b"a,b\n1,2\n3,4\n")[:-12])
        with pytest.raises(DataValidationError, match=r"^expr.csv.gz: is gzip-compressed but does not decompress"):
            load_table(path)
        path.write_bytes(gzip.compress(b"<html><body>not found</body></html>"))
        with pytest.raises(DataValidationError, match=r"^expr.csv.gz: looks like HTML"):
            load_table(path)
        assert main(["learn", str(path)]) == 2
        assert capsys.readouterr().err.count("\n") == 1

    def test_zip_archive(self, tmp_path):
        import zipfile

        path = tmp_path / "expr.csv"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("expr.csv", "a,b\n1,2\n")
        with pytest.raises(DataValidationError, match="is a zip archive, not a text table: unzip it"):
            load_table(path)

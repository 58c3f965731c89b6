"""A GEO series matrix's sample characteristics as covariates (engine.io.geo_samples, --covariates geo):
each 'field: value' of !Sample_characteristics_ch1 a covariate, coded as a sample sheet is; a field
that cannot be one (the same everywhere, missing on some samples, naming each sample) skipped and said."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

from engine.cli import main
from engine.cli.rerun import rerun_args
from engine.exceptions import DataValidationError
from engine.io import load_table
from engine.io.geo_samples import characteristics_covariates, read_characteristics

M = 12
SAMPLES = [f"GSM{100 + j}" for j in range(M)]


def _matrix(tmp_path, *, name="GSE1_series_matrix.txt", compressed=False, extra=()):
    """12 samples, 10 probes; heat shifts P0..P3 and batch 2 shifts P5, P6."""
    rng = np.random.default_rng(11)
    heat = np.array([j % 2 for j in range(M)])
    batch = np.array([1 + (j >= 6) for j in range(M)])
    values = rng.normal(size=(10, M))
    values[:4] += 2.0 * heat
    values[5:7] += 1.5 * (batch == 2)

    def line(key, cells):
        return f"!{key}\t" + "\t".join(f'"{c}"' for c in cells)

    head = [
        '!Series_title\t"Heat shock in two batches"',
        line("Sample_title", [f"sample {j}" for j in range(M)]),
        line("Sample_geo_accession", SAMPLES),
        line("Sample_characteristics_ch1", ["tissue: liver"] * M),
        line("Sample_characteristics_ch1", [f"treatment: {'heat' if h else 'control'}" for h in heat]),
        line("Sample_characteristics_ch1", [f"batch: {b}" for b in batch]),
        line("Sample_characteristics_ch1", [f"time: {30 * (j % 3)} min" for j in range(M)]),
        line("Sample_characteristics_ch1", [f"individual: mouse {j}" for j in range(M)]),
        line("Sample_characteristics_ch1", [f"age: {8 + j % 4}" for j in range(M)]),
        *extra,
        "!series_matrix_table_begin",
        '"ID_REF"\t' + "\t".join(f'"{s}"' for s in SAMPLES),
        *[f'"P{g}"\t' + "\t".join(f"{v:.4f}" for v in values[g]) for g in range(10)],
        "!series_matrix_table_end",
    ]
    text = "\n".join(head) + "\n"
    path = tmp_path / (name + (".gz" if compressed else ""))
    path.write_bytes(gzip.compress(text.encode()) if compressed else text.encode())
    return path


class TestRead:
    @pytest.mark.parametrize("compressed", [False, True])
    def test_fields_and_the_sheet(self, tmp_path, compressed):
        chars = read_characteristics(_matrix(tmp_path, compressed=compressed), "GSE1")
        assert chars.fields == ("tissue", "treatment", "batch", "time", "individual", "age")
        assert chars.usable == ("treatment", "batch", "time", "age")
        assert list(chars.frame["sample"]) == SAMPLES
        assert chars.frame["treatment"].tolist()[:2] == ["control", "heat"]
        assert chars.categorical == ("batch",)  # numbers, but group labels
        assert "'tissue' (the same on every sample: liver)" in chars.skipped
        assert any(s.startswith("'individual' (a different value on every sample") for s in chars.skipped)

    def test_a_field_missing_on_some_samples_is_skipped(self, tmp_path):
        extra = ["!Sample_characteristics_ch1\t" + "\t".join('"genotype: ko"' if j < 3 else '""' for j in range(M))]
        chars = read_characteristics(_matrix(tmp_path, extra=extra), "GSE1")
        assert "'genotype' (missing on 9 of 12 samples)" in chars.skipped and "genotype" not in chars.usable

    def test_not_a_series_matrix(self, tmp_path):
        path = tmp_path / "plain.csv"
        path.write_text("s,a,b\nr1,1,2\nr2,3,4\n")
        with pytest.raises(DataValidationError, match="not a GEO series matrix"):
            read_characteristics(path, "plain.csv")

    def test_a_damaged_gzip_is_one_clear_error(self):
        """A corrupt deflate stream raises zlib.error, not an OSError: named, not a traceback
        (as engine.io.containers.gunzip does for the table)."""
        lines = b'!Sample_geo_accession\t"GSM1"\t"GSM2"\n!Sample_characteristics_ch1\t"batch: 1"\t"batch: 2"\n'
        damaged = bytearray(gzip.compress(lines * 200))
        damaged[40:60] = bytes(20)
        with pytest.raises(DataValidationError, match="x.txt.gz: could not be read"):
            read_characteristics(bytes(damaged), "x.txt.gz")

    def test_no_characteristics(self, tmp_path):
        path = tmp_path / "x_series_matrix.txt"
        text = _matrix(tmp_path).read_text()
        path.write_text("\n".join(x for x in text.splitlines() if "characteristics" not in x))
        with pytest.raises(DataValidationError, match="no !Sample_characteristics lines"):
            read_characteristics(path, "x")


def test_coded_as_a_sheet_is(tmp_path):
    path = _matrix(tmp_path)
    ds = load_table(path, transpose=True)
    cov = characteristics_covariates(read_characteristics(path, "GSE1"), ds, source="GSE1")
    assert cov.names == ("treatment=heat", "batch=2", "time=30 min", "time=60 min", "age")
    np.testing.assert_array_equal(cov.values[:, 0], [j % 2 for j in range(M)])
    np.testing.assert_array_equal(cov.values[:, 1], [j >= 6 for j in range(M)])
    np.testing.assert_array_equal(cov.values[:, 4], [8 + j % 4 for j in range(M)])
    assert "skipped 'tissue' (the same on every sample: liver)" in cov.line()


def test_samples_as_columns_name_the_fix(tmp_path):
    path = _matrix(tmp_path)
    ds = load_table(path)  # not turned round: the samples are the variables
    with pytest.raises(DataValidationError, match="--transpose"):
        characteristics_covariates(read_characteristics(path, "GSE1"), ds, source="GSE1")


class TestCli:
    def test_learn_takes_them(self, tmp_path, capsys):
        path, out = _matrix(tmp_path), tmp_path / "r.json"
        argv = ["learn", str(path), "--transpose", "--covariates", "geo", "--out", str(out)]
        assert main(argv) == 0
        err = capsys.readouterr().err
        assert "covariates: treatment (2 levels -> 1 indicator, reference control)" in err
        assert "batch (2 levels -> 1 indicator, reference 1)" in err and "skipped 'tissue'" in err
        res = json.loads(out.read_text())
        covs = {"treatment=heat", "batch=2", "time=30 min", "time=60 min", "age"}
        assert set(res["settings"]["parent_only"]) == covs and res["settings"]["covariates"] == "geo"
        edges = [(e["parent"], e["child"]) for e in res["edges"]]
        assert not [e for e in edges if e[1] in covs] and any(p == "treatment=heat" for p, _ in edges)
        args = rerun_args(res["settings"])
        assert args[args.index("--covariates") + 1] == "geo"
        assert main([*args, "--out", str(tmp_path / "again.json"), "--quiet"]) == 0

    def test_score_takes_them(self, tmp_path, capsys):
        path, out = _matrix(tmp_path), tmp_path / "r.json"
        assert main(["learn", str(path), "--transpose", "--covariates", "geo", "--out", str(out), "--quiet"]) == 0
        assert main(["score", str(path), "--model", str(out), "--transpose", "--covariates", "geo"]) == 0

    def test_samples_as_columns_is_one_line_naming_the_fix(self, tmp_path, capsys):
        path = _matrix(tmp_path)
        assert main(["learn", str(path), "--covariates", "geo", "--out", str(tmp_path / "r.json")]) == 2
        err = capsys.readouterr().err
        assert "load it with --transpose" in err and "Traceback" not in err

    def test_a_plain_table_is_named(self, tmp_path, capsys):
        path = tmp_path / "plain.csv"
        path.write_text("s,a,b\n" + "".join(f"r{i},{i % 3},{i * i % 5}\n" for i in range(8)))
        assert main(["learn", str(path), "--covariates", "geo", "--out", str(tmp_path / "r.json")]) == 2
        assert "not a GEO series matrix" in capsys.readouterr().err

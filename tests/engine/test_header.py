"""A file without a header row (issue #24): detected, refused with the fix named, read with
``no_header`` / ``--no-header``, in both orientations, CSV and TSV, with and without an id column."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.io import HeaderlessFileError, load_table, transpose_dataset
from engine.io.header import data_in_header
from engine.synth import random_network, sample


@pytest.fixture(scope="module")
def values():
    net = random_network(6, seed=4)
    return np.asarray(sample(net, 40, seed=5)) + 8.0  # log-expression-like levels


def _write(path, rows, sep, quote=False):
    q = '"' if quote else ""
    path.write_text("".join(sep.join(f"{q}{c}{q}" if i else str(c) for i, c in enumerate(r)) + "\n" for r in rows))
    return path


def genes_in_rows(tmp_path, values, sep="\t", ids=True, name="genes.tsv"):
    """Genes x samples, no header line: ``Rv0001  "9.93"  "10.2" ...`` (as the issue's file)."""
    rows = [
        ([f"Rv{g + 1:04d}"] if ids else []) + [repr(float(v)) for v in values[:, g]] for g in range(values.shape[1])
    ]
    return _write(tmp_path / name, rows, sep, quote=ids)


def samples_in_rows(tmp_path, values, sep=",", ids=False, name="plain.csv"):
    rows = [([f"s{i + 1}"] if ids else []) + [repr(float(v)) for v in values[i]] for i in range(values.shape[0])]
    return _write(tmp_path / name, rows, sep)


class TestDetection:
    def test_a_line_of_measurements_is_data(self):
        body = pd.DataFrame([["1.5", "2.25"], ["3.5", "0.5"]])
        assert data_in_header(["Rv0001", "9.938", "7.1", "10.2", "8.0"], body) is not None
        assert data_in_header(["0.1", "0.2", "0.3"], body) is not None  # three ordered cells: chance, not names

    def test_names_that_are_numbers_are_names(self):
        floats = pd.DataFrame([["1.5", "2.25", "0.1", "7.5"]] * 3)
        assert data_in_header(["Raf", "Mek", "Erk"], floats) is None
        assert data_in_header(["gene", "0", "30", "60", "90"], floats) is None  # time points: ordered
        assert data_in_header(["539", "4", "209", "8"], floats) is None  # whole-number gene ids over measurements
        assert data_in_header(["id", "0.5", "1", "2.5", "5"], floats) is None  # doses: ordered
        assert data_in_header(["a", "1B", "3"], floats) is None  # text among the names

    def test_count_data_header_is_data(self):
        counts = pd.DataFrame([["3", "0", "12", "7"]] * 3)
        assert data_in_header(["g1", "5", "0", "17", "2"], counts) is not None


class TestLoading:
    @pytest.mark.parametrize("sep,name", [("\t", "genes.tsv"), (",", "genes.csv")])
    def test_genes_in_rows_refused_then_read(self, tmp_path, values, sep, name):
        path = genes_in_rows(tmp_path, values, sep, name=name)
        with pytest.raises(HeaderlessFileError, match=r"no header row.*'Rv0001'.*--no-header.*sample1\.\.sample40"):
            load_table(path, transpose=True)
        ds = load_table(path, transpose=True, no_header=True, standardize=False)
        assert ds.names == tuple(f"Rv{g + 1:04d}" for g in range(6))  # no gene lost
        assert ds.instance_labels == tuple(f"sample{i + 1}" for i in range(40))
        np.testing.assert_array_equal(ds.values, values)  # exact: the numbers as written
        assert any("no header row" in n and "sample1..sample40" in n for n in ds.notes)

    def test_genes_in_rows_without_ids(self, tmp_path, values):
        path = genes_in_rows(tmp_path, values, ",", ids=False, name="bare.csv")
        ds = load_table(path, transpose=True, no_header=True, standardize=False)
        assert ds.names == tuple(f"V{g + 1}" for g in range(6)) and ds.n_samples == 40
        np.testing.assert_array_equal(ds.values, values)

    @pytest.mark.parametrize("ids", [False, True])
    def test_samples_in_rows(self, tmp_path, values, ids):
        path = samples_in_rows(tmp_path, values, ids=ids)
        with pytest.raises(HeaderlessFileError, match="V1..V6"):
            load_table(path)
        ds = load_table(path, no_header=True, standardize=False)
        assert ds.names == tuple(f"V{j + 1}" for j in range(6)) and ds.n_samples == 40
        assert ds.instance_labels == (tuple(f"s{i + 1}" for i in range(40)) if ids else None)
        np.testing.assert_array_equal(ds.values, values)

    def test_genes_in_rows_read_untransposed_are_said_the_wrong_way_round(self, tmp_path):
        """A genes-by-row file without a header read as it is (QA walk, session 28: the app loaded 600 genes
        as instances without its Transpose offer): the made-up column names V1.. are no evidence against
        the rows' gene ids, so the orientation note fires on the rows alone; with transpose it does not."""
        rng = np.random.default_rng(0)
        path = genes_in_rows(tmp_path, rng.normal(8.0, 1.0, size=(8, 40)), name="g40.tsv")  # 40 genes x 8
        ds = load_table(path, no_header=True)
        assert ds.n_samples == 40 and ds.generated_names == "variables"
        assert any("wrong way round" in n and "no header row to name them" in n for n in ds.notes), ds.notes
        turned = load_table(path, no_header=True, transpose=True)
        assert turned.n_vars == 40 and not any("wrong way round" in n for n in turned.notes)

    def test_header_kept_when_asked_and_real_headers_untouched(self, tmp_path, values, sample_dir):
        path = samples_in_rows(tmp_path, values)
        assert load_table(path, check_header=False).n_samples == 39  # --header: the user's call
        arth = load_table(sample_dir / "arth150_sample.csv")  # numeric gene ids in order: names, no note
        assert arth.names[:2] == ("4", "8") and not any("header" in n for n in arth.notes)


class TestTurnedRoundAfterLoading:
    """transpose_dataset on a headerless table: the generated names follow their role, as
    load_table(transpose=...) would name them; real names (a header of V1..) are never renamed."""

    def test_both_ways_match_loading_turned_round(self, tmp_path, values):
        path = genes_in_rows(tmp_path, values)
        turned = transpose_dataset(load_table(path, no_header=True))
        direct = load_table(path, no_header=True, transpose=True)
        assert turned.names == direct.names and turned.instance_labels == direct.instance_labels
        assert "the 40 columns (instances) are named sample1..sample40" in turned.notes[0]
        back = transpose_dataset(direct)
        assert back.names == tuple(f"V{i + 1}" for i in range(40)) and back.instance_labels[0] == "Rv0001"
        assert "the 40 columns (variables) are named V1..V40" in back.notes[0]

    def test_the_dataset_says_which_names_were_generated(self, tmp_path, values):
        """The flag, not the loading note's wording, says which axis was named (issue #22)."""
        direct = load_table(genes_in_rows(tmp_path, values), no_header=True, transpose=True)
        assert direct.generated_names == "instances"
        assert load_table(samples_in_rows(tmp_path, values), no_header=True).generated_names == "variables"
        assert transpose_dataset(direct).generated_names == "variables"
        assert transpose_dataset(transpose_dataset(direct)).generated_names == "instances"
        # the note reworded (or gone): the flag still turns the names round, the note is left alone
        quiet = dataclasses.replace(direct, notes=("read by hand",))
        turned = transpose_dataset(quiet)
        assert turned.names[:2] == ("V1", "V2") and turned.generated_names == "variables"
        assert turned.notes[0] == "read by hand"

    def test_a_real_header_of_v_names_is_kept(self, tmp_path, values):
        path = tmp_path / "named.csv"
        head = "id," + ",".join(f"V{j + 1}" for j in range(6)) + "\n"
        path.write_text(head + "".join(f"s{i}," + ",".join(map(str, r)) + "\n" for i, r in enumerate(values)))
        loaded = load_table(path)
        assert loaded.generated_names is None
        turned = transpose_dataset(loaded)
        assert turned.instance_labels == tuple(f"V{j + 1}" for j in range(6)) and turned.generated_names is None


class TestCLI:
    def test_learn_refuses_then_learns_with_no_header(self, tmp_path, values, capsys):
        path = genes_in_rows(tmp_path, values)
        assert main(["learn", str(path), "--transpose"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error:") and err.count("\n") == 1 and "--no-header" in err and "Rv0001" in err
        assert main(["learn", str(path), "--transpose", "--no-header"]) == 0
        out = capsys.readouterr()
        res = json.loads(out.out)
        assert "Rv0001" in res["variables"] and len(res["variables"]) == 6
        assert "no header row" in out.err and "sample1..sample40" in out.err
        assert res["settings"]["no_header"] is True and "--no-header" in res["rerun"]

    def test_score_and_bootstrap_read_it_the_same_way(self, tmp_path, values, capsys):
        path = samples_in_rows(tmp_path, values, ids=True)
        model = tmp_path / "m.json"
        assert main(["learn", str(path), "--no-header", "--out", str(model), "--quiet"]) == 0
        assert main(["score", str(path), "--model", str(model)]) == 0  # read as the model's data were
        out = capsys.readouterr()
        assert "read as the model's data were: --no-header" in out.err
        assert json.loads(out.out)["n_samples"] == 40
        assert main(["score", str(path), "--model", str(model), "--no-header"]) == 0
        scored = json.loads(capsys.readouterr().out)
        assert scored["n_samples"] == 40
        boot = tmp_path / "b.json"
        args = ["bootstrap", str(path), "--replicates", "2", "--workers", "1", "--no-header", "--out", str(boot)]
        assert main([*args, "--quiet"]) == 0
        res = json.loads(boot.read_text())
        assert res["settings"]["no_header"] is True and "--no-header" in res["rerun"]
        assert "--replicates 2" in res["rerun"]
        assert res["rerun"].startswith(f"python -m engine bootstrap {path.resolve()}")

    def test_header_flag_and_exclusive(self, tmp_path, values, capsys):
        path = samples_in_rows(tmp_path, values)
        assert main(["learn", str(path), "--header", "--quiet"]) == 0
        res = json.loads(capsys.readouterr().out)
        assert res["settings"]["header"] is True and "--header" in res["rerun"] and len(res["variables"]) == 6
        assert main(["learn", str(path), "--header", "--no-header"]) == 2
        assert "not allowed with" in capsys.readouterr().err


def test_missing_share_never_reads_as_none():
    # #24: 26 missing cells of a 2500 x 28 table were "0.0% of the table"
    from engine.io.columns import share_text

    assert share_text(26, 2500 * 28) == "<0.1%"
    assert share_text(2, 15) == "13.3%" and share_text(0, 10) == "0.0%"
    assert share_text(69_999, 70_000) == ">99.9%" and share_text(5, 5) == "100.0%"

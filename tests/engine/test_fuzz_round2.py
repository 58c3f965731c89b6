"""Regressions from the second hostile-input round (issue #26's spirit) on the inputs added since:
gene-set files, files without a header, model files, bootstrap settings and schedulers, hidden
variables on degenerate tables. Every bad input ends with one line ``error: ...`` and exit status 2;
valid odd input is read as meant. Each test is fast: nothing here starts a Dask cluster."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.exceptions import DataValidationError, ModelError
from engine.io.gene_sets import parse_gene_sets, read_gene_sets
from engine.model_schema import parse_model, validate_model

NAMES = [f"X{i}" for i in range(1, 7)]


@pytest.fixture()
def table(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(60, 6))
    x[:, 1] += x[:, 0]
    frame = pd.DataFrame(x, columns=NAMES)
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return path, frame


def _error(capsys, argv) -> str:
    """Run the CLI, expect exit 2 and one line 'error: ...', the last (no traceback); return it."""
    assert main(argv) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert [line for line in err if line.startswith("error: ")] == err[-1:] and "Traceback" not in "".join(err), err
    return err[-1]


@pytest.fixture()
def model(table, tmp_path, capsys):
    path, _ = table
    out = tmp_path / "model.json"
    assert main(["learn", str(path), "--quiet", "--out", str(out)]) == 0
    capsys.readouterr()
    return out


class TestModelFiles:
    def test_count_beyond_int64_is_named_not_a_traceback(self, table, model, capsys):
        # #26 round 2: n_candidates = 10**30 under EBIC reached scipy's gammaln as a Python int (TypeError)
        spec = json.loads(model.read_text())
        spec["score"].update(name="ebic", n_candidates=10**30, gamma=1.0)
        model.write_text(json.dumps(spec))
        line = _error(capsys, ["score", str(table[0]), "--model", str(model)])
        assert "score: 'n_candidates' must be a whole number from 1 to 1e+15" in line

    def test_a_key_given_twice_is_refused(self, table, model, capsys):
        text = model.read_text().replace('"variables":', '"variables": ["A"], "variables":', 1)
        model.write_text(text)
        assert "the key 'variables' appears twice" in _error(capsys, ["score", str(table[0]), "--model", str(model)])
        with pytest.raises(ModelError, match="appears twice"):
            parse_model('{"families": {"a": 1, "a": 2}}')

    def test_an_edge_listed_twice_is_refused(self, model):
        spec = json.loads(model.read_text())
        assert spec["edges"], "the fixture learns at least one edge"
        spec["edges"].append(dict(spec["edges"][0]))
        with pytest.raises(ModelError, match="listed twice"):
            validate_model(spec)

    def test_empty_file_says_empty(self, table, tmp_path, capsys):
        empty = tmp_path / "empty.json"
        empty.write_text("  \n")
        assert "the model file is empty" in _error(capsys, ["score", str(table[0]), "--model", str(empty)])

    def test_a_data_column_named_like_a_hidden_variable_is_said_to_be_unread(self, table, model, capsys):
        spec = json.loads(model.read_text())
        spec["variables"].append("H1")
        spec["families"]["H1"] = {
            "parents": [],
            "cpd": "linear",
            "params": {"intercept": 0.0, "coefficients": {}, "variance": 1.0},
        }
        spec["hidden"] = [{"name": "H1", "children": []}]
        model.write_text(json.dumps(spec))
        frame = table[1].assign(H1=np.arange(len(table[1]), dtype=float))
        frame.to_csv(table[0], index=False)
        assert main(["score", str(table[0]), "--model", str(model)]) == 0
        assert "'H1': hidden in the model, integrated out; the data's column of that name is not read" in (
            capsys.readouterr().err
        )


class TestGeneSetFiles:
    def test_quoted_csv_fields_keep_their_commas(self):
        sets = parse_gene_sets('"SET,A",X1\n"SET,A",X2\nB,X3\n', source="s.csv", name="s.csv")
        assert sets.names == ["SET,A", "B"] and sets.genes[0] == ("X1", "X2")

    @pytest.mark.parametrize("text", ["SETA X1 X2 X3\nSETB X4 X5\n", "SETA,X1,X2,X3\nSETB,X4,X5\n"])
    def test_a_set_per_line_without_tabs_is_refused_not_cut_to_its_first_gene(self, text):
        with pytest.raises(DataValidationError, match="one set per line is the GMT format, with TABS"):
            parse_gene_sets(text, source="s.txt", name="s.txt")

    def test_constant_extra_columns_are_still_a_table(self):
        sets = parse_gene_sets("tf,target,mode\nA,X1,act\nA,X2,rep\n", source="t.csv", name="t.csv")
        assert sets.genes == [("X1", "X2")]

    @pytest.mark.parametrize(
        "text, why", [("SETA na X1 X2\n", "no line holds a tab"), ("SETA\tX1\nSETB\tX2\n", "but no genes")]
    )
    def test_gmt_without_genes_says_why(self, text, why):
        with pytest.raises(DataValidationError, match=why):
            parse_gene_sets(text, source="s.gmt", name="s.gmt")

    def test_folder_device_and_empty_name_are_named_as_such(self, tmp_path):
        with pytest.raises(DataValidationError, match="is a folder, not a file"):
            read_gene_sets(tmp_path)
        with pytest.raises(DataValidationError, match="/dev/null: not a regular file"):
            read_gene_sets("/dev/null")
        with pytest.raises(DataValidationError, match="no file name given"):
            read_gene_sets("")

    def test_empty_name_on_the_command_line_is_an_error(self, table, capsys):
        assert "--gene-sets: no file name given" in _error(capsys, ["learn", str(table[0]), "--gene-sets", ""])
        assert "--regulators: no file name given" in _error(capsys, ["learn", str(table[0]), "--regulators", ""])

    def test_a_huge_name_is_cut_in_the_message(self):
        long = "G" * 5000
        with pytest.raises(DataValidationError) as info:
            from engine.io.gene_sets import match_gene_sets

            match_gene_sets(parse_gene_sets(f"S\tna\t{long}\n", source="s.gmt", name="s.gmt"), NAMES)
        assert len(str(info.value)) < 400


class TestHeaderless:
    def test_transposed_header_with_empty_corner_is_not_a_variable_named_none(self, table, tmp_path, capsys):
        # #26 round 2: the corner cell became a variable 'None' holding the instances' numbers
        path = tmp_path / "genes.csv"
        table[1].T.to_csv(path)  # first line: an empty corner, then 0..59
        line = _error(capsys, ["learn", str(path), "--transpose", "--no-header"])
        assert "first cell" in line and "without --no-header" in line

    def test_empty_first_cell_over_row_labels_is_an_unlabelled_instance(self, table, tmp_path):
        from engine.io import load_table

        frame = table[1].copy()
        frame.insert(0, "id", [f"r{i}" for i in range(len(frame))])
        text = frame.to_csv(index=False, header=False).split("\n", 1)
        path = tmp_path / "ids.csv"
        path.write_text("," + text[0].split(",", 1)[1] + "\n" + text[1])
        data = load_table(path, no_header=True, check_header=False)
        assert data.instance_labels[:2] == ("", "r1") and data.names == tuple(f"V{i}" for i in range(1, 7))

    def test_a_single_line_file_with_no_header_is_named(self, tmp_path, capsys):
        path = tmp_path / "one.csv"
        path.write_text("1.5,2.5,3.5,4.5\n")
        assert "a single line" in _error(capsys, ["learn", str(path), "--no-header"])

    def test_no_header_on_parquet_is_refused(self, table, tmp_path, capsys):
        pytest.importorskip("pyarrow")
        path = tmp_path / "numbers.parquet"
        table[1].set_axis([str(i) for i in range(6)], axis=1).to_parquet(path)
        assert "schema, not a line of data" in _error(capsys, ["learn", str(path), "--no-header"])


class TestBootstrapAndLearn:
    def test_too_few_rows_for_every_replicate_is_one_data_error(self, tmp_path, capsys):
        # #26 round 2: each replicate failed alone and the run ended with status 1
        path = tmp_path / "three.csv"
        pd.DataFrame(np.random.default_rng(0).normal(size=(3, 8)), columns=[f"G{i}" for i in range(8)]).to_csv(
            path, index=False
        )
        line = _error(capsys, ["bootstrap", str(path), "--replicates", "3", "--workers", "1"])
        assert "too few to choose parents" in line

    @pytest.mark.parametrize(
        "address, why",
        [("tls://127.0.0.1:1", "security"), ("inproc://x", "one Python process"), ("http://x", "web address")],
    )
    def test_scheduler_schemes_that_cannot_work_are_named(self, table, capsys, address, why):
        line = _error(capsys, ["bootstrap", str(table[0]), "--replicates", "2", "--scheduler", address])
        assert "expected tcp://HOST:PORT" in line and why in line

    def test_all_instances_identical_is_named_even_with_skip_unusable(self, tmp_path, capsys):
        path = tmp_path / "same.csv"
        pd.DataFrame([[1.0, 2.0, 3.0]] * 20, columns=["a", "b", "c"]).to_csv(path, index=False)
        line = _error(capsys, ["learn", str(path), "--skip-unusable", "--hidden", "auto"])
        assert "every variable is constant" in line and "--skip-unusable" not in line

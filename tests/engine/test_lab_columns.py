"""engine.io.columns and the load options a lab's file needs (issues #11, #14): repeated gene ids
numbered, mostly-missing variables left out and named, the missing-cell summary, and
engine.learn_em.complete_missing (the structural-EM completion the explorer steps on)."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from engine.data import from_array
from engine.exceptions import DataValidationError
from engine.io import load_table, missing_summary, omissions, transpose_dataset
from engine.io.columns import drop_sparse_variables, rename_repeats
from engine.learn_em import complete_missing
from engine.synth import random_network, sample_dataset


class TestRenameRepeats:
    def test_repeats_are_numbered_without_clashes(self):
        names, note = rename_repeats(["a", "b", "a", "a (2)", "a"])
        assert names == ["a", "b", "a (3)", "a (2)", "a (4)"]
        assert len(set(names)) == 5 and note.startswith("renamed repeated variable name(s) 'a'")

    def test_unique_names_unchanged(self):
        assert rename_repeats(["x", "y"]) == (["x", "y"], None)


class TestRepeatedGeneIds:
    """A genes x conditions file with one gene id on two rows: refused naming the id, its rows and
    the fixes (it used to say "column 'gene_id' holds text ... drop it", which would lose every name)."""

    @staticmethod
    def _file(tmp_path):
        rng = np.random.default_rng(0)
        ids = [f"b{g:04d}" for g in range(1, 41)]
        ids[30] = "b0007"
        rows = [f"{g}\t" + "\t".join(f"{v:.3f}" for v in rng.normal(size=12)) for g in ids]
        path = tmp_path / "expr.tsv"
        path.write_text("gene_id\t" + "\t".join(f"WT_{t}h" for t in range(12)) + "\n" + "\n".join(rows) + "\n")
        return path

    @pytest.mark.parametrize(("transpose", "what"), [(True, "variable names"), (False, "row labels")])
    def test_refused_with_the_id_and_the_fixes(self, tmp_path, capsys, transpose, what):
        from engine.cli import main

        path = self._file(tmp_path)
        said = f"the first column 'gene_id' holds the {what} but repeats 'b0007' (data rows 7 and 31)"
        with pytest.raises(
            DataValidationError, match=f"^expr.tsv: {re.escape(said)}.*--number-repeats, 'b0007 \\(2\\)'"
        ):
            load_table(path, transpose=transpose)
        assert main(["learn", str(path), *(["--transpose"] if transpose else []), "--skip-unusable"]) == 2
        err = capsys.readouterr().err
        assert said in err and "drop" not in err and err.count("\n") == 1

    def test_numbered_when_asked(self, tmp_path):
        ds = load_table(self._file(tmp_path), transpose=True, rename_repeats=True)
        assert ds.names[6] == "b0007" and ds.names[30] == "b0007 (2)"


class TestDropSparse:
    def test_more_than_half_missing_is_left_out_and_named(self):
        v = np.arange(40, dtype=float).reshape(10, 4)
        v[:6, 2] = np.nan  # 6 of 10
        v[:5, 3] = np.nan  # exactly half: kept
        notes: list[str] = []
        out, names = drop_sparse_variables(v, ["a", "b", "c", "d"], notes)
        assert names == ("a", "b", "d") and out.shape == (10, 3)
        assert notes == [
            "left out mostly-missing variable(s) 'c' (6 of 10 missing) (more than 50% of the cells missing: "
            "too little to learn its parents from)"
        ]
        assert np.isnan(v[0, 2])  # the caller's array is untouched

    def test_all_sparse_is_left_for_the_checks(self):
        v = np.full((4, 2), np.nan)
        v[0] = 1.0
        notes: list[str] = []
        out, names = drop_sparse_variables(v, ["a", "b"], notes)
        assert out is v and names == ("a", "b") and not notes


CSV = (
    "sample,treatment,AT1G01010,YAL001C,AT1G01010,orf 7,flat\n"
    "s1,heat,1.0,2.0,1.5,NA,3\n"
    "s2,cold,2.0,null,2.5,-,3\n"
    "s3,heat,3.5,1.0,2.0,NaN,3\n"
    "s4,salt,2.5,3.0,,1.0,3\n"
    "s5,heat,1.5,2.5,3.0,,3\n"
)


class TestLabFileLoading:
    def test_default_refuses_a_repeated_name(self):
        with pytest.raises(DataValidationError, match="duplicate variable name"):
            load_table(io.StringIO(CSV), name="lab.csv", drop_non_numeric=True)

    def test_lab_options_name_every_problem(self):
        ds = load_table(
            io.StringIO(CSV),
            name="lab.csv",
            drop_non_numeric=True,
            drop_constant=True,
            rename_repeats=True,
            max_missing=0.5,
        )
        assert ds.names == ("AT1G01010", "YAL001C", "AT1G01010 (2)")
        assert ds.instance_labels == ("s1", "s2", "s3", "s4", "s5")
        told = " | ".join(omissions(ds.notes))
        assert "repeated variable name(s) 'AT1G01010'" in told
        assert "'orf 7' (4 of 5 missing)" in told and "constant variable(s) flat" in told
        assert "treatment" in told
        assert int(ds.missing.sum()) == 2
        assert missing_summary(ds) == (
            "2 missing cell(s) (13.3% of the table) in 2 of 3 variables: YAL001C (1), AT1G01010 (2) (1)"
        )

    def test_genes_in_rows_with_a_repeated_id_keep_their_names(self):
        rng = np.random.default_rng(1)
        ids = [f"YAL{i:03d}C" for i in range(1, 11)] + ["YAL001C"]  # 10 genes, one id twice
        lines = ["gene_id,c1,c2,c3,c4,c5"] + [",".join([g, *map(str, rng.normal(size=5).round(3))]) for g in ids]
        lines[3] = "YAL003C,1,NA,NA,NA,5"
        ds = load_table(
            io.StringIO("\n".join(lines)), name="g.csv", transpose=True, rename_repeats=True, max_missing=0.5
        )
        assert ds.names[:2] == ("YAL001C", "YAL002C") and ds.names[-1] == "YAL001C (2)"
        assert "YAL003C" not in ds.names and ds.n_vars == 10
        assert any("'YAL003C' (3 of 5 missing)" in n for n in omissions(ds.notes))

    def test_transpose_dataset_leaves_out_sparse_variables(self):
        v = np.arange(24, dtype=float).reshape(6, 4) % 5 + np.arange(24).reshape(6, 4) * 0.1
        v[0, :3] = np.nan  # row 0 becomes a variable with 3 of 4 cells missing
        ds = from_array(v, ["a", "b", "c", "d"], instance_labels=[f"g{i}" for i in range(6)])
        turned = transpose_dataset(ds, max_missing=0.5)
        assert "g0" not in turned.names and turned.n_vars == 5
        assert any(n.startswith("left out mostly-missing variable(s) 'g0'") for n in turned.notes)


class TestCompleteMissing:
    def test_fills_only_the_missing_cells_and_says_how(self):
        net = random_network(6, seed=4)
        full = sample_dataset(net, 150, seed=5)
        rng = np.random.default_rng(0)
        holes = rng.random(full.values.shape) < 0.05
        values = np.where(holes, np.nan, full.original_values())
        ds = from_array(values, full.names)
        c = complete_missing(ds, {"method": "greedy"}, max_iter=3)
        assert c.n_missing == int(holes.sum()) and 1 <= c.n_iter <= 3
        assert not c.dataset.has_missing and ds.has_missing  # the input is untouched
        np.testing.assert_array_equal(c.dataset.values[~holes], ds.values[~holes])
        assert np.isfinite(c.dataset.values).all()
        # the filled cells are better than the column means (0 on standardized data)
        err_fill = np.abs(c.dataset.values[holes] - ((full.original_values() - ds.means) / ds.scales)[holes])
        err_mean = np.abs(((full.original_values() - ds.means) / ds.scales)[holes])
        assert err_fill.mean() < err_mean.mean()
        assert "structural EM" in c.describe() and c.dataset.notes[-1].startswith(f"filled {c.n_missing}")

"""The command-line interface: ``python -m engine learn|score`` (issue #2 item 7).

Everything runs in-process through ``main([...])`` except one subprocess test of the module entry.
"""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from engine import cli
from engine.cli import main, output
from engine.io import load_table
from engine.learn import IdealParentSearch
from engine.synth import random_network, sample


@pytest.fixture()
def csv(tmp_path):
    net = random_network(8, seed=1)
    frame = pd.DataFrame(sample(net, 300, seed=2), columns=net.names)
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    held = tmp_path / "heldout.csv"
    pd.DataFrame(sample(net, 300, seed=3), columns=net.names).to_csv(held, index=False)
    return path, held, frame


@pytest.fixture()
def model(csv, tmp_path, capsys):
    """A result written by ``learn --out`` on the training CSV: (path, parsed JSON)."""
    path, _, _ = csv
    out = tmp_path / "model.json"
    assert main(["learn", str(path), "--out", str(out), "--quiet"]) == 0
    capsys.readouterr()
    return out, json.loads(out.read_text())


def learn(capsys, *args):
    rc = main(["learn", *map(str, args)])
    out = capsys.readouterr()
    return rc, out


def learn_json(capsys, *args) -> dict:
    rc, out = learn(capsys, *args)
    assert rc == 0, out.err
    return json.loads(out.out)


def score_json(capsys, *args) -> dict:
    rc = main(["score", *map(str, args)])
    out = capsys.readouterr()
    assert rc == 0, out.err
    return json.loads(out.out)


def strict_loads(text: str):
    """json.loads that rejects NaN/Infinity tokens (what strict parsers do)."""

    def bad(token):
        raise ValueError(f"non-standard JSON token {token}")

    return json.loads(text, parse_constant=bad)


class TestLearn:
    def test_result_has_every_field_with_the_right_types(self, csv, capsys):
        path, _, frame = csv
        rc, out = learn(capsys, path)
        assert rc == 0
        res = strict_loads(out.out)
        assert res["variables"] == list(frame.columns)
        assert {"variables", "edges", "families", "score", "stats", "settings", "transform"} <= set(res)
        assert all(isinstance(v, str) for v in res["variables"])
        # edges
        assert isinstance(res["edges"], list) and res["edges"]
        for e in res["edges"]:
            assert set(e) == {"parent", "child", "weight", "strength"}
            assert isinstance(e["parent"], str) and isinstance(e["child"], str) and isinstance(e["weight"], float)
            assert isinstance(e["strength"], float)
            assert e["parent"] in res["variables"] and e["child"] in res["variables"]
        # families: one per variable
        assert set(res["families"]) == set(res["variables"])
        for fam in res["families"].values():
            assert isinstance(fam["parents"], list) and fam["cpd"] == "linear"
            p = fam["params"]
            assert isinstance(p["intercept"], float) and p["variance"] > 0
            assert set(p["coefficients"]) == set(fam["parents"])
        # score
        sc = res["score"]
        assert sc["units"] == "nats"
        assert isinstance(sc["bic"], float) and isinstance(sc["loglik"], float)
        assert sc["bic"] < sc["loglik"] < 0
        # stats
        st = res["stats"]
        for key in ("steps", "exact_evaluations", "ranked_candidates"):
            assert isinstance(st[key], int) and st[key] >= 0
        assert isinstance(st["seconds"], float) and st["seconds"] >= 0
        # settings: search options and data options
        se = res["settings"]
        assert (se["method"], se["k"], se["measure"], se["queue"]) == ("ideal", 2, "c2", "shared")
        assert se["data"] == "data.csv" and se["standardize"] is True and se["transpose"] is False
        assert se["drop"] == [] and se["seed"] == 0
        # transform
        tr = res["transform"]
        assert tr["standardized"] is True
        assert set(tr["means"]) == set(tr["scales"]) == set(res["variables"])
        assert tr["means"]["X1"] == pytest.approx(frame["X1"].mean())
        assert tr["scales"]["X1"] == pytest.approx(frame["X1"].std(ddof=0))

    def test_edges_agree_with_the_families(self, csv, capsys):
        res = learn_json(capsys, csv[0])
        from_fams = {(p, c) for c, f in res["families"].items() for p in f["parents"]}
        assert {(e["parent"], e["child"]) for e in res["edges"]} == from_fams
        assert len(res["edges"]) == len(from_fams)
        for e in res["edges"]:
            assert e["weight"] == pytest.approx(res["families"][e["child"]]["params"]["coefficients"][e["parent"]])

    def test_steps_count_the_moves(self, csv, capsys):
        path, _, _ = csv
        res = learn_json(capsys, path)
        assert res["stats"]["steps"] == len(res["moves"]) >= 1
        assert all(m["parent"] in res["variables"] and m["child"] in res["variables"] for m in res["moves"])
        # the same search in Python, on the data as the CLI loads them
        est = IdealParentSearch().fit(load_table(path))
        assert res["stats"]["steps"] == est.n_iter_ == len(est.history_)
        assert res["score"]["bic"] == pytest.approx(est.score_, rel=1e-12)
        assert res["score"]["loglik"] == pytest.approx(est.loglik_, rel=1e-12)
        assert {(e["parent"], e["child"]) for e in res["edges"]} == {(p, c) for p, c, _ in est.network_.edges()}

    def test_max_steps(self, csv, capsys):
        res = learn_json(capsys, csv[0], "--max-steps", 3)
        assert res["stats"]["steps"] == 3 == len(res["moves"])
        assert res["stats"]["converged"] is False
        assert len(res["edges"]) <= 3

    def test_greedy_and_ideal_both_work(self, csv, capsys):
        path, _, _ = csv
        g = learn_json(capsys, path, "--method", "greedy")
        i = learn_json(capsys, path, "--method", "ideal", "--k", "2")
        assert g["settings"]["method"] == "greedy" and i["settings"]["method"] == "ideal"
        assert g["stats"]["steps"] >= 1 and i["stats"]["steps"] >= 1
        assert i["stats"]["exact_evaluations"] < g["stats"]["exact_evaluations"]
        assert i["score"]["bic"] >= g["score"]["bic"] - 0.01 * abs(g["score"]["bic"])

    def test_search_options_reach_the_estimator(self, csv, capsys):
        res = learn_json(
            capsys, csv[0], "--k", 3, "--measure", "c1", "--queue", "per_operator", "--max-parents", 1, "--seed", 7
        )
        se = res["settings"]
        assert (se["k"], se["measure"], se["queue"], se["max_parents"], se["seed"]) == (3, "c1", "per_operator", 1, 7)
        assert max(len(f["parents"]) for f in res["families"].values()) <= 1

    def test_out_file_notes_and_progress(self, csv, tmp_path, capsys):
        path, _, _ = csv
        out = tmp_path / "r.json"
        rc = main(["learn", str(path), "--out", str(out)])
        captured = capsys.readouterr()
        assert rc == 0 and captured.out == ""
        assert strict_loads(out.read_text())["variables"]
        assert "300 instances x 8 variables" in captured.err
        assert "standardized each variable to mean 0 and variance 1" in captured.err
        assert "done:" in captured.err and str(out) in captured.err

    def test_quiet_is_quiet_except_errors(self, csv, tmp_path, capsys):
        # #24: --quiet printed the loading notes; now stderr carries errors only
        rc, out = learn(capsys, csv[0], "--quiet")
        assert rc == 0 and json.loads(out.out)["edges"]
        assert out.err == ""
        rc, out = learn(capsys, tmp_path / "none.csv", "--quiet")
        assert rc == 2 and out.err.startswith("error:") and out.err.count("\n") == 1

    def test_transpose_gives_the_same_network(self, csv, tmp_path, capsys):
        path, _, frame = csv
        t = tmp_path / "genes_x_conditions.csv"
        frame.T.rename_axis("gene").to_csv(t)
        a = learn_json(capsys, path)
        rc = main(["learn", str(t), "--transpose"])
        out = capsys.readouterr()
        assert rc == 0
        b = json.loads(out.out)
        assert "transposed" in out.err and "'gene'" in out.err
        assert b["variables"] == a["variables"]
        assert [(e["parent"], e["child"]) for e in a["edges"]] == [(e["parent"], e["child"]) for e in b["edges"]]
        np.testing.assert_allclose([e["weight"] for e in a["edges"]], [e["weight"] for e in b["edges"]], rtol=1e-9)
        assert b["score"]["bic"] == pytest.approx(a["score"]["bic"], rel=1e-12)
        assert b["settings"]["transpose"] is True and b["settings"]["data"] == "genes_x_conditions.csv"

    def test_no_standardize_is_recorded(self, csv, capsys):
        path, _, frame = csv
        std = learn_json(capsys, path)
        res = learn_json(capsys, path, "--no-standardize")
        assert res["settings"]["standardize"] is False
        assert res["transform"]["standardized"] is False
        assert set(res["transform"]["means"].values()) == {0.0} and set(res["transform"]["scales"].values()) == {1.0}
        assert std["transform"]["means"] != res["transform"]["means"]
        # parameters are on the original scale: the intercept of a root is the variable's mean
        root = next(c for c, f in res["families"].items() if not f["parents"])
        assert res["families"][root]["params"]["intercept"] == pytest.approx(frame[root].mean())

    def test_drop_a_text_column(self, csv, tmp_path, capsys):
        _, _, frame = csv
        with_text = frame.copy()
        with_text.insert(3, "comment", ["ok" if i % 2 else "check" for i in range(len(frame))])
        p = tmp_path / "annotated.csv"
        with_text.to_csv(p, index=False)
        rc = main(["learn", str(p), "--drop", "comment"])
        out = capsys.readouterr()
        assert rc == 0, out.err
        res = json.loads(out.out)
        assert "comment" not in res["variables"] and len(res["variables"]) == 8
        assert res["settings"]["drop"] == ["comment"]
        assert "dropped column(s) comment" in out.err

    def test_lab_file_flags_number_repeats_and_skip_unusable(self, csv, tmp_path, capsys):
        """A lab's file: a repeated gene id, a text column, a constant and a mostly-missing gene.
        Refused by default with messages naming the flags; learned with them, each change named."""
        _, _, frame = csv
        lab = frame.copy()
        lab.columns = [*lab.columns[:-1], lab.columns[0]]  # the last column repeats the first's name
        lab.insert(2, "treatment", ["heat" if i % 2 else "cold" for i in range(len(lab))])
        lab["flat"] = 1.0
        lab["sparse"] = [np.nan if i % 4 else 0.5 * i for i in range(len(lab))]
        p = tmp_path / "lab.csv"
        lab.to_csv(p, index=False)
        first = str(frame.columns[0])
        assert main(["learn", str(p), "--quiet"]) == 2
        assert "--number-repeats" in capsys.readouterr().err
        assert main(["learn", str(p), "--number-repeats", "--quiet"]) == 2
        assert "--skip-unusable" in capsys.readouterr().err
        rc = main(["learn", str(p), "--number-repeats", "--skip-unusable", "--max-steps", "3"])
        out = capsys.readouterr()
        assert rc == 0, out.err
        res = json.loads(out.out)
        assert f"{first} (2)" in res["variables"] and first in res["variables"]
        assert not {"treatment", "flat", "sparse"} & set(res["variables"])
        assert len(res["variables"]) == frame.shape[1]
        for named in ("treatment", "flat", "sparse", f"'{first}'"):
            assert named in out.err, named
        assert res["settings"]["number_repeats"] and res["settings"]["skip_unusable"]
        # score reads the file the same way: the model's variables are found
        m = tmp_path / "lab.json"
        m.write_text(out.out)
        assert main(["score", str(p), "--model", str(m), "--number-repeats", "--skip-unusable"]) == 0
        scored = json.loads(capsys.readouterr().out)
        assert scored["bic"] == pytest.approx(res["score"]["value"], rel=1e-9)

    def test_more_variables_than_instances_get_the_wide_data_score(self, tmp_path, capsys):
        rng = np.random.default_rng(4)
        wide = pd.DataFrame(rng.normal(size=(10, 6)), index=[f"g{i}" for i in range(10)]).rename_axis("gene")
        p = tmp_path / "wide.csv"
        wide.to_csv(p)  # 10 genes (rows) x 6 conditions
        rc = main(["learn", str(p), "--transpose", "--max-steps", "2"])
        out = capsys.readouterr()
        assert rc == 0, out.err
        # no shape-only warning (issue #11): the score line says how wide data are scored
        assert "more variables" not in out.err
        assert "score: EBIC" in out.err and "6 rows for 10 variables" in out.err
        result = json.loads(out.out)
        assert result["stats"]["steps"] <= 2 and result["score"]["name"] == "ebic"

    def test_transposed_file_gets_one_orientation_warning(self, tmp_path, capsys):
        # issue #11: evidence (gene ids in the rows, sample names in the header), not shape
        rng = np.random.default_rng(5)
        genes = [f"YAL{i:03d}W" for i in range(40)]
        expr = pd.DataFrame(rng.normal(size=(40, 8)), index=genes, columns=[f"GSM{j}" for j in range(8)])
        p = tmp_path / "expr.csv"
        expr.to_csv(p)
        rc = main(["learn", str(p), "--max-steps", "1"])
        err = capsys.readouterr().err
        assert rc == 0, err
        lines = [line for line in err.splitlines() if "wrong way round" in line]
        assert len(lines) == 1 and lines[0].startswith("warning:") and "with --transpose" in lines[0]
        rc = main(["learn", str(p), "--transpose", "--max-steps", "1"])
        err = capsys.readouterr().err
        assert rc == 0, err
        assert "wrong way round" not in err and "--transpose" not in err

    def test_missing_cells_learn_by_structural_em(self, csv, tmp_path, capsys):
        _, _, frame = csv
        holes = frame.copy()
        holes.iloc[3, 2] = np.nan
        holes.iloc[10, 5] = np.nan
        p = tmp_path / "holes.csv"
        holes.to_csv(p, index=False)
        rc, out = learn(capsys, p)
        assert rc == 0
        res = strict_loads(out.out)
        assert "structural EM" in res["missing_values"]
        assert "2 missing cells" in out.err


class TestScore:
    def test_same_data_reproduces_the_training_loglik(self, csv, model, capsys):
        path, _, _ = csv
        mpath, res = model
        for extra in ([], ["--refit"]):
            out = score_json(capsys, path, "--model", mpath, *extra)
            assert out["loglik"] == pytest.approx(res["score"]["loglik"], rel=1e-6)
            assert out["bic"] == pytest.approx(res["score"]["bic"], rel=1e-6)
            assert out["loglik_per_instance_per_variable"] == pytest.approx(out["loglik"] / (300 * 8))
            assert out["units"] == "nats" and out["n_samples"] == 300 and out["refit"] is bool(extra)
            assert out["data"] == "data.csv" and out["model"] == "model.json"

    def test_unstandardized_model(self, csv, tmp_path, capsys):
        path, _, _ = csv
        m = tmp_path / "raw.json"
        assert main(["learn", str(path), "--no-standardize", "--out", str(m), "--quiet"]) == 0
        capsys.readouterr()
        out = score_json(capsys, path, "--model", m)
        assert out["loglik"] == pytest.approx(json.loads(m.read_text())["score"]["loglik"], rel=1e-6)

    def test_held_out_is_worse_than_training(self, csv, model, capsys):
        path, held, _ = csv
        mpath, _ = model
        train = score_json(capsys, path, "--model", mpath)
        test = score_json(capsys, held, "--model", mpath)
        assert test["loglik_per_instance_per_variable"] < train["loglik_per_instance_per_variable"]
        refit = score_json(capsys, held, "--model", mpath, "--refit")
        assert refit["loglik"] >= test["loglik"]

    def test_transposed_data_and_the_hint(self, csv, model, tmp_path, capsys):
        path, held, _ = csv
        mpath, _ = model
        t = tmp_path / "held_t.csv"
        pd.read_csv(held).T.rename_axis("gene").to_csv(t)
        plain = score_json(capsys, held, "--model", mpath)
        turned = score_json(capsys, t, "--model", mpath, "--transpose")
        assert turned["loglik"] == pytest.approx(plain["loglik"], rel=1e-12)
        rc = main(["score", str(t), "--model", str(mpath)])
        err = capsys.readouterr().err
        assert rc == 2 and "not in the data" in err and "add --transpose" in err
        # the other way round: the model was learned without --transpose
        rc = main(["score", str(held), "--model", str(mpath), "--transpose"])
        err = capsys.readouterr().err
        assert rc == 2 and "learned without --transpose" in err and "Traceback" not in err


class TestErrors:
    def _error(self, capsys, argv, match, code=2):
        rc = main([str(a) for a in argv])
        out = capsys.readouterr()
        err = out.err
        assert rc == code, err
        lines = err.strip().splitlines()
        assert lines[-1].startswith("error: ") and sum(x.startswith("error:") for x in lines) == 1
        assert "Traceback" not in err
        assert match in lines[-1], lines[-1]
        assert out.out == ""
        return lines[-1]

    # ---- data
    def test_missing_file(self, capsys, tmp_path):
        self._error(capsys, ["learn", tmp_path / "nope.csv"], "not found")

    def test_folder_instead_of_file(self, capsys, tmp_path):
        self._error(capsys, ["learn", tmp_path], "folder")

    def test_non_numeric_column_named(self, capsys, tmp_path):
        p = tmp_path / "d.csv"
        p.write_text("a,label,c\n1,x,3\n4,y,6\n7,z,8\n2,w,1\n")
        line = self._error(capsys, ["learn", p], "'label'")
        assert "--drop" in line

    def test_constant_column_named(self, capsys, tmp_path):
        p = tmp_path / "d.csv"
        p.write_text("a,flat,c\n1,5,3\n4,5,6\n7,5,8\n2,5,1\n")
        self._error(capsys, ["learn", p], "'flat'")

    def test_png_is_not_a_table(self, capsys, tmp_path):
        p = tmp_path / "picture.png"
        p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
        self._error(capsys, ["learn", p], "binary")

    def test_empty_file(self, capsys, tmp_path):
        p = tmp_path / "empty.csv"
        p.write_text("")
        self._error(capsys, ["learn", p], "empty")

    def test_drop_unknown_column(self, capsys, csv):
        self._error(capsys, ["learn", csv[0], "--drop", "nosuch"], "'nosuch'")

    def test_missing_cell_when_scoring_a_non_linear_model(self, capsys, csv, tmp_path):
        """Non-linear CPDs cannot integrate missing cells out: a clear error that says so."""
        path, _, frame = csv
        m = tmp_path / "sig.json"
        assert main(["learn", str(path), "--cpd", "sigmoid", "--max-steps", "3", "--out", str(m), "--quiet"]) == 0
        capsys.readouterr()
        holes = frame.copy()
        holes.iloc[4, 1] = np.nan
        p = tmp_path / "holes.csv"
        holes.to_csv(p, index=False)
        self._error(capsys, ["score", p, "--model", m], "missing cells")

    def test_multiplicative_needs_positive_data(self, capsys, csv):
        self._error(capsys, ["learn", csv[0], "--cpd", "multiplicative"], "strictly positive")

    def test_out_folder_missing_fails_before_learning(self, capsys, csv, tmp_path, monkeypatch):
        def boom(*a, **k):  # pragma: no cover - must not be reached
            raise AssertionError("searched although --out cannot be written")

        monkeypatch.setattr(IdealParentSearch, "fit", boom)
        self._error(capsys, ["learn", csv[0], "--out", tmp_path / "no" / "such" / "r.json"], "does not exist")

    # ---- model files
    def test_model_not_json(self, capsys, csv, tmp_path):
        m = tmp_path / "m.json"
        m.write_text("this is not json")
        self._error(capsys, ["score", csv[0], "--model", m], "not a JSON model")

    def test_model_binary(self, capsys, csv, tmp_path):
        m = tmp_path / "m.json"
        m.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
        self._error(capsys, ["score", csv[0], "--model", m], "not a JSON model")

    def test_model_missing(self, capsys, csv, tmp_path):
        self._error(capsys, ["score", csv[0], "--model", tmp_path / "gone.json"], "not found")

    def test_model_is_a_data_file(self, capsys, csv):
        self._error(capsys, ["score", csv[0], "--model", csv[0]], "not a JSON model")

    @pytest.mark.parametrize("doc", ["[1, 2]", '{"a": 1}', '"text"'])
    def test_model_json_of_the_wrong_shape(self, capsys, csv, tmp_path, doc):
        m = tmp_path / "m.json"
        m.write_text(doc)
        self._error(capsys, ["score", csv[0], "--model", m], "m.json")

    def _edited(self, tmp_path, model, edit):
        spec = json.loads(json.dumps(model[1]))
        edit(spec)
        m = tmp_path / "edited.json"
        m.write_text(json.dumps(spec))
        return m

    def test_model_missing_family(self, capsys, csv, model, tmp_path):
        first = model[1]["variables"][0]
        m = self._edited(tmp_path, model, lambda s: s["families"].pop(first))
        self._error(capsys, ["score", csv[0], "--model", m], repr(first))

    def test_model_parent_not_a_variable(self, capsys, csv, model, tmp_path):
        def edit(s):
            fam = next(f for f in s["families"].values() if f["parents"])
            old = fam["parents"][0]
            fam["parents"][0] = "ghost"
            fam["params"]["coefficients"]["ghost"] = fam["params"]["coefficients"].pop(old)

        self._error(capsys, ["score", csv[0], "--model", self._edited(tmp_path, model, edit)], "'ghost'")

    def test_model_bad_number(self, capsys, csv, model, tmp_path):
        def edit(s):
            fam = next(f for f in s["families"].values() if f["parents"])
            fam["params"]["coefficients"][fam["parents"][0]] = "heavy"

        self._error(capsys, ["score", csv[0], "--model", self._edited(tmp_path, model, edit)], "'heavy'")

    def test_model_with_a_cycle(self, capsys, csv, model, tmp_path):
        def edit(s):
            for child, parent in (("X1", "X2"), ("X2", "X1")):
                s["families"][child]["parents"] = [parent]
                s["families"][child]["params"]["coefficients"] = {parent: 0.5}

        self._error(capsys, ["score", csv[0], "--model", self._edited(tmp_path, model, edit)], "cycle")

    def test_model_transform_incomplete(self, capsys, csv, model, tmp_path):
        m = self._edited(tmp_path, model, lambda s: s["transform"]["means"].pop("X3"))
        self._error(capsys, ["score", csv[0], "--model", m], "'X3'")

    def test_data_lacks_a_model_variable(self, capsys, csv, model, tmp_path):
        _, _, frame = csv
        p = tmp_path / "fewer.csv"
        frame.drop(columns=["X4"]).to_csv(p, index=False)
        self._error(capsys, ["score", p, "--model", model[0]], "'X4'")

    # ---- usage
    @pytest.mark.parametrize(
        "argv, match",
        [
            (["learn"], "DATA"),
            (["learn", "d.csv", "--k", "0"], "--k"),
            (["learn", "d.csv", "--k", "two"], "--k"),
            (["learn", "d.csv", "--max-steps", "-1"], "--max-steps"),
            (["learn", "d.csv", "--method", "random"], "--method"),
            (["learn", "d.csv", "--measure", "c3"], "--measure"),
            (["score", "d.csv"], "--model"),
            (["fit", "d.csv"], "fit"),
            ([], "learn"),
        ],
    )
    def test_usage_errors(self, capsys, argv, match):
        line = self._error(capsys, argv, match)
        assert "--help" in line

    def test_interrupt(self, capsys, csv, monkeypatch):
        def interrupted(self, *a, **k):
            raise KeyboardInterrupt

        monkeypatch.setattr(IdealParentSearch, "fit", interrupted)
        self._error(capsys, ["learn", csv[0]], "interrupted", code=130)


class TestHelpAndVersion:
    def test_help(self, capsys):
        assert main(["--help"]) == 0
        out = capsys.readouterr().out
        assert "learn" in out and "score" in out and "Ideal Parent" in out and "examples" in out

    @pytest.mark.parametrize("command, words", [("learn", ["--transpose", "--k", "--out"]), ("score", ["--refit"])])
    def test_command_help(self, capsys, command, words):
        assert main([command, "--help"]) == 0
        out = capsys.readouterr().out
        assert all(w in out for w in words)

    def test_version(self, capsys):
        assert main(["--version"]) == 0
        assert cli.VERSION in capsys.readouterr().out


class TestOutputHelpers:
    def test_non_finite_floats_become_null(self):
        text = output.dumps(
            {"a": math.nan, "b": np.float64(np.inf), "c": np.array([1.0, np.nan]), "d": (np.int64(3), -math.inf)}
        )
        assert strict_loads(text) == {"a": None, "b": None, "c": [1.0, None], "d": [3, None]}

    def test_non_finite_score_in_a_result(self, csv, capsys, monkeypatch):
        from engine.network import LearnedNetwork

        original = LearnedNetwork.to_dict

        def with_nan(self):
            d = original(self)
            d["score"]["bic"] = d["score"]["value"] = math.nan
            return d

        monkeypatch.setattr(LearnedNetwork, "to_dict", with_nan)
        rc = main(["learn", str(csv[0])])
        out = capsys.readouterr()
        assert rc == 0
        assert strict_loads(out.out)["score"]["bic"] is None
        assert "BIC n/a" in out.err

    def test_warnings_are_one_line(self, csv, capsys, monkeypatch):
        original = IdealParentSearch.fit

        def warn_then_fit(self, *a, **k):
            warnings.warn("structural EM stopped after 2 iterations\nbefore converging.", UserWarning, stacklevel=1)
            return original(self, *a, **k)

        monkeypatch.setattr(IdealParentSearch, "fit", warn_then_fit)
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            assert main(["learn", str(csv[0])]) == 0
        err = capsys.readouterr().err
        assert "warning: structural EM stopped after 2 iterations before converging." in err
        assert "test_cli.py" not in err and "warnings.warn" not in err


class _Result:
    def __init__(self, n):
        self.n_iter, self.score, self.n_exact = n, -1000.0 + n, 10 * n


class _TTY(io.StringIO):
    def isatty(self):
        return True


class TestProgress:
    def test_log_file_gets_a_line_every_20_steps_and_at_the_end(self):
        stream = io.StringIO()
        p = output.Progress(False, stream)
        for n in range(1, 46):
            p(intermediate_result=_Result(n))
        p.done("done: 45 moves")
        lines = stream.getvalue().splitlines()
        assert [ln.split()[1] for ln in lines[:-1]] == ["20", "40"]
        assert "score" in lines[0] and "exact evaluations 200" in lines[0]
        assert lines[-1] == "done: 45 moves" and "\r" not in stream.getvalue()

    def test_terminal_gets_one_line_updated_in_place(self, monkeypatch):
        monkeypatch.setattr(output, "REFRESH_S", 0.0)
        stream = _TTY()
        p = output.Progress(False, stream)
        for n in range(1, 4):
            p(intermediate_result=_Result(n))
        p.done("done: 3 moves")
        text = stream.getvalue()
        assert text.count("\r") >= 3 and text.count("\n") == 1 and text.endswith("done: 3 moves\n")
        assert "step     3" in text

    def test_quiet(self):
        stream = _TTY()
        p = output.Progress(True, stream)
        p(intermediate_result=_Result(1))
        p.done("done")
        assert stream.getvalue() == ""


def test_module_entry_point(csv, tmp_path):
    """``python -m engine learn`` works as a program: strict JSON on stdout, one-line errors, exit codes."""
    path, _, _ = csv
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "learn", str(path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    res = strict_loads(proc.stdout)
    assert res["edges"] and res["settings"]["data"] == "data.csv"
    assert "standardized each variable" in proc.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "learn", str(tmp_path / "none.csv")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines() == [bad.stderr.strip()] and bad.stderr.startswith("error: ")


def test_out_may_not_overwrite_the_data(csv, capsys):
    path, _, _ = csv
    before = path.read_bytes()
    rc, out = learn(capsys, path, "--out", path)
    assert rc == 2 and "is the data file itself" in out.err
    assert path.read_bytes() == before


def test_score_one_heldout_instance_and_an_unused_constant_column(csv, model, tmp_path, capsys):
    _, held, _ = csv
    frame = pd.read_csv(held).iloc[:1].copy()
    frame["unused"] = 1.0
    one = tmp_path / "one.csv"
    frame.to_csv(one, index=False)
    res = score_json(capsys, one, "--model", model[0])
    assert math.isfinite(res["loglik"])


def test_data_written_after_drop_is_still_found(csv, capsys):
    path, _, frame = csv
    res = learn_json(capsys, "--drop", frame.columns[0], path)
    assert frame.columns[0] not in res["variables"]
    rc, out = learn(capsys)
    assert rc == 2 and "DATA is missing" in out.err


def test_restart_moves_are_marked_random(csv, capsys):
    path, _, _ = csv
    res = learn_json(capsys, path, "--restarts", "3", "--seed", "1")
    randoms = [m for m in res["moves"] if m.get("random")]
    assert all(m["rank"] == 0 for m in randoms)
    assert len(res["moves"]) == res["stats"]["steps"]


def test_no_correction_reaches_the_sigmoid_model(csv, capsys):
    path, _, _ = csv
    res = learn_json(capsys, path, "--cpd", "sigmoid", "--no-correction", "--max-steps", "2")
    assert res["settings"]["correction"] is False and res["settings"]["cpd"] == "sigmoid"
    est = IdealParentSearch(cpd="sigmoid", correction=False, max_iter=1).fit(pd.read_csv(path))
    assert est.stepper_.model.correction is False


def test_progress_line_estimates_the_time_left():
    """After a few seconds the line adds ms per move and a lower bound on the time left."""
    import io
    import time

    from engine.cli import output
    from engine.search.results import StepResult

    def result(n_iter, n_open):
        return StepResult(
            score=-9.0, loglik=-5.0, n_iter=n_iter, n_exact=9, n_ranked=0, elapsed_s=0.0, status=0, n_open=n_open
        )

    progress = output.Progress(False, io.StringIO())
    assert "ETA" not in progress.line(result(1, 30))
    progress.count, progress._start = 4, time.monotonic() - 10.0  # 4 moves in 10 s
    line = progress.line(result(4, 30))
    assert "2,500 ms/move" in line and "ETA >= 1 min 15 s" in line


def test_a_warning_is_said_once_per_run(capsys, monkeypatch):
    """Absent regulators are noticed by every step that reads the list (score choice, stepper,
    structural EM, each from its own line): ``learn --hidden auto`` on wide data said the same
    warning twice. The CLI says each warning once a run; ``main`` starts each run afresh."""
    monkeypatch.setitem(output.QUIET, "on", False)  # an earlier --quiet run must not silence this one
    output.SHOWN_WARNINGS.clear()
    for _ in range(2):
        output.show_warning(UserWarning("1 of 5 candidate regulator(s) are not in the data"), UserWarning, "x", 1)
    output.show_warning(UserWarning("another one"), UserWarning, "y", 2)
    err = capsys.readouterr().err
    assert err.count("candidate regulator(s)") == 1 and err.count("another one") == 1
    output.SHOWN_WARNINGS.clear()  # as main() does at the start of a run
    output.show_warning(UserWarning("1 of 5 candidate regulator(s) are not in the data"), UserWarning, "x", 1)
    assert capsys.readouterr().err.count("candidate regulator(s)") == 1

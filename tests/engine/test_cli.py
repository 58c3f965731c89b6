"""The command-line interface: ``python -m engine learn|score`` (issue #2 item 7)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
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


def learn(capsys, *args):
    rc = main(["learn", *map(str, args), "--quiet"])
    out = capsys.readouterr()
    return rc, out


class TestLearn:
    def test_result_has_every_field(self, csv, capsys):
        path, _, frame = csv
        rc, out = learn(capsys, path)
        assert rc == 0
        res = json.loads(out.out)
        assert res["variables"] == list(frame.columns)
        assert {"edges", "families", "score", "stats", "settings"} <= set(res)
        assert res["score"]["units"] == "nats"
        assert isinstance(res["score"]["bic"], float) and isinstance(res["score"]["loglik"], float)
        for key in ("steps", "exact_evaluations", "ranked_candidates", "seconds"):
            assert key in res["stats"]
        # edges agree with the families
        from_fams = {(p, c) for c, f in res["families"].items() for p in f["parents"]}
        assert {(e["parent"], e["child"]) for e in res["edges"]} == from_fams
        for e in res["edges"]:
            assert e["weight"] == pytest.approx(res["families"][e["child"]]["params"]["coefficients"][e["parent"]])
        assert res["settings"]["data"] == "data.csv" and res["settings"]["standardize"] is True

    def test_steps_count_moves_and_methods_agree_in_spirit(self, csv, capsys):
        path, _, _ = csv
        _, g = learn(capsys, path, "--method", "greedy")
        _, i = learn(capsys, path, "--method", "ideal", "--k", "2")
        g, i = json.loads(g.out), json.loads(i.out)
        assert g["stats"]["steps"] >= 1 and i["stats"]["steps"] >= 1
        assert i["stats"]["exact_evaluations"] < g["stats"]["exact_evaluations"]
        assert i["score"]["bic"] >= g["score"]["bic"] - 0.01 * abs(g["score"]["bic"])

    def test_out_file_and_progress(self, csv, tmp_path, capsys):
        path, _, _ = csv
        out = tmp_path / "r.json"
        rc = main(["learn", str(path), "--out", str(out)])
        captured = capsys.readouterr()
        assert rc == 0 and captured.out == ""
        assert json.loads(out.read_text())["variables"]
        assert "standardized" in captured.err and "done:" in captured.err

    def test_transpose_gives_the_same_network(self, csv, tmp_path, capsys):
        path, _, frame = csv
        t = tmp_path / "genes_x_conditions.csv"
        frame.T.rename_axis("gene").to_csv(t)
        _, a = learn(capsys, path)
        _, b = learn(capsys, t, "--transpose")
        a, b = json.loads(a.out), json.loads(b.out)
        assert [(e["parent"], e["child"]) for e in a["edges"]] == [(e["parent"], e["child"]) for e in b["edges"]]
        np.testing.assert_allclose([e["weight"] for e in a["edges"]], [e["weight"] for e in b["edges"]], rtol=1e-9)

    def test_no_standardize_is_recorded(self, csv, capsys):
        path, _, _ = csv
        _, out = learn(capsys, path, "--no-standardize")
        res = json.loads(out.out)
        assert res["settings"]["standardize"] is False
        assert res["transform"]["standardized"] is False

    def test_missing_cells_learn_by_structural_em(self, csv, tmp_path, capsys):
        _, _, frame = csv
        holes = frame.copy()
        holes.iloc[3, 2] = np.nan
        holes.iloc[10, 5] = np.nan
        p = tmp_path / "holes.csv"
        holes.to_csv(p, index=False)
        rc, out = learn(capsys, p)
        assert rc == 0
        res = json.loads(out.out)
        assert "structural EM" in res["missing_values"]


class TestScore:
    def test_same_data_reproduces_the_training_loglik(self, csv, tmp_path, capsys):
        path, _, _ = csv
        model = tmp_path / "m.json"
        main(["learn", str(path), "--out", str(model), "--quiet"])
        res = json.loads(model.read_text())
        capsys.readouterr()
        for extra in ([], ["--refit"]):
            assert main(["score", str(path), "--model", str(model), *extra]) == 0
            out = json.loads(capsys.readouterr().out)
            assert out["loglik"] == pytest.approx(res["score"]["loglik"], rel=1e-6)
            assert out["bic"] == pytest.approx(res["score"]["bic"], rel=1e-6)
            assert out["loglik_per_instance_per_variable"] == pytest.approx(out["loglik"] / (300 * 8))

    def test_held_out_is_worse_than_training(self, csv, tmp_path, capsys):
        path, held, _ = csv
        model = tmp_path / "m.json"
        main(["learn", str(path), "--out", str(model), "--quiet"])
        capsys.readouterr()
        main(["score", str(path), "--model", str(model)])
        train = json.loads(capsys.readouterr().out)
        main(["score", str(held), "--model", str(model)])
        test = json.loads(capsys.readouterr().out)
        assert test["loglik_per_instance_per_variable"] < train["loglik_per_instance_per_variable"]
        main(["score", str(held), "--model", str(model), "--refit"])
        refit = json.loads(capsys.readouterr().out)
        assert refit["loglik"] >= test["loglik"]


class TestErrors:
    def _error(self, capsys, argv, match):
        rc = main(argv)
        err = capsys.readouterr().err
        assert rc == 2
        lines = err.strip().splitlines()
        assert lines[-1].startswith("error: ") and sum(x.startswith("error:") for x in lines) == 1
        assert "Traceback" not in err
        assert match in lines[-1]
        return err

    def test_missing_file(self, capsys, tmp_path):
        self._error(capsys, ["learn", str(tmp_path / "nope.csv")], "not found")

    def test_non_numeric_column_named(self, capsys, tmp_path):
        p = tmp_path / "d.csv"
        p.write_text("a,label,c\n1,x,3\n4,y,6\n7,z,8\n2,w,1\n")
        self._error(capsys, ["learn", str(p)], "'label'")

    def test_constant_column_named(self, capsys, tmp_path):
        p = tmp_path / "d.csv"
        p.write_text("a,flat,c\n1,5,3\n4,5,6\n7,5,8\n2,5,1\n")
        self._error(capsys, ["learn", str(p)], "'flat'")

    def test_png_is_not_a_table(self, capsys, tmp_path):
        p = tmp_path / "picture.png"
        p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
        self._error(capsys, ["learn", str(p)], "binary")

    def test_model_not_json(self, capsys, csv, tmp_path):
        path, _, _ = csv
        m = tmp_path / "m.json"
        m.write_text("this is not json")
        self._error(capsys, ["score", str(path), "--model", str(m)], "not a JSON model")

    def test_model_missing_family(self, capsys, csv, tmp_path):
        path, _, _ = csv
        m = tmp_path / "m.json"
        main(["learn", str(path), "--out", str(m), "--quiet"])
        capsys.readouterr()
        spec = json.loads(m.read_text())
        del spec["families"][spec["variables"][0]]
        m.write_text(json.dumps(spec))
        self._error(capsys, ["score", str(path), "--model", str(m)], "error:")

    def test_multiplicative_needs_positive_data(self, capsys, csv):
        path, _, _ = csv
        self._error(capsys, ["learn", str(path), "--cpd", "multiplicative"], "strictly positive")


def test_module_entry_point(csv, tmp_path):
    """``python -m engine learn`` works as a program and its output is strict JSON."""
    path, _, _ = csv
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "learn", str(path), "--quiet"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["edges"]
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "learn", str(tmp_path / "none.csv")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr

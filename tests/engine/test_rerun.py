"""Exports say how to get the same result again (issue #24): ``rerun`` and ``settings`` of the
CLI's JSON, re-run through ``engine.cli.main``; ``--max-steps`` with missing cells; ``--quiet``."""

from __future__ import annotations

import json
import shlex

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.cli.rerun import REGULATOR_FILE, regulator_file_text, rerun_args, rerun_command
from engine.synth import random_network, sample


@pytest.fixture()
def lab(tmp_path, monkeypatch):
    """A genes x samples CSV with a text column, a repeated gene id and no header line, in the
    working directory (the rerun command names files as the result records them)."""
    monkeypatch.chdir(tmp_path)
    net = random_network(9, seed=7)
    values = np.asarray(sample(net, 60, seed=8))
    genes = [f"g{i}" for i in range(9)]
    genes[8] = "g0"  # two probes of one gene
    rows = [[genes[g], "note", *(f"{v:.6f}" for v in values[:, g])] for g in range(9)]
    pd.DataFrame(rows).to_csv(tmp_path / "lab.csv", header=False, index=False)
    (tmp_path / "tf.txt").write_text("# regulators\ng1\ng2\ng3\nabsent_gene\n")
    return tmp_path


def _edges(res):
    return sorted((e["parent"], e["child"]) for e in res["edges"])


class TestRerun:
    def test_command_from_settings_gives_the_same_network(self, lab, capsys):
        flags = ["--transpose", "--no-header", "--skip-unusable", "--number-repeats", "--regulators", "tf.txt"]
        flags += ["--k", "3", "--measure", "c1", "--max-parents", "2", "--score", "ebic", "--seed", "3"]
        assert main(["learn", "lab.csv", *flags, "--out", "first.json", "--quiet"]) == 0
        first = json.loads((lab / "first.json").read_text())
        s = first["settings"]
        assert s["transpose"] and s["no_header"] and s["skip_unusable"] and s["number_repeats"]
        assert s["regulators"] == ["g1", "g2", "g3", "absent_gene"] and s["regulators_file"] == "tf.txt"
        assert (s["k"], s["measure"], s["max_parents"], s["score"], s["seed"]) == (3, "c1", 2, "ebic", 3)
        args = rerun_args(s)
        assert first["rerun"] == "python -m engine " + shlex.join(args)
        assert main([*args, "--out", "again.json", "--quiet"]) == 0
        again = json.loads((lab / "again.json").read_text())
        assert _edges(again) == _edges(first) and _edges(first)
        assert again["score"]["value"] == pytest.approx(first["score"]["value"], rel=1e-12)
        assert again["settings"] == first["settings"]

    def test_regulator_names_without_their_file(self, lab, capsys):
        assert main(["learn", "lab.csv", "--transpose", "--no-header", "--skip-unusable", "--number-repeats",
                     "--regulators", "tf.txt", "--out", "first.json", "--quiet"]) == 0  # fmt: skip
        settings = json.loads((lab / "first.json").read_text())["settings"]
        del settings["regulators_file"]  # e.g. the explorer's list, typed in
        del settings["paths"]["regulators"]
        (lab / REGULATOR_FILE).write_text(regulator_file_text(settings))
        assert f"--regulators {REGULATOR_FILE}" in rerun_command(settings)
        assert main([*rerun_args(settings), "--out", "again.json", "--quiet"]) == 0
        assert _edges(json.loads((lab / "again.json").read_text())) == _edges(
            json.loads((lab / "first.json").read_text())
        )

    def test_unknown_settings_flow_through_when_they_are_options(self):
        s = {"data": "x.csv", "k": 4, "max_iter": 7, "n_restarts": 2, "standardize": False, "correction": False,
             "drop": ["a b", "c"], "resample": {"choice": "subsample", "reason": "wide"}, "restart_moves": 10,
             "source": "Bundled sample"}  # fmt: skip
        args = rerun_args(s)
        assert args[:2] == ["learn", "x.csv"] and args[-3:] == ["--drop", "a b", "c"]
        for words in (
            ["--k", "4"],
            ["--max-steps", "7"],
            ["--restarts", "2"],
            ["--no-standardize"],
            ["--no-correction"],
        ):
            assert " ".join(words) in " ".join(args)
        assert "--source" not in args and "--restart-moves" not in args
        assert "--resample" not in args  # not an option of this version's 'learn': a record
        assert "'a b'" in rerun_command(s)
        assert rerun_args({"n_replicates": 50, "threshold": None}, "d.csv", "bootstrap") == [
            "bootstrap", "d.csv", "--replicates", "50"]  # fmt: skip


class TestMaxStepsWithMissingCells:
    def test_max_steps_caps_structural_em(self, tmp_path, capsys):
        net = random_network(8, seed=1)
        frame = pd.DataFrame(sample(net, 300, seed=2), columns=net.names)
        frame.iloc[3, 2] = frame.iloc[10, 5] = np.nan
        path = tmp_path / "holes.csv"
        frame.to_csv(path, index=False)
        assert main(["learn", str(path)]) == 0
        full = json.loads(capsys.readouterr().out)
        assert main(["learn", str(path), "--max-steps", "2"]) == 0
        out = capsys.readouterr()
        capped = json.loads(out.out)
        assert "not used" not in out.err  # it was ignored with a warning (#24)
        assert capped["stats"]["steps"] == 2 == len(capped["edges"]) < len(full["edges"])
        assert capped["stats"]["converged"] is False and "max_iter = 2" in capped["stats"]["message"]
        assert capped["settings"]["max_iter"] == 2 and "--max-steps 2" in capped["rerun"]

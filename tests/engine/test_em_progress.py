"""Structural EM says where it is while it runs (engine.hidden.em_progress), and saying it changes nothing."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.data import from_array
from engine.hidden import StructuralEM, em_progress
from engine.hidden.em_progress import EMStatus, reporting

N_REG = 8


def module_table(seed: int = 0, n: int = 40, m: int = 40, n_missing: int = 12):
    """Conditions x genes: a 6-gene module driven by an unmeasured factor, chains among the rest,
    ``n_missing`` missing cells; the last :data:`N_REG` genes are the listed regulators."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    h = rng.normal(size=m)
    x[:, :6] = 0.9 * h[:, None] + 0.45 * rng.normal(size=(m, 6))
    for j in range(8, n - N_REG):
        x[:, j] += 0.7 * x[:, n - 1 - (j % N_REG)]
    x.flat[rng.choice(x.size, size=n_missing, replace=False)] = np.nan
    return x, [f"g{j:03d}" for j in range(n)]


def write_table(tmp_path):
    x, names = module_table()
    frame = pd.DataFrame(x, columns=names, index=[f"cond{i + 1:02d}" for i in range(len(x))])
    path = tmp_path / "expr.tsv"
    frame.rename_axis("condition").to_csv(path, sep="\t")
    regs = tmp_path / "tfs.txt"
    regs.write_text("\n".join(names[-N_REG:]) + "\n")
    return path, regs


def run_em(**report):
    x, names = module_table()
    em = StructuralEM(from_array(x, names), max_iter=20)
    said: list[EMStatus] = []
    if report:
        with reporting(said.append, **report):
            em.run()
    else:
        em.run()
    return em, said


class TestEMProgress:
    def test_each_iteration_is_told_with_its_figures(self):
        em, said = run_em(every=0.0)
        ends = [s for s in said if s.score is not None]
        assert [s.iteration for s in ends] == [rec.iteration for rec in em.history]
        for s, rec in zip(ends, em.history, strict=True):
            assert (s.moves, s.score, s.n_edges) == (rec.moves, rec.expected_bic, rec.n_edges)
            name = em.score_choice.name.upper()
            assert s.score_name == name and f"expected {name} {rec.expected_bic:,.1f}" in s.text
        # during the first M-step, each move: 1, 2, ... up to the iteration's moves
        during = [s.moves for s in said if s.score is None and s.iteration == 1]
        assert during == list(range(1, em.history[0].moves + 1)) and during
        assert "structure search (M-step)" in next(s for s in said if s.score is None).text
        seconds = [s.seconds for s in said]
        assert seconds == sorted(seconds)

    def test_at_most_one_status_per_interval(self, monkeypatch):
        ticks = iter(np.arange(0.0, 1e6, 0.25))  # each clock reading a quarter of a second later
        monkeypatch.setattr(em_progress, "_now", lambda: float(next(ticks)))
        em, said = run_em(every=2.0)
        gaps = np.diff([s.seconds for s in said])
        assert len(said) >= 2 and gaps.min() >= 2.0
        _, none = run_em(every=1e9)
        assert none == []

    def test_the_run_is_the_same_with_and_without(self):
        told, said = run_em(every=0.0)
        quiet, _ = run_em()
        assert said and told.edges == quiet.edges
        assert told.lower_bounds_ == quiet.lower_bounds_ and told.n_moves == quiet.n_moves
        np.testing.assert_array_equal(told.mean, quiet.mean)

    def test_logged_when_nobody_asked(self, caplog):
        """Without :func:`reporting`, the lines go to the engine.hidden.em logger (rate-limited)."""
        x, names = module_table()
        caplog.set_level("INFO", logger="engine.hidden.em")
        em_progress._LOG.every, every = 0.0, em_progress._LOG.every
        try:
            StructuralEM(from_array(x, names), max_iter=20).run()
        finally:
            em_progress._LOG.every = every
        lines = [r.getMessage() for r in caplog.records if r.name == "engine.hidden.em"]
        assert any(line.startswith("iteration 1 done:") for line in lines)


def learn(path, regs, out, *extra):
    return main(["learn", str(path), "--regulators", str(regs), "--hidden", "auto", "--max-hidden", "1",
                 "--out", str(out), *extra])  # fmt: skip


class TestCLI:
    @pytest.fixture(scope="class")
    @classmethod
    def table(cls, tmp_path_factory):
        return write_table(tmp_path_factory.mktemp("em_progress"))

    def test_em_lines_on_stderr_and_the_model_unchanged(self, table, tmp_path, capsys, monkeypatch):
        path, regs = table
        monkeypatch.setattr(em_progress._LOG, "every", 1e9)  # never due: no EM line
        assert learn(path, regs, tmp_path / "quiet.json") == 0
        err = capsys.readouterr().err.splitlines()
        assert not [line for line in err if line.startswith("  - structural EM:")]
        monkeypatch.setattr(em_progress._LOG, "every", 0.0)  # every move and iteration
        assert learn(path, regs, tmp_path / "told.json") == 0
        err = capsys.readouterr().err.splitlines()
        em = [line for line in err if line.startswith("  - structural EM: iteration ")]
        assert any(" done: " in line and "expected EBIC" in line and "s into this EM run" in line for line in em)
        assert any("structure search (M-step):" in line and "so far" in line for line in em)
        # said while the search runs: the first search's before the line that reports its end
        first = next(i for i, line in enumerate(err) if "network without hidden variables" in line)
        assert err.index(em[0]) < first
        told = json.loads((tmp_path / "told.json").read_text())
        quiet = json.loads((tmp_path / "quiet.json").read_text())
        assert told["edges"] == quiet["edges"] and told["score"] == quiet["score"]
        assert told["hidden"] == quiet["hidden"] and told["hidden"]

    def test_quiet_silences_them(self, table, tmp_path, capsys, monkeypatch):
        path, regs = table
        monkeypatch.setattr(em_progress._LOG, "every", 0.0)
        assert learn(path, regs, tmp_path / "q.json", "--quiet") == 0
        assert "structural EM" not in capsys.readouterr().err

    def test_missing_cells_without_hidden_variables_too(self, table, tmp_path, capsys, monkeypatch):
        """``learn`` with missing cells runs structural EM without ``--hidden``: its lines are said too."""
        path, regs = table
        monkeypatch.setattr(em_progress._LOG, "every", 0.0)
        assert main(["learn", str(path), "--regulators", str(regs), "--out", str(tmp_path / "m.json")]) == 0
        err = capsys.readouterr().err.splitlines()
        assert any(line.startswith("  - structural EM: iteration 1 done: ") for line in err)
        assert not any(line.startswith("  - hidden variables:") for line in err)

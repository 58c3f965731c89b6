"""The plumbing of benchmarks/study_out_of_sample.py (the OUT_OF_SAMPLE rule's study, #22): which seeds a
``--seeds`` text names, what a read H is said to track, and that a generator's own default width is used
when ``--n-cols`` is not given. No search is run."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_h20 as h20m  # noqa: E402
import study_out_of_sample as study  # noqa: E402


def test_seeds_of_reads_lists_and_ranges():
    assert study.seeds_of("2050,2056-2058") == [2050, 2056, 2057, 2058]
    assert study.seeds_of("7") == [7]


def test_what_a_read_h_tracks_on_h20m_stand_ins():
    """On an h20m-null table (smoke width, a seed outside the hold-out) a profile that is the donors' sex
    reads |r| 1 with the sex column and donor R^2 near 1, one that is R* reads r* = 1, and noise neither."""
    g = h20m.generate(2191, True, n_cols=300)
    g = {**g, "removed": np.column_stack([g["star"], g["drivers"], g["depth"], g["sex"], g["factors"]])}
    sex = study._tracks(h20m, g, np.asarray(g["sex"], dtype=float))
    others = [float(x) for x in sex.split("r(others)=")[1].split()[0].split(",")]
    assert max(others) > 0.999 and float(sex.split("donorR2=")[1].split()[0]) > 0.99
    assert study._tracks(h20m, g, np.asarray(g["star"], dtype=float)).startswith("r*=1.00")
    noise = study._tracks(h20m, g, np.random.default_rng(0).normal(size=len(g["labels"])))
    assert not noise.startswith("r*=1.00") and "1.00" not in noise.split("r(others)=")[1].split()[0]


def test_without_n_cols_the_generator_keeps_its_own_width(monkeypatch):
    """h16m/h17m default to a fixed width (not None): ``--n-cols`` left out must not pass ``None``."""
    seen: dict = {}

    def generate(seed, null=False, n_cols=2500):
        seen["n_cols"] = n_cols
        return {}

    stub = types.SimpleNamespace(generate=generate, run_seed=lambda g, source, seed: ("line", {}), fit_auto=None)
    monkeypatch.setattr(study.importlib, "import_module", lambda name: stub)
    assert study._tally_seed("h16m", 1650) == ("line", [])
    assert seen["n_cols"] == 2500
    study._tally_seed("h16m-null", 1650, 600)
    assert seen["n_cols"] == 600

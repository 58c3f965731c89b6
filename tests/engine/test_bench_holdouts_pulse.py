"""Smoke cases of the seventh #22 session's genome hold-out, ``benchmarks/bench_regulators_genome_pulse.py``
(its general-network one, ``roots``, is in test_bench_holdouts_roots.py).

They check what the generator plants (shapes and lists, determinism, R* out of the table and the
list, its module follows it, the pulse drivers' targets are shifted up and down in the drivers'
conditions, the null lists R* and has no drivers, counts, the condition series) and how a seed is
scored (the search stood in for), on seeds outside the hold-out's 1300-1309; they never run the
search: the hold-out's recovery is measured once, at the end of the session, by the script."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_pulse as pulse  # noqa: E402
from genome_auto import Kept  # noqa: E402

#: outside the hold-out's 1300-1309; 1311 has two drivers
PULSE_SEED = 1311


def _col(g: dict, name: str) -> np.ndarray:
    return g["values"][:, g["names"].index(name)]


def _r(a: np.ndarray, b: np.ndarray) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


@pytest.fixture(scope="module")
def table():
    return pulse.generate(PULSE_SEED)


@pytest.fixture(scope="module")
def null():
    return pulse.generate(PULSE_SEED, null=True)


def test_shapes_and_lists(table):
    g = table
    m = len(g["labels"])
    assert 24 <= m <= 36 and 2000 <= g["values"].shape[1] <= 2600 and g["values"].shape[0] == m
    assert len(g["names"]) == len(set(g["names"])) == g["values"].shape[1] and np.isfinite(g["values"]).all()
    assert 90 <= len(g["regulators"]) <= 130 and set(g["regulators"]) <= set(g["names"])
    assert "tf000" not in g["names"] and "tf000" not in g["regulators"]  # R* removed from both
    assert 30 <= len(g["module"]) <= 45 and g["star"].shape == (m,)
    k = g["drivers"].shape[1]
    assert k == len(g["targets"]) in (1, 2) and all(30 <= len(t) <= 50 for t in g["targets"])
    assert not any(t & g["module"] for t in g["targets"]) and (k == 1 or not g["targets"][0] & g["targets"][1])
    on = g["drivers"] > 0
    assert all(2 <= on[:, j].sum() <= 5 for j in range(k)) and on.sum(axis=1).max() == 1  # disjoint conditions
    assert g["drivers"][on].min() >= 0.7 and g["drivers"].max() <= 1.0


def test_seeds_vary_drivers_and_sizes():
    gens = [pulse.generate(s) for s in range(1310, 1316)]
    assert {g["drivers"].shape[1] for g in gens} == {1, 2}
    assert len({g["values"].shape for g in gens}) == len(gens) and len({len(g["regulators"]) for g in gens}) > 2


def test_deterministic_and_null_lists_r_star(table, null):
    again = pulse.generate(PULSE_SEED)
    assert np.array_equal(again["values"], table["values"]) and again["labels"] == table["labels"]
    n = null
    assert n["values"].shape == (len(table["labels"]), table["values"].shape[1] + 1)
    assert "tf000" in n["regulators"] and len(n["regulators"]) == len(table["regulators"]) + 1
    assert np.allclose(_col(n, "tf000"), table["star"]) and n["labels"] == table["labels"]
    for name in table["regulators"][:10]:
        assert np.allclose(_col(n, name), _col(table, name))  # the same TFs


def test_module_follows_r_star(table):
    r = [_r(_col(table, x), table["star"]) for x in table["module"]]
    assert np.median(r) > 0.6 and min(r) > 0.2


def test_drivers_shift_their_targets_up_and_down(table):
    """In the driver's conditions its targets move by about 1.5-3 of their sd, some down; their
    signed sum tracks the driver (a module a method can find), the other genes do not."""
    g = table
    z = (g["values"] - g["values"].mean(axis=0)) / g["values"].std(axis=0)
    for k, targets in enumerate(g["targets"]):
        d = g["drivers"][:, k]
        cols = [g["names"].index(x) for x in targets]
        signs = np.sign([np.corrcoef(z[:, c], d)[0, 1] for c in cols])
        assert 0.1 < np.mean(signs < 0) < 0.7  # repressed as well as induced
        assert _r(z[:, cols] @ signs, d) > 0.9
        on = d > 0
        jump = np.abs(z[on][:, cols].mean(axis=0) - z[~on][:, cols].mean(axis=0))
        assert np.median(jump) > 1.0
        others = [c for c in range(len(g["names"])) if g["names"][c] not in targets][::20]
        assert np.median([_r(z[:, c], d) for c in others]) < 0.25


def test_null_has_no_drivers(table, null):
    for k, targets in enumerate(table["targets"]):
        d = table["drivers"][:, k]
        assert np.median([_r(_col(null, x), d) for x in targets]) < 0.3


def test_counts_and_series(table):
    g = table
    counts = [g["names"].index(x) for x in g["counts"]]
    v = g["values"][:, counts]
    assert np.allclose(np.exp2(v) - 1.0, np.round(np.exp2(v) - 1.0))  # log2(count + 1)
    share = len(counts) / (len(g["names"]) - len(g["regulators"]))
    assert 0.15 < share < 0.4
    assert all(re.fullmatch(r"s\d_t\d+", x) for x in g["labels"]) and len(set(g["labels"])) == len(g["labels"])
    assert 3 <= len(set(g["series"])) <= 6


def _fake_run(monkeypatch, table, kept, top, *more):
    hs = SimpleNamespace(considered=SimpleNamespace(flagged={}))  # nothing set aside by auto
    monkeypatch.setattr(pulse, "fit_auto", lambda g, source, seed: (SimpleNamespace(hidden_search_=hs), 2.0, 12.0))
    monkeypatch.setattr(pulse, "kept_of", lambda hs, g: kept)
    monkeypatch.setattr(pulse, "top_proposals", lambda est: [top, *more])


def _listed(members, profile, flagged_by=(), step=()):
    """A listed proposal as the script reads it."""
    names = [str(m) for m in members]
    return SimpleNamespace(
        members=list(members),
        names=names,
        profile=profile,
        high_leverage=list(flagged_by),
        flagged=bool(flagged_by),
        step_conditions=list(step),
    )


def test_seed_line_scores_r_star_drivers_and_flags(table, monkeypatch):
    """The search stood in for: an H on R* recovers it, one on D1 recovers D1 (D2 missed), one on
    nothing planted is FALSE; a flagged condition where a driver is on is starred."""
    g = table
    d1_on = [g["labels"][i] for i in np.flatnonzero(g["drivers"][:, 0])]
    n_fac = g["factors"].shape[1]
    kept = [
        Kept("H1", [0.95, 0.1, 0.2] + [0.3] * n_fac, set(sorted(g["module"])[:5]), ["tf007"], 0.3, 0.1, 40.0),
        Kept("H2", [0.1, 0.93, 0.1] + [0.2] * n_fac, set(sorted(g["targets"][0])[:6]), [], 0.0, 0.4, 30.0),
        Kept("H3", [0.2, 0.1, 0.1] + [0.3] * n_fac, {"g0001"}, [], 0.0, 0.6, 5.0, flagged=[d1_on[0]]),
    ]
    top = _listed(range(7), g["star"].copy())
    d2_on = [g["labels"][i] for i in np.flatnonzero(g["drivers"][:, 1])]
    program = _listed(sorted(g["targets"][1])[:9] + ["g0001"], g["drivers"][:, 1], d2_on, d2_on)  # D2, flagged
    _fake_run(monkeypatch, g, kept, top, program)
    line, t = pulse.run_seed(g, "pulse-1311", PULSE_SEED)
    assert t["named"] == ["", f"listed 9/{len(g['targets'][1])} in 10"] and t["pairs"] == (len(d2_on) == 2)
    assert f"named listed 9/{len(g['targets'][1])} in 10" in line
    assert t["star"] and t["fast"] and t["drivers"] == [True, False] and t["false"] == 1 and t["flagged"]
    assert "R* OK 0.95" in line and "D1(on" in line and "OK 0.93" in line and "D2(on" in line and "-- 0.20" in line
    assert "H1 5 kids r*=0.95" in line and "in-module=5" in line and "<- tf007" in line
    assert "H3 1 kids" in line and "FALSE" in line and f"FLAG {d1_on[0]}*" in line
    assert "top proposal 7 genes r*=1.00" in line and "kept 3 flag YES" in line
    text = pulse.summary("pulse", [t, {**t, "star": False, "fast": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2 (1 within 60 s CPU)" in text and "drivers recovered 2/4" in text
    assert "every planted regulator on 0/2" in text and "flagged on 2/2" in text


def test_null_line_counts_listed_and_false(null, monkeypatch):
    n_fac = null["factors"].shape[1]
    k = null["drivers"].shape[1]
    kept = [
        Kept("H1", [0.97] + [0.1] * (k + n_fac), {"g0002"}, [], 0.0, 0.1, 9.0),
        Kept("H2", [0.2] + [0.95] * (k + n_fac), {"g0003"}, [], 0.0, 0.1, 4.0),
    ]
    top = _listed([1, 2, 3], null["star"].copy(), ["s1_t1"])
    _fake_run(monkeypatch, null, kept, top)
    line, t = pulse.run_seed(null, "pulse-null-1311", PULSE_SEED)
    assert t["listed"] == 1 and t["false"] == 1 and not t["star"] and t["flagged"] and "R* OK" not in line
    assert "LISTED" in line and "FALSE" in line
    assert pulse.summary("pulse-null", [t]).startswith("pulse-null: a hidden variable kept on 1/1 (1 on the listed R*)")

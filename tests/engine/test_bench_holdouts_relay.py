"""Smoke cases of the eighth #22 session's genome hold-out, ``benchmarks/bench_regulators_genome_relay.py``
(its general-network one, ``fanin``, is in test_bench_holdouts_fanin.py).

They check what the generator plants on a reduced table (600 columns; shapes and lists with absent
names, determinism, R* out of the table and the list and relayed from a listed measured TF, its
module follows it through non-linear curves yet a linear summary of the module tracks it, the
on/off program in the heat conditions, intensity-dependent noise and missing cells on faint genes,
the lab's condition names, the null lists R*) and how a seed is scored (the search stood in for),
on seeds outside the hold-out's 1500-1509; they never run the search: the hold-out's recovery is
measured once, at the end of the session, by the script."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators_genome_relay as relay  # noqa: E402
from _holdout_tables import same_table  # noqa: E402
from genome_auto import Kept  # noqa: E402

SEED, COLS = 1512, 600  # outside the hold-out's 1500-1509; a reduced table


def _col(g: dict, name: str) -> np.ndarray:
    return g["values"][:, g["names"].index(name)]


def _r(a: np.ndarray, b: np.ndarray) -> float:
    ok = np.isfinite(a) & np.isfinite(b)
    return abs(float(np.corrcoef(a[ok], b[ok])[0, 1]))


@pytest.fixture(scope="module")
def table():
    return relay.generate(SEED, n_cols=COLS)


@pytest.fixture(scope="module")
def null():
    return relay.generate(SEED, True, n_cols=COLS)


def test_shapes_and_lists(table):
    g = table
    m = len(g["labels"])
    assert 20 <= m <= 40 and g["values"].shape == (m, COLS) and len(g["names"]) == len(set(g["names"])) == COLS
    assert 80 <= len(g["regulators"]) <= 150 and len(set(g["regulators"])) == len(g["regulators"])
    absent = set(g["regulators"]) - set(g["names"])
    assert absent == set(g["absent"]) and 0.04 <= len(absent) / len(g["regulators"]) <= 0.16
    assert g["star_name"] not in g["names"] and g["star_name"] not in g["regulators"]  # R* removed from both
    assert g["relay"] in g["names"] and g["relay"] in g["regulators"]
    assert 25 <= len(g["module"]) <= 60 and 15 <= len(g["targets"][0]) <= 40 and not g["module"] & g["targets"][0]
    assert g["star"].shape == (m,) and g["drivers"].shape == (m, 1)
    assert all(re.fullmatch(r"[a-z]{3}[A-Z]", x) for x in g["names"] + g["regulators"])


def test_seeds_vary():
    gens = [relay.generate(s, n_cols=COLS) for s in range(1510, 1515)]
    assert len({len(g["labels"]) for g in gens}) > 2 and len({len(g["regulators"]) for g in gens}) > 2
    assert len({len(g["module"]) for g in gens}) > 2 and {len(g["on"]) for g in gens} <= {3, 4, 5}
    assert 2000 <= relay.generate(1510)["values"].shape[1] <= 3000  # the full width is drawn


def test_deterministic_and_null_lists_r_star(table, null):
    again = relay.generate(SEED, n_cols=COLS)
    assert same_table(again["values"], table["values"]) and again["labels"] == table["labels"]
    n = null
    assert n["values"].shape == (len(table["labels"]), COLS + 1) and n["labels"] == table["labels"]
    assert table["star_name"] in n["regulators"] and len(n["regulators"]) == len(table["regulators"]) + 1
    assert _r(_col(n, table["star_name"]), table["star"]) > 0.7  # R*'s measured column in the null
    assert n["names"][1:] == table["names"]
    d = table["drivers"][:, 0]
    assert np.median([_r(_col(n, x), d) for x in table["targets"][0]]) < 0.3  # no program in the null


def test_r_star_is_relayed_from_a_listed_tf(table):
    g = table
    assert 0.3 < _r(g["star"], g["activity"][:, g["tf_names"].index(g["relay"])]) < 0.8
    assert _r(_col(g, g["relay"]), g["activity"][:, g["tf_names"].index(g["relay"])]) > 0.7  # measured with noise


def test_module_follows_r_star_through_curves(table):
    """Every module gene follows R*; pooled, a cubic in R* fits them better than a line (threshold
    and saturating curves, half each); yet the module's first principal component tracks R* at
    |r| >= 0.9, so the recovery rule is reachable by a linear H."""
    g = table
    star = g["star"]
    assert set(g["responses"].values()) == {"threshold", "saturating"}
    gain = []
    for name in g["module"]:
        y = _col(g, name)
        ok = np.isfinite(y)
        fits = [np.polyfit(star[ok], y[ok], d, full=True)[1][0] for d in (1, 3)]
        gain.append(1 - fits[1] / fits[0])
        assert _r(y, star) > 0.3
    assert np.median(gain) > 0.25
    cols = [g["names"].index(x) for x in sorted(g["module"])]
    z = g["values"][:, cols]
    z = (z - np.nanmean(z, axis=0)) / np.nanstd(z, axis=0)
    z = np.where(np.isfinite(z), z, 0.0)
    pc1 = np.linalg.svd(z - z.mean(axis=0), full_matrices=False)[0][:, 0]
    assert _r(pc1, star) >= 0.9


def test_program_is_on_in_the_heat_conditions(table, null):
    g = table
    d = g["drivers"][:, 0]
    assert {g["labels"][i] for i in np.flatnonzero(d)} == set(g["on"]) and all("_heat_" in x for x in g["on"])
    assert 3 <= len(g["on"]) <= 5 and d[d > 0].min() >= 0.8
    jumps = []
    for name in g["targets"][0]:
        x, x0 = _col(g, name), _col(null, name)
        ok = np.isfinite(x)
        jumps.append((np.nanmean(x[d > 0]) - np.nanmean(x[~(d > 0) & ok])) / np.nanstd(x0))
    jumps = np.array(jumps)
    assert np.median(np.abs(jumps)) > 1.0 and 0.1 < np.mean(jumps < 0) < 0.6  # induced and repressed


def test_noise_grows_on_faint_genes_and_missing_cells_fall_there(table):
    """Each TF column minus its activity's fit is noise: its sd is larger where the column is
    fainter; about 0.5 % of the cells are missing, more of them on faint genes."""
    g = table
    sds, levels = [], []
    for j, name in enumerate(g["tf_names"]):
        if name not in g["names"]:
            continue
        y, a = _col(g, name), g["activity"][:, j]
        ok = np.isfinite(y)
        resid = y[ok] - np.polyval(np.polyfit(a[ok], y[ok], 1), a[ok])
        sds.append(resid.std())
        levels.append(y[ok].mean())
    rank = np.argsort(np.argsort(levels)), np.argsort(np.argsort(sds))
    assert np.corrcoef(*rank)[0, 1] < -0.5
    missing = np.isnan(g["values"])
    assert 0.004 < missing.mean() < 0.006
    level = np.nanmean(g["values"], axis=0)
    assert level[np.nonzero(missing)[1]].mean() < np.median(level) - 1.0


def test_conditions_are_named_as_a_lab_names_them(table):
    labels = table["labels"]
    assert len(set(labels)) == len(labels) and all(
        re.fullmatch(r"(WT|d[a-z]{3}[A-Z])_[A-Za-z0-9]+_r\d", x) for x in labels
    )
    assert labels[0].startswith("WT_") and any(x.endswith("_r2") for x in labels)


def _fake_run(monkeypatch, kept, top):
    monkeypatch.setattr(relay, "fit_auto", lambda g, source, seed: (SimpleNamespace(hidden_search_=None), 3.0, 20.0))
    monkeypatch.setattr(relay, "kept_of", lambda hs, g: kept)
    monkeypatch.setattr(relay, "top_proposals", lambda est: [top])


def test_seed_line_scores_r_star_enrichment_relay_and_driver(table, monkeypatch):
    """The search stood in for: an H on R* with its module and T as parent, one on D, one on
    nothing planted (FALSE, flagged at a heat condition, starred), one below |r| 0.5 with
    everything whose children are R*'s genes (the curved part of their responses: CURVE, not false)."""
    g = table
    n_fac = g["factors"].shape[1]
    heat = g["on"][0]
    kept = [
        Kept("H1", [0.95, 0.1] + [0.3] * n_fac, set(sorted(g["module"])[:20]), [g["relay"]], 0.4, 0.1, 80.0),
        Kept("H2", [0.1, 0.92] + [0.2] * n_fac, set(sorted(g["targets"][0])[:8]), [], 0.0, 0.5, 20.0),
        Kept("H3", [0.2, 0.1] + [0.3] * n_fac, {g["names"][-1]}, [], 0.0, 0.7, 4.0, flagged=[heat]),
        Kept("H4", [0.3, 0.1] + [0.2] * n_fac, set(sorted(g["module"])[20:30]), [], 0.0, 0.2, 9.0),
    ]
    top = SimpleNamespace(members=list(range(9)), profile=g["star"].copy(), high_leverage=[])
    _fake_run(monkeypatch, kept, top)
    line, t = relay.run_seed(g, "relay-1512", SEED)
    assert t["star"] and t["fast"] and t["enriched"] and t["relayed"] and t["drivers"] == [True] and t["false"] == 1
    assert "R* OK 0.95 enriched yes" in line and f"<- {g['relay']} yes" in line and "OK 0.92" in line
    assert (
        f"FLAG {heat}*" in line
        and "FALSE" in line
        and "module 20 (p " in line
        and "top proposal 9 genes r*=1.00" in line
    )
    text = relay.summary("relay", [t, {**t, "star": False, "enriched": False, "relayed": False}])
    assert "R* recovered (|r| >= 0.9) on 1/2" in text and "module enriched (p < 0.001) on 1/2" in text
    assert "relaying TF as a parent on 1/2" in text


def test_null_line_counts_listed(null, monkeypatch):
    n_fac = null["factors"].shape[1]
    kept = [Kept("H1", [0.96, 0.0] + [0.1] * n_fac, {null["names"][-1]}, [], 0.0, 0.1, 9.0)]
    top = SimpleNamespace(members=[1, 2], profile=null["star"].copy(), high_leverage=[])
    _fake_run(monkeypatch, kept, top)
    line, t = relay.run_seed(null, "relay-null-1512", SEED)
    assert t["listed"] == 1 and t["false"] == 0 and not t["star"] and "LISTED" in line and "R* OK" not in line
    assert relay.summary("relay-null", [t]).startswith("relay-null: a hidden variable kept on 1/1 (1 on the listed R*)")


def test_null_line_names_an_activity_h_apart_from_false(null, monkeypatch):
    """Session 16: an H the regulator report reads as a listed TF's activity is ``ACTIVITY``, counted
    apart from the false ones; an unnamed one tracking nothing is still ``FALSE``."""
    n_fac = null["factors"].shape[1]
    tf = null["regulators"][0]
    kept = [
        Kept("H1", [0.2, 0.0] + [0.1] * n_fac, {null["names"][-1]}, [], 0.0, 0.1, 90.0, activity=tf),
        Kept("H2", [0.2, 0.0] + [0.1] * n_fac, {null["names"][-2]}, [], 0.0, 0.1, 20.0),
    ]
    top = SimpleNamespace(members=[1, 2], profile=null["star"].copy(), high_leverage=[])
    _fake_run(monkeypatch, kept, top)
    line, t = relay.run_seed(null, "relay-null-1512", SEED)
    assert t["activity"] == 1 and t["false"] == 1 and f"ACTIVITY {tf}" in line and "FALSE" in line
    text = relay.summary("relay-null", [t, {**t, "false": 0}])
    assert "read as a listed TF's activity 2 Hs; a false H not so named on 1/2" in text


def test_switches_change_only_their_ingredient():
    """The diagnosis switches (``off``): the table without a switch is the hold-out's; without TF
    noise the listed TFs' columns are clean and the genes' unchanged; without missing cells none."""
    base = relay.generate(SEED, True, n_cols=COLS)
    clean = relay.generate(SEED, True, n_cols=COLS, off=frozenset({"tfnoise", "missing"}))
    n_tf = len(base["n_targets"])
    assert not np.isnan(clean["values"]).any() and np.isnan(base["values"]).any()
    assert np.all(clean["noise"][:, :n_tf] == 0.0)
    ok = ~np.isnan(base["values"][:, n_tf:])
    assert np.allclose(base["values"][:, n_tf:][ok], clean["values"][:, n_tf:][ok])
    tf_ok = ~np.isnan(base["values"][:, :n_tf])
    measured_minus_noise = (base["values"][:, :n_tf] - base["noise"][:, :n_tf])[tf_ok]
    assert np.allclose(measured_minus_noise, clean["values"][:, :n_tf][tf_ok])

"""Smoke case of ``benchmarks/study_genome_coherence.py`` (#22's null study: is a kept H a module
in WGCNA's sense?): the coherence figures of a hand-built hidden variable, recomputed independently
with numpy (correlations, the correlation matrix's top eigenvalue, nested least-squares fits)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import study_genome_coherence as sgc  # noqa: E402


def _case():
    """A TF, H and five children of H (two also of the TF), one child weakly tied to H."""
    rng = np.random.default_rng(3)
    m = 30
    h = rng.normal(size=m)
    tf = rng.normal(size=m)
    load = [1.0, 0.9, 1.1, 0.8, 0.15]
    kids = np.column_stack([w * h + rng.normal(0, 0.5, m) for w in load])
    kids[:, 0] += 0.7 * tf
    kids[:, 1] -= 0.5 * tf
    values = np.column_stack([tf, kids, rng.normal(size=m)])
    names = ["TF", "c1", "c2", "c3", "c4", "c5", "x"]
    edges = [("H1", c) for c in names[1:6]] + [("TF", "c1"), ("TF", "c2")]
    hs = SimpleNamespace(
        hidden=[SimpleNamespace(name="H1", children=names[1:6], realized_gain=12.5)],
        hidden_profile=lambda n: h,
        edges=lambda: edges,
    )
    return values, names, hs, h


def test_coherence_figures_match_numpy():
    values, names, hs, h = _case()
    (row,) = sgc.coherence(values, names, hs)
    block = values[:, 1:6]
    kme = np.array([np.corrcoef(block[:, j], h)[0, 1] for j in range(5)])
    assert row["children"] == 5 and row["gain"] == 12.5
    np.testing.assert_allclose(row["kme"], kme, atol=1e-4)
    assert row["kme_median"] == np.median(np.abs(kme))
    assert row["kme07"] == int((np.abs(kme) >= 0.7).sum()) and row["kme08"] == int((np.abs(kme) >= 0.8).sum())
    # first-PC share: top eigenvalue of the children's correlation matrix over its trace
    ev = np.linalg.eigvalsh(np.corrcoef(block.T))
    assert abs(row["pc1"] - ev[-1] / 5) < 1e-10
    # partial R^2 of H beyond the other parents: nested least-squares fits with an intercept
    one = np.ones(len(h))

    def rss(y, *xs):
        d = np.column_stack([one, *xs])
        return float(((y - d @ np.linalg.lstsq(d, y, rcond=None)[0]) ** 2).sum())

    tf = values[:, 0]
    want = [1 - rss(block[:, 0], tf, h) / rss(block[:, 0], tf), 1 - rss(block[:, 1], tf, h) / rss(block[:, 1], tf)]
    want += [1 - rss(block[:, j], h) / rss(block[:, j]) for j in (2, 3, 4)]
    np.testing.assert_allclose(row["pr2"], want, atol=1e-4)
    # the weakly tied child is the one child below 0.5
    assert row["pr2_05"] == 4 and row["pr2"][4] < 0.5


def test_label_kinds():
    rng = np.random.default_rng(0)
    r, p = rng.normal(size=20), rng.normal(size=20)
    assert sgc.label(r + 0.01 * p, {"R*": r}, {"P1": p}, null=False)[:2] == ("true", "R*")
    assert sgc.label(p, {"R*": r}, {"P1": p}, null=False)[:2] == ("program", "P1")
    assert sgc.label(r, {}, {}, null=True)[0] == "false"
    assert sgc.label(rng.normal(size=20), {"R*": r}, {}, null=False)[0] == "other"

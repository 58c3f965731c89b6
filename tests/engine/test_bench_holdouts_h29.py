"""Smoke cases of the twenty-ninth session's hold-out generators: ``h29g`` (benchmarks/planted_h29g.py,
through ``planted_general``) and ``h29m`` (benchmarks/bench_regulators_genome_h29.py).

They check each generator's contract (shapes and ranges, names, determinism, the planted structure as
its docstring says: a routine clinical laboratory panel, each analyte in its unit and rounded to its
printed resolution, values past a reportable limit handed as the limit, sex as a column, in-vitro
haemolysis on a few intracellular analytes with the H-index as its proxy, an unmeasured IL-6 over 5-15
acute-phase analytes; a TMT proteomics table of a cancer cell-line panel, log2 ratios against each plex's
bridge, whose TFEB module and listed TF targets follow the removed TFEB, complexes' subunits moving
together, ratio compression, proteins missing in whole plexes, the unfolded-protein response on in the
myeloma lines, a null without TFEB's part) on seeds outside the hold-out ranges (2900-2909 and
2950-2959), the independent score check on a table in its own units, the h29m scorer's reading of kept
Hs on stand-ins (no search), and ``study_common_start``'s refusal of the hold-outs; they never run the
search: the hold-outs' recovery is measured once, at the start of the next session, by the lead."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_regulators as br  # noqa: E402
import planted_general as pg  # noqa: E402
import planted_h29g as ph  # noqa: E402
import study_common_start  # noqa: E402
from test_bench_holdouts_h20 import _lstsq_r, _r  # noqa: E402
from test_bench_holdouts_mixed import _descendants  # noqa: E402

from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch  # noqa: E402

#: seed indices of ``h29g`` (seeds 2990-2999), outside the hold-out's 2900-2909
G_SEEDS = tuple(range(90, 100))


@pytest.mark.parametrize("gen", ["h29m", "h29m-null", "h29g"])
def test_study_common_start_refuses_the_hold_outs(gen):
    with pytest.raises(SystemExit, match="held out"):
        study_common_start.main(["--gen", gen])


def _same_in_null(seed: int) -> list[int]:
    """The analytes h reaches neither directly nor through its children's descendants, sex and the
    H-index."""
    net, n = ph.network(seed), ph.n_vars(seed)
    edges = [(int(p), int(c)) for p, c in zip(*np.nonzero(net.w[: n - 2, : n - 2]), strict=True)]
    reached = _descendants({int(v) for v in net.children}, edges)
    return [v for v in range(n) if v not in reached]


class TestH29g:
    def test_is_the_hold_out(self):
        assert pg.HOLD_OUT == "h29g" and pg.SPECS["h29g"].seed0 == ph.SEED0 == 2900
        assert pg.OWN_MODULE["h29g"] is ph and "h28g" in pg.SPECS

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_shapes_network_and_values(self, seed):
        x, kids, hs = pg.generate_all("h29g", seed)
        m, n = x.shape
        assert 120 <= m <= 900 and m == ph.n_samples(seed) and 30 <= n <= 50 and n == pg.n_vars("h29g", seed)
        assert np.isfinite(x).all() and x.min() >= 0.0
        assert len(kids) == len(hs) == 1 and hs[0].shape == (m,) and 5 <= len(kids[0]) <= 15
        assert kids[0] <= set(range(n - 2)) and abs(hs[0].mean()) < 1e-9 and abs(hs[0].std() - 1.0) < 1e-9
        net = ph.network(seed)
        assert all(net.kind[v] != 0 for v in kids[0])  # never a homeostatic analyte
        rank = {int(v): i for i, v in enumerate(net.order)}
        place = rank[n - 2]  # h's place in the order
        assert 0.05 < place / len(net.order) < 0.45 and all(rank[v] > place for v in kids[0])
        assert net.parent < 0 or rank[net.parent] < place
        edges = pg.true_edges("h29g", seed)
        assert all(rank[p] < rank[c] for p, c in edges if p < n - 2)
        sexed = {c for p, c in edges if p == n - 2}
        assert 0.15 < len(sexed) / (n - 2) < 0.4 and set(np.unique(x[:, n - 2])) == {0.0, 1.0}

    @pytest.mark.parametrize("seed", G_SEEDS)
    def test_null_is_the_same_off_h_paths(self, seed):
        x, kids, _ = pg.generate_all("h29g", seed)
        xn, kn, hn = pg.generate_all("h29g", seed, null=True)
        assert xn.shape == x.shape and kn == [] and hn == []
        same = _same_in_null(seed)
        assert len(same) >= 4 and np.array_equal(x[:, same], xn[:, same])
        assert not np.allclose(x[:, sorted(kids[0])], xn[:, sorted(kids[0])])

    def test_children_track_h_and_the_null_does_not(self):
        gaps, fits = [], []
        for seed in G_SEEDS:
            x, kids, (h,) = pg.generate_all("h29g", seed)
            xn, _, _ = pg.generate_all("h29g", seed, null=True)
            on = np.median([abs(_r(x[:, v], h)) for v in kids[0]])
            gaps.append(on - np.median([abs(_r(xn[:, v], h)) for v in kids[0]]))
            fits.append(_lstsq_r(x[:, sorted(kids[0])], h))
            assert on > 0.5
        assert min(gaps) > 0.4 and min(fits) > 0.8 and np.median(fits) > 0.9

    def test_resolution_limits_and_haemolysis(self):
        """Every analyte sits on its printed grid (a homeostatic one with few distinct values), a limited
        analyte has a point mass at its limit, the H-index reads the haemolysis and the haemolysed
        analytes follow it."""
        for seed in G_SEEDS[:5]:
            xn, _, _ = pg.generate_all("h29g", seed, null=True)
            a, net, n = ph.assays(seed), ph.network(seed), ph.n_vars(seed) - 2
            steps = xn[:, :n] / a["resolution"]
            on_grid = (
                np.isclose(steps, np.round(steps)) | np.isclose(xn[:, :n], a["low"]) | np.isclose(xn[:, :n], a["high"])
            )
            assert on_grid.all()
            distinct = np.array([len(np.unique(c)) for c in xn[:, :n].T])
            assert np.median(distinct[net.kind == 0]) <= 45 and distinct.max() < len(xn) * 0.9
            low = np.flatnonzero(a["low"] > 0)
            assert all(0.02 < np.mean(xn[:, v] == a["low"][v]) < 0.4 for v in low)
            hb, index = ph.haemolysis(seed), xn[:, -1]
            assert _r(index, hb) > 0.95 and index.min() == ph.H_INDEX_STEP and np.mean(index == index.min()) > 0.5
            lysed = ph._draws(seed)["lysed"]
            assert 3 <= len(lysed) <= 6 and np.median([_r(xn[:, v], hb) for v in lysed]) > 0.2
        logs = [np.mean(ph.network(s).kind == 2) for s in G_SEEDS]
        assert 0.25 < np.mean(logs) < 0.65


def test_independent_check_on_the_panel():
    """``bench_regulators.independent_score`` on a laboratory panel in its own units agrees with the
    engine's observed-data BIC."""
    x, _, _ = pg.generate_all("h29g", G_SEEDS[1])
    x = x[:, :12]
    names = [f"X{i + 1}" for i in range(x.shape[1])]
    hs = HiddenSearch(from_array(x, names, standardize=False))
    hs.set_edges([(0, 1), (1, 2), (3, 4)])
    assert br.independent_score(hs) - hs.observed_bic() == pytest.approx(0.0, abs=1e-6)

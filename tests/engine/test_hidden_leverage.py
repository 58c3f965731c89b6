"""Hidden regulators not fooled by one odd sample, at genome scale (issue #22 items 2, 3 and 5)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from engine.cpd.linear import LinearGaussianFamilies
from engine.data import from_array
from engine.hidden import HiddenSearch, marginal_loglik, propose_from_search
from engine.hidden.leverage import MIN_INSTANCES, profile_leverage
from engine.hidden.report import HiddenVariable, implied_variances
from engine.search import Stepper


def labels(m: int) -> list[str]:
    return [f"cond{i + 1:02d}" for i in range(m)]


class TestLeverageRule:
    def test_one_spike_is_flagged_by_name(self):
        z = np.zeros(20)
        z[6] = 8.0
        lev = profile_leverage(z, labels(20))
        # energy about the mean: the spike holds (1 - 1/20) of it
        assert lev.leverage == pytest.approx(1 - 1 / 20)
        assert lev.flagged and lev.instances == ["cond07"]
        assert lev.share.sum() == pytest.approx(1.0)

    def test_two_spikes_are_flagged_together(self):
        z = np.zeros(30)
        z[[3, 11]] = [6.0, -6.0]
        lev = profile_leverage(z, labels(30))
        assert lev.leverage <= 0.5 and sorted(lev.instances) == ["cond04", "cond12"]

    def test_gaussian_and_three_condition_driver_are_not_flagged(self):
        rng = np.random.default_rng(0)
        for m in (27, 50):
            assert not profile_leverage(rng.normal(size=m)).flagged
        on = np.zeros(27)
        on[[2, 9, 20]] = 1.0
        lev = profile_leverage(on + rng.normal(scale=0.05, size=27))
        assert not lev.flagged and 0.25 < lev.leverage < 0.45

    def test_few_instances_never_flagged_and_names_default_to_row_numbers(self):
        z = np.zeros(MIN_INSTANCES - 1)
        z[0] = 5.0
        assert not profile_leverage(z).flagged
        z = np.zeros(MIN_INSTANCES)
        z[2] = 5.0
        assert profile_leverage(z).instances == ["3"]


def odd_sample_table(seed: int = 0, m: int = 30, n: int = 60, odd: int = 15):
    """A 6-gene module driven by an unmeasured factor h, and condition ``cond09`` 6 sd high in
    ``odd`` other genes (the one-odd-sample case); the rest independent noise."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    h = rng.normal(size=m)
    x[:, :6] = 0.85 * h[:, None] + 0.5 * rng.normal(size=(m, 6))
    x[8, 20 : 20 + odd] += 6.0
    return from_array(x, [f"g{j:02d}" for j in range(n)], instance_labels=labels(m)), h


class TestOddSample:
    def test_flagged_proposal_is_named_and_ranked_last(self):
        ds, h = odd_sample_table(n=160, odd=100)
        s = Stepper(LinearGaussianFamilies(ds.values))
        props = propose_from_search(s, ds.values, ds.names, min_size=3, labels=ds.instance_labels)
        flagged = [p for p in props if p.flagged]
        assert flagged, "the spike at cond09 is proposed and must be flagged"
        assert all(p.high_leverage == ["cond09"] for p in flagged)
        assert all(p.to_dict()["flagged_instances"] == ["cond09"] for p in flagged)
        # flagged ones come after every unflagged one, and the top proposal is the module
        ranks = [p.flagged for p in props]
        assert ranks == sorted(ranks)
        assert not props[0].flagged and abs(np.corrcoef(props[0].profile, h)[0, 1]) > 0.9

    def test_auto_never_keeps_the_odd_sample(self):
        """The issue's outlier check: one condition extreme in 100 genes, 20 listed regulators (so
        children cannot be tied by edges). On the searched network the cond09 cluster has the
        largest estimate of all (it would be ranked first), is flagged by name and listed last;
        ``auto`` keeps the module's regulator and nothing resting on cond09."""
        ds, h = odd_sample_table(n=160, odd=100)
        regs = {"regulators": list(ds.names[140:])}
        base = HiddenSearch(ds, seed=0, em_options=regs)
        base.fit_structure()
        props = base.propose()
        odd = [p for p in props if p.flagged]
        assert odd and odd[0].high_leverage == ["cond09"] and props[-1] is odd[-1]
        assert odd[0].estimated_gain > max(p.estimated_gain for p in props if not p.flagged)
        hs = HiddenSearch(ds, seed=0, em_options=regs)
        hs.auto(max_hidden=2)
        assert hs.hidden, "the module's regulator is kept"
        assert abs(np.corrcoef(hs.hidden_profile(hs.hidden[0].name), h)[0, 1]) > 0.9
        for hv in hs.hidden:
            assert not profile_leverage(hs.hidden_profile(hv.name), ds.instance_labels).flagged
        for d in hs.summary()["hidden"]:
            assert d["instances"] == labels(30) and len(d["profile"]) == 30
            assert 0 < d["leverage"] < 0.5 and d["flagged_instances"] == []


class TestRegulatorList:
    def test_a_module_gene_outside_the_cluster_does_not_explain_it(self):
        """With a regulator list, only regulators can be ``explained_by``: a co-expressed gene
        that is no regulator cannot be the hidden parent (#22)."""
        ds, _ = odd_sample_table(seed=1)
        s = Stepper(LinearGaussianFamilies(ds.values))
        a = propose_from_search(s, ds.values, ds.names, min_size=3, max_size=4)
        module = [p for p in a if set(p.members) <= set(range(6))]
        assert module and module[0].explained_by in ds.names[:6]
        regs = np.arange(40, 60)  # none of the module genes
        b = propose_from_search(s, ds.values, ds.names, min_size=3, max_size=4, explainers=regs)
        assert all(p.explained_by is None or ds.names.index(p.explained_by) in regs for p in b)


class TestExactFigures:
    def test_sparse_marginal_equals_scipy_with_hidden_and_missing_cells(self):
        """The observed-data log-likelihood (what decides whether H is kept) recomputed with
        scipy's multivariate normal of each row's observed cells, hidden column and missing cells
        integrated out."""
        rng = np.random.default_rng(3)
        n, m = 7, 40
        coef = np.zeros((n, n))
        for p, c in [(6, 0), (6, 1), (6, 2), (0, 3), (3, 4), (1, 5), (2, 5)]:
            coef[p, c] = rng.uniform(0.4, 1.2) * rng.choice([-1, 1])
        b0, var = rng.normal(size=n), rng.uniform(0.4, 1.5, size=n)
        a = np.linalg.inv(np.eye(n) - coef.T)
        mu, cov = a @ b0, (a * var) @ a.T
        x = rng.multivariate_normal(mu, cov, size=m)
        obs = np.ones_like(x, dtype=bool)
        obs[:, 6] = False  # the hidden variable
        obs[rng.integers(0, m, 12), rng.integers(0, 6, 12)] = False
        x[~obs] = np.nan
        expect = sum(
            multivariate_normal(mu[o], cov[np.ix_(o, o)]).logpdf(row[o]) for row, o in zip(x, obs, strict=True)
        )
        assert marginal_loglik(b0, coef, var, x, obs) == pytest.approx(expect, rel=1e-10)

    def test_realized_gain_is_observed_bic_after_minus_before(self):
        """Δscore recomputed independently: the accepted variable's realized change equals the
        observed-data BIC (scipy marginal of the observed columns minus the penalty counted by
        hand) after, minus the baseline network's, searched to convergence without H."""
        ds, h = odd_sample_table(seed=2, m=200)
        hs = HiddenSearch(ds, seed=0)
        assert hs.em.score_choice.name == "bic"  # tall data: the paper's BIC, penalty (log M / 2) per parameter
        hs.fit_structure()
        base = hs.baseline_score()
        prop = next(p for p in hs.propose() if not p.flagged)
        hv = hs.accept(prop, baseline=base)
        par = hs.em.params()
        nn = len(hs.names)
        a = np.linalg.inv(np.eye(nn) - par.coef.T)
        mu, cov = a @ par.intercept, (a * par.variance) @ a.T
        o = np.arange(hs.n_observed)
        ll = multivariate_normal(mu[o], cov[np.ix_(o, o)]).logpdf(ds.values).sum()
        k = sum(len(ps) + 2 for ps in hs.em.parents())
        after = ll - 0.5 * np.log(ds.n_samples) * k
        assert hv.score_after == pytest.approx(after, rel=1e-9)
        assert hv.realized_gain == pytest.approx(after - base, rel=1e-9)

    def test_implied_variances_equal_dense_inverse(self):
        rng = np.random.default_rng(4)
        n = 30
        coef = np.triu(rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.15), 1)
        perm = rng.permutation(n)
        coef = coef[np.ix_(perm, perm)]
        d = rng.uniform(0.5, 2.0, n)
        a = np.linalg.inv(np.eye(n) - coef.T)
        dense = np.diag((a * d) @ a.T)
        got = implied_variances(coef, d, [2, 5, 11])
        assert np.allclose(got[[2, 5, 11]], dense[[2, 5, 11]], rtol=1e-12)
        assert np.isnan(np.delete(got, [2, 5, 11])).all()

    def test_exported_profile_names_its_instances(self):
        hv = HiddenVariable("H1", ["a"], 1.0, ["a"])
        z = np.zeros(12)
        z[4] = 3.0
        d = hv.to_dict(z, labels(12))
        assert d["instances"] == labels(12) and d["flagged_instances"] == ["cond05"]
        assert hv.to_dict(z)["instances"][:3] == ["1", "2", "3"]

    def test_report_names_the_regulators_h_depends_on(self):
        """``H <- TF``: the regulator report lists H's own parents, strongest first."""
        from engine.hidden import regulator_report

        names = ["tf1", "tf2", "g1", "g2", "H1"]
        coef = np.zeros((5, 5))
        coef[0, 4], coef[1, 4] = 0.3, -0.8  # tf1, tf2 -> H1
        coef[4, 2], coef[4, 3] = 1.0, -0.7  # H1 -> g1, g2
        values = np.random.default_rng(0).normal(size=(20, 5))
        (rep,) = regulator_report(names, 4, coef, np.ones(5), values)
        assert rep.parents == ["tf2", "tf1"] and rep.to_dict()["parents"] == ["tf2", "tf1"]
        # Var(H1) = 0.3^2 + 0.8^2 + 1 (unit noise everywhere): its parents explain 0.73 / 1.73
        assert rep.parents_r2 == pytest.approx(0.73 / 1.73)
        assert [c.child for c in rep.children] == ["g1", "g2"]
        prof = rep.to_dict()["profile"]
        assert prof["instances"][:2] == ["1", "2"] and np.allclose(
            prof["values"], values[:, 4] / np.sqrt(1.73)
        )  # H on unit variance (hidden.scale)
        (named,) = regulator_report(names, 4, coef, np.ones(5), values, labels=labels(20))
        assert named.profile["instances"] == labels(20)


class TestGenomeBenchSmoke:
    """The generators of ``benchmarks/bench_regulators_genome.py`` (the seeded study runs there)."""

    def test_generators_plant_what_they_say(self):
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
        import bench_regulators_genome as bench

        g = bench.generate(0, "module")
        assert g["values"].shape == (27, 2500) and len(g["regulators"]) == 115 and len(g["module"]) == 40
        assert "TF000" not in g["names"]  # R* removed from the table and the list
        cols = [g["names"].index(n) for n in sorted(g["module"])]
        r = [abs(np.corrcoef(g["values"][:, c], g["removed"])[0, 1]) for c in cols]
        assert np.median(r) > 0.75
        assert g["driver"].sum() == 3
        o = bench.generate(0, "outlier")
        assert o["values"].shape == (50, 2555) and np.isnan(o["values"]).sum() == 26 and len(o["regulators"]) == 53
        z = np.nan_to_num((o["values"] - np.nanmean(o["values"], 0)) / np.nanstd(o["values"], 0))
        assert (np.abs(z[16]) > 3).sum() >= 95  # cond17 extreme in about 100 genes (|z| 3-5)
        n = bench.generate(0, "null")
        assert n["removed"] is None and "TF000" in n["regulators"]

    def test_holdout_generator_plants_what_it_says(self):
        """``bench_regulators_genome_holdout.py`` (#22 hold-out; a seed outside its study's 300-309)."""
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
        import bench_regulators_genome_holdout as bench

        g = bench.generate(0)
        assert g["values"].shape == (36, 2200) and len(g["regulators"]) == 100
        assert "TF000" not in g["names"] and "TF001" not in g["names"]  # R1, R2 removed
        assert [len(m) for m in g["modules"]] == [25, 45]
        r1, r2 = g["removed"].T
        assert abs(np.corrcoef(r1, g["values"][:, g["names"].index("TF005")])[0, 1]) > 0.4  # R1 <- TF005
        for mod, reg in zip(g["modules"], (r1, r2), strict=True):
            cols = [g["names"].index(n) for n in sorted(mod)]
            assert np.median([abs(np.corrcoef(g["values"][:, c], reg)[0, 1]) for c in cols]) > 0.5
        n = bench.generate(0, null=True)
        assert n["removed"] is None and {"TF000", "TF001"} <= set(n["regulators"])

    def test_hubs_generator_plants_what_it_says(self):
        """``bench_regulators_genome_hubs.py`` (the second null hold-out; a seed outside 500-509)."""
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
        import bench_regulators_genome_hubs as bench

        g = bench.generate(1)
        assert g["values"].shape == (40, 1800) and len(g["regulators"]) == 80 and len(g["module"]) == 35
        assert "TF000" not in g["names"]  # R removed from the table and the list
        cols = [g["names"].index(n) for n in sorted(g["module"])]
        assert np.median([abs(np.corrcoef(g["values"][:, c], g["removed"])[0, 1]) for c in cols]) > 0.6
        n = bench.generate(1, null=True)
        assert n["removed"] is None and "TF000" in n["regulators"] and n["values"].shape == (40, 1801)

    def test_cascade_generator_plants_what_it_says(self):
        """``bench_regulators_genome_cascade.py`` (the third genome hold-out; a seed outside 700-709)."""
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
        import bench_regulators_genome_cascade as bench

        g = bench.generate(1)
        assert g["values"].shape == (32, 2000) and len(g["regulators"]) == 100 and len(g["module"]) == 30
        assert "TF010" not in g["names"]  # R removed from the table and the list
        cols = [g["names"].index(n) for n in sorted(g["module"])]
        assert np.median([abs(np.corrcoef(g["values"][:, c], g["removed"])[0, 1]) for c in cols]) > 0.5
        n = bench.generate(1, null=True)
        assert n["removed"] is None and "TF010" in n["regulators"] and n["values"].shape == (32, 2001)

"""One scale for a hidden variable wherever a person reads it (engine.hidden.scale): the CLI's
profile, edge weights, families and regulator report all put H on unit variance under the network,
checked against independent recomputations on a planted regulator."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.data import from_array
from engine.hidden import HiddenSearch
from engine.hidden.scale import PROFILE_UNIT, rescale_network, search_sds
from engine.network import LearnedNetwork

M = 300


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """An unmeasured regulator h (SD 3, not 1) of k0..k7, and four other variables."""
    rng = np.random.default_rng(5)
    h = 3 * rng.normal(size=M) + 1
    kids = [0.3 * h + 0.5 * (1 + 0.3 * i) * rng.normal(size=M) for i in range(8)]
    other = [rng.normal(size=M) for _ in range(4)]
    other[1] = other[1] + 0.8 * other[0]
    x = np.column_stack(kids + other)
    names = [f"k{i}" for i in range(8)] + [f"o{i}" for i in range(4)]
    path = tmp_path_factory.mktemp("scale") / "planted.csv"
    pd.DataFrame(x, columns=names).to_csv(path, index=False)
    out = path.with_suffix(".json")
    assert main(["learn", str(path), "--hidden", "auto", "--out", str(out), "--quiet"]) == 0
    return x, names, h, json.loads(out.read_text()), path, out


class TestCLIOneScale:
    def test_profile_is_on_unit_variance_and_says_so(self, planted):
        _, _, h, result, _, _ = planted
        (entry,) = result["hidden"]
        prof = np.asarray(entry["profile"])
        assert entry["profile_unit"] == PROFILE_UNIT
        assert abs(np.corrcoef(prof, h)[0, 1]) > 0.9  # it is the planted regulator
        # the posterior mean shrinks toward 0: SD a little under 1 (was 1.6 on EM's own scale)
        assert 0.85 < prof.std() <= 1.0

    def test_edge_weight_is_the_loading_and_the_covariance_with_the_profile(self, planted):
        """For a child whose one parent is H (standardized data): loading = Cov(child, H) when
        Var(H) = 1, and Cov(child, E[H | data]) = Cov(child, H) (the child is observed), so the
        sample covariance with the exported profile recomputes the loading; a least-squares slope on
        the profile reads larger by 1 / Var(profile) (the shrinkage)."""
        x, names, _, result, _, _ = planted
        (entry,) = result["hidden"]
        prof = np.asarray(entry["profile"])
        std = (x - x.mean(axis=0)) / x.std(axis=0)
        weight = {(e["parent"], e["child"]): e["weight"] for e in result["edges"]}
        checked = 0
        for row in entry["report"]:
            child = row["child"]
            assert weight[(entry["name"], child)] == pytest.approx(row["loading"], rel=1e-9)
            if result["families"][child]["parents"] == [entry["name"]]:
                y = std[:, names.index(child)]
                assert np.cov(y, prof, bias=True)[0, 1] == pytest.approx(row["loading"], rel=0.03)
                slope = np.polyfit(prof, y, 1)[0]
                assert slope * prof.var() == pytest.approx(row["loading"], rel=0.03)
                checked += 1
        assert checked >= 6

    def test_scoring_the_result_gives_the_learned_score(self, planted, capsys):
        """Rescaling H is a reparametrization: 'score' on the written model gives learn's BIC."""
        _, _, _, result, path, out = planted
        capsys.readouterr()
        assert main(["score", str(path), "--model", str(out)]) == 0
        scored = json.loads(capsys.readouterr().out)
        assert scored["bic"] == pytest.approx(result["score"]["bic"], rel=1e-9)


def test_rescale_network_is_exact():
    """H -> H / s, children's coefficients on H times s, H's noise variance / s^2; the observed data's
    log-likelihood (H integrated out) is unchanged."""
    rng = np.random.default_rng(2)
    h = 2.5 * rng.normal(size=300)
    ds = from_array(np.column_stack([h + 0.5 * rng.normal(size=300) for _ in range(4)]), ["a", "b", "c", "d"])
    hs = HiddenSearch(ds)
    hs.fit_structure()
    hv = hs.accept(hs.propose(min_size=3)[0])
    parents = {c: tuple(sorted(p for p, cc in hs.em.edges if cc == c)) for c in range(len(hs.names))}
    full = ds.with_columns(tuple(hs.names), hs.em.mean, ~hs.em.observed)
    net = LearnedNetwork.from_parents(full, parents, hs.em.expected_model())
    net.hidden = hs.summary()["hidden"]
    before = json.loads(json.dumps(net.to_dict()))
    sds = search_sds(hs)
    s = sds[hv.name]
    rescale_network(net, sds)
    after = net.to_dict()
    assert after["families"][hv.name]["params"]["variance"] == pytest.approx(
        before["families"][hv.name]["params"]["variance"] / s**2
    )
    child = hv.children[0]
    coefs = (before["families"][child]["params"]["coefficients"], after["families"][child]["params"]["coefficients"])
    assert coefs[1][hv.name] == pytest.approx(coefs[0][hv.name] * s)
    assert after["hidden"][0]["profile"] == pytest.approx(np.asarray(before["hidden"][0]["profile"]) / s)
    assert net.evaluate(ds)["loglik"] == pytest.approx(
        LearnedNetwork.from_dict(before).evaluate(ds)["loglik"], rel=1e-10
    )
    (report,) = hs.report()  # the report's profile is on the same scale
    assert report.profile["values"] == pytest.approx(after["hidden"][0]["profile"])

"""engine.synth: random networks, ancestral sampling, and the arth150 JSON network format."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine.exceptions import ModelError, ParameterError
from engine.synth import (
    LinearGaussianNetwork,
    load_network,
    random_network,
    sample,
    sample_dataset,
)


def implied_covariance(net: LinearGaussianNetwork) -> np.ndarray:
    """Sigma = (I - B)^-1 D (I - B)^-T for a linear-Gaussian network (B[c, p] = weight)."""
    n = net.n_vars
    b = np.zeros((n, n))
    for c in range(n):
        for p, w in zip(net.parents[c], net.weights[c], strict=True):
            b[c, p] = w
    inv = np.linalg.inv(np.eye(n) - b)
    return inv @ np.diag(net.variances) @ inv.T


def ols(y: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, float]:
    """Coefficients (intercept first) and residual variance of y on x."""
    design = np.column_stack([np.ones(len(y)), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ coef
    return coef, float(resid.var())


# --------------------------------------------------------------------------- random_network


@pytest.mark.parametrize("n_vars", [2, 8, 30])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_random_network_is_a_dag_of_the_requested_size(n_vars, seed):
    net = random_network(n_vars, seed=seed, max_parents=3)
    assert net.n_vars == n_vars
    assert net.names == [f"X{i + 1}" for i in range(n_vars)]
    assert len(net.parents) == len(net.weights) == n_vars
    assert net.intercepts.shape == net.variances.shape == (n_vars,)
    order = net.topological_order()  # raises ModelError on a cycle
    assert sorted(order) == list(range(n_vars))
    position = {v: i for i, v in enumerate(order)}
    for child, parents in enumerate(net.parents):
        assert len(parents) == len(set(parents)) <= 3
        assert child not in parents
        assert all(position[p] < position[child] for p in parents)
        assert len(net.weights[child]) == len(parents)
    assert np.all(net.variances > 0)


def test_random_network_seed_determinism():
    a = random_network(15, seed=42)
    b = random_network(15, seed=42)
    c = random_network(15, seed=43)
    assert a.parents == b.parents and a.weights == b.weights
    np.testing.assert_array_equal(a.intercepts, b.intercepts)
    assert (a.parents, a.weights) != (c.parents, c.weights)
    gen = np.random.default_rng(42)
    assert random_network(15, seed=gen).parents == a.parents


def test_random_network_options():
    assert all(p == [] for p in random_network(10, max_parents=0, seed=3).parents)
    assert all(len(p) <= 1 for p in random_network(25, max_parents=1, seed=3).parents)
    net = random_network(6, prefix="G", seed=3)
    assert net.names[0] == "G1"
    with pytest.raises(ParameterError, match="n_vars"):
        random_network(1)
    with pytest.raises(ParameterError, match="signal"):
        random_network(5, signal=1.5)


def test_random_network_signal_fraction():
    """With ``signal``, each family's parents explain about that fraction of its variance."""
    net = random_network(12, expected_parents=1.5, signal=0.4, seed=5)
    cov = implied_covariance(net)
    for child, parents in enumerate(net.parents):
        if parents:
            explained = 1.0 - net.variances[child] / cov[child, child]
            assert explained == pytest.approx(0.4, abs=1e-9)


# --------------------------------------------------------------------------- sample


def test_sample_shape_and_determinism(synthetic_network):
    x = sample(synthetic_network, 50, seed=3)
    assert x.shape == (50, synthetic_network.n_vars)
    np.testing.assert_array_equal(x, sample(synthetic_network, 50, seed=3))
    assert not np.array_equal(x, sample(synthetic_network, 50, seed=4))
    with pytest.raises(ParameterError, match="n_samples"):
        sample(synthetic_network, 0)


def test_sample_regression_recovers_weights():
    net = random_network(8, expected_parents=1.5, seed=11)
    x = sample(net, 20000, seed=12)
    checked = 0
    for child, parents in enumerate(net.parents):
        coef, resid_var = ols(x[:, child], x[:, parents])
        np.testing.assert_allclose(coef[1:], net.weights[child], atol=0.05)
        assert coef[0] == pytest.approx(net.intercepts[child], abs=0.1)
        assert resid_var == pytest.approx(net.variances[child], rel=0.05)
        checked += bool(parents)
    assert checked >= 3


def test_sample_covariance_matches_the_network():
    net = random_network(8, seed=21)
    x = sample(net, 20000, seed=22)
    np.testing.assert_allclose(np.cov(x, rowvar=False), implied_covariance(net), atol=0.08)
    # means follow the intercepts through the structure: mu = (I - B)^-1 b0
    n = net.n_vars
    b = np.zeros((n, n))
    for c in range(n):
        for p, w in zip(net.parents[c], net.weights[c], strict=True):
            b[c, p] = w
    mu = np.linalg.solve(np.eye(n) - b, net.intercepts)
    np.testing.assert_allclose(x.mean(axis=0), mu, atol=0.06)


def test_sample_dataset(synthetic_network, synthetic_dataset):
    assert synthetic_dataset.names == tuple(synthetic_network.names)
    assert synthetic_dataset.values.shape == (300, 8)
    assert synthetic_dataset.standardized
    np.testing.assert_allclose(synthetic_dataset.values.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(synthetic_dataset.original_values(), sample(synthetic_network, 300, seed=2), atol=1e-9)
    raw = sample_dataset(synthetic_network, 300, seed=2, standardize=False)
    np.testing.assert_array_equal(raw.values, sample(synthetic_network, 300, seed=2))


# --------------------------------------------------------------------------- JSON networks


def test_load_arth150(sample_dir):
    net = load_network(sample_dir / "arth150_network.json")
    spec = json.loads((sample_dir / "arth150_network.json").read_text())
    assert net.n_vars == 107
    assert len(net.edges()) == 150
    assert all(isinstance(n, str) for n in net.names)
    assert net.names[:3] == ["4", "8", "13"]
    assert set(net.edges()) == {tuple(a) for a in spec["arcs"]}
    j = net.names.index("38")
    assert net.intercepts[j] == pytest.approx(9.2115)
    assert [net.names[p] for p in net.parents[j]] == ["570"]
    assert net.weights[j] == [pytest.approx(-0.3867)]
    assert net.variances[j] == pytest.approx(0.1632)  # a variance, not a standard deviation
    assert len(net.topological_order()) == 107


def test_arth150_sample_edges_file_matches_network(sample_dir):
    net = load_network(sample_dir / "arth150_network.json")
    edges = pd.read_csv(sample_dir / "arth150_edges.csv", dtype=str)
    assert list(edges.columns) == ["parent", "child"]
    assert set(edges.itertuples(index=False, name=None)) == set(net.edges())


def test_synthetic_20_sample_files_are_reproducible(sample_dir):
    """sample_data/synthetic_20* is what make_samples.py says it is."""
    net = random_network(20, expected_parents=1.2, signal=0.4, seed=7)
    saved = load_network(sample_dir / "synthetic_20_network.json")
    assert saved.names == net.names and saved.parents == net.parents
    np.testing.assert_allclose(np.concatenate(saved.weights), np.concatenate(net.weights))
    edges = pd.read_csv(sample_dir / "synthetic_20_edges.csv")
    assert [tuple(r) for r in edges[["parent", "child"]].itertuples(index=False)] == net.edges()
    np.testing.assert_allclose(edges["weight"], net.edges_frame()["weight"], rtol=1e-5)
    data = pd.read_csv(sample_dir / "synthetic_20.csv")
    assert list(data.columns) == net.names
    np.testing.assert_allclose(data.to_numpy(), sample(net, 500, seed=8), rtol=1e-5, atol=1e-5)


def test_to_json_round_trip(tmp_path):
    net = random_network(10, seed=9)
    path = tmp_path / "net.json"
    path.write_text(json.dumps(net.to_json()))
    back = load_network(path)
    assert back.names == net.names
    assert back.parents == net.parents
    np.testing.assert_allclose(back.intercepts, net.intercepts)
    np.testing.assert_allclose(back.variances, net.variances)
    np.testing.assert_array_equal(sample(back, 20, seed=1), sample(net, 20, seed=1))
    assert load_network(net.to_json()).parents == net.parents  # a dict works too


@pytest.mark.parametrize("cpd", ["linear", "sigmoid", "multiplicative"])
def test_to_json_round_trip_keeps_the_cpd(cpd):
    net = random_network(8, seed=5, cpd=cpd)
    back = load_network(json.loads(json.dumps(net.to_json())))
    assert back.cpd == cpd
    np.testing.assert_array_equal(sample(back, 30, seed=2), sample(net, 30, seed=2))


CYCLE = {
    "nodes": ["a", "b"],
    "cpds": {
        "a": {"coefficients": {"(Intercept)": [0.0], "b": [1.0]}, "variance": [1.0]},
        "b": {"coefficients": {"(Intercept)": [0.0], "a": [1.0]}, "variance": [1.0]},
    },
}


@pytest.mark.parametrize(
    "content, match",
    [
        ("", "expected JSON format"),
        ("{not json", "expected JSON format"),
        ("[1, 2, 3]", "expected JSON format"),
        ('{"nodes": ["a"]}', "cpds"),
        ('{"cpds": {}}', "nodes"),
        (
            '{"nodes": ["a"], "cpds": {"a": {"coefficients": {"(Intercept)": [0], "zz": [1]}}}}',
            "zz",
        ),
        (
            '{"nodes": ["a"], "cpds": {"a": {"coefficients": {}, "variance": ["big"]}}}',
            "expected JSON format",
        ),
        (json.dumps(CYCLE), "cycle"),
    ],
    ids=["empty", "not-json", "list", "no-cpds", "no-nodes", "unknown-parent", "text-variance", "cycle"],
)
def test_bad_network_file(tmp_path, content, match):
    path = tmp_path / "net.json"
    path.write_text(content)
    with pytest.raises(ModelError, match=match):
        load_network(path)


def test_missing_network_file(tmp_path):
    with pytest.raises(ModelError):
        load_network(tmp_path / "nowhere.json")


@pytest.mark.parametrize("variance", [-1.0, float("nan")], ids=["negative", "nan"])
def test_bad_variance_is_a_model_error(variance):
    spec = {"nodes": ["a"], "cpds": {"a": {"coefficients": {"(Intercept)": [0.0]}, "variance": [variance]}}}
    with pytest.raises(ModelError, match="variance"):
        load_network(spec)


def test_duplicate_nodes_are_a_model_error():
    spec = {"nodes": ["a", "a"], "cpds": {"a": {"coefficients": {"(Intercept)": [0.0]}, "variance": [1.0]}}}
    with pytest.raises(ModelError, match="'a'"):
        load_network(spec)


def test_regulatory_network_parents_are_regulators_and_signal_holds():
    from engine.synth import regulatory_network

    net, regs = regulatory_network(300, 20, seed=3)
    assert net.n_vars == 300 and regs == [f"TF{i + 1}" for i in range(20)] and net.names[:20] == regs
    index = {n: i for i, n in enumerate(net.names)}
    assert all(p < 20 for c in range(20, 300) for p in net.parents[c])  # targets: regulators only
    assert max(len(ps) for ps in net.parents) <= 4
    out_deg = np.bincount([index[p] for p, _ in net.edges()], minlength=20)
    assert out_deg.max() >= 3 * np.median(out_deg)  # hubs
    x = sample(net, 20000, seed=4)
    with_parents = [c for c in range(20, 300) if net.parents[c]]
    # parents explain about 60% of each target's variance (unit noise)
    explained = 1.0 - 1.0 / x[:, with_parents].var(axis=0)
    assert abs(np.median(explained) - 0.6) < 0.03

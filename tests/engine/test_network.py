"""LearnedNetwork: the JSON result format, GraphML export and (held-out) scoring."""

from __future__ import annotations

import copy
import json
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from engine.data import from_array
from engine.exceptions import DataValidationError, ModelError
from engine.learn import IdealParentSearch
from engine.network import LearnedNetwork
from engine.synth import random_network, sample

GRAPHML = "{http://graphml.graphdrawing.org/xmlns}"


@pytest.fixture(scope="module")
def net_and_data():
    """A network learned on 300 standardized instances, the raw training data and a raw held-out sample."""
    truth = random_network(8, seed=1)
    train_raw = sample(truth, 300, seed=2)
    held_raw = sample(truth, 300, seed=3)
    train = from_array(train_raw, truth.names)
    est = IdealParentSearch().fit(train)
    return est.network_, train, train_raw, held_raw, truth.names


def gaussian_loglik(net: LearnedNetwork, x: np.ndarray) -> float:
    """Independent computation: sum over families of the Gaussian log-density of the residuals."""
    index = {v: i for i, v in enumerate(net.variables)}
    total = 0.0
    for child in net.variables:
        fam = net.families[child]
        p = fam.params
        mean = np.full(x.shape[0], p["intercept"], dtype=float)
        for parent in fam.parents:
            mean = mean + p["coefficients"][parent] * x[:, index[parent]]
        r = x[:, index[child]] - mean
        s2 = p["variance"]
        total += float(np.sum(-0.5 * np.log(2 * np.pi * s2) - 0.5 * r**2 / s2))
    return total


def standardize_like(net: LearnedNetwork, raw: np.ndarray) -> np.ndarray:
    t = net.transform
    means = np.array([t["means"][v] for v in net.variables])
    scales = np.array([t["scales"][v] for v in net.variables])
    return (raw - means) / scales


class TestDictRoundTrip:
    def test_round_trip(self, net_and_data):
        net = net_and_data[0]
        spec = net.to_dict()
        back = LearnedNetwork.from_dict(spec)
        assert back.to_dict() == spec
        # and through JSON text (what the CLI writes)
        again = LearnedNetwork.from_dict(json.loads(json.dumps(spec)))
        assert again.to_dict() == spec
        assert again.edges() == net.edges()
        assert again.n_edges == net.n_edges > 0

    def test_to_dict_layout(self, net_and_data):
        net = net_and_data[0]
        spec = net.to_dict()
        assert spec["variables"] == list(net.variables)
        assert set(spec["families"]) == set(spec["variables"])
        for e in spec["edges"]:
            fam = spec["families"][e["child"]]
            assert e["parent"] in fam["parents"]
            assert e["weight"] == fam["params"]["coefficients"][e["parent"]]
        assert len(spec["edges"]) == sum(len(f["parents"]) for f in spec["families"].values())
        assert spec["score"]["units"] == "nats"
        assert spec["score"]["bic"] < spec["score"]["loglik"] < 0
        assert spec["transform"]["standardized"] is True

    def _spec(self, net_and_data):
        return copy.deepcopy(net_and_data[0].to_dict())

    def _a_child_with_parents(self, spec):
        return next(c for c, f in spec["families"].items() if f["parents"])

    @pytest.mark.parametrize("key", ["variables", "families"])
    def test_missing_top_level_key(self, net_and_data, key):
        spec = self._spec(net_and_data)
        del spec[key]
        with pytest.raises(ModelError):
            LearnedNetwork.from_dict(spec)

    def test_missing_family(self, net_and_data):
        spec = self._spec(net_and_data)
        del spec["families"][spec["variables"][0]]
        with pytest.raises(ModelError):
            LearnedNetwork.from_dict(spec)

    def test_missing_params(self, net_and_data):
        spec = self._spec(net_and_data)
        del spec["families"][spec["variables"][0]]["params"]["variance"]
        with pytest.raises(ModelError):
            LearnedNetwork.from_dict(spec)

    def test_parent_not_a_variable(self, net_and_data):
        spec = self._spec(net_and_data)
        child = self._a_child_with_parents(spec)
        fam = spec["families"][child]
        old = fam["parents"][0]
        fam["parents"][0] = "nobody"
        fam["params"]["coefficients"]["nobody"] = fam["params"]["coefficients"].pop(old)
        with pytest.raises(ModelError, match="nobody"):
            LearnedNetwork.from_dict(spec)

    def test_coefficients_do_not_match_parents(self, net_and_data):
        spec = self._spec(net_and_data)
        child = self._a_child_with_parents(spec)
        spec["families"][child]["params"]["coefficients"] = {}
        with pytest.raises(ModelError, match="coefficients"):
            LearnedNetwork.from_dict(spec)

    def test_non_positive_variance(self, net_and_data):
        spec = self._spec(net_and_data)
        spec["families"][spec["variables"][0]]["params"]["variance"] = 0.0
        with pytest.raises(ModelError, match="variance"):
            LearnedNetwork.from_dict(spec)

    def test_unknown_cpd(self, net_and_data):
        spec = self._spec(net_and_data)
        spec["families"][spec["variables"][0]]["cpd"] = "quantum"
        with pytest.raises(ModelError, match="quantum"):
            LearnedNetwork.from_dict(spec)

    @pytest.mark.parametrize("bad", [None, [], "text", 3])
    def test_not_a_mapping(self, bad):
        with pytest.raises(ModelError):
            LearnedNetwork.from_dict(bad)  # type: ignore[arg-type]


class TestGraphML:
    def test_well_formed_with_counts_and_escaped_names(self):
        rng = np.random.default_rng(0)
        names = ["a<b", 'x "y"', "c&d", "plain"]
        x = rng.normal(size=(200, 4))
        x[:, 1] += 2.0 * x[:, 0]
        x[:, 2] += 1.5 * x[:, 1]
        ds = from_array(x, names)
        net = LearnedNetwork.from_parents(ds, {0: (), 1: (0,), 2: (1,), 3: (0, 2)})
        root = ET.fromstring(net.to_graphml().encode("utf-8"))
        graph = root.find(f"{GRAPHML}graph")
        assert graph is not None and graph.get("edgedefault") == "directed"
        nodes = graph.findall(f"{GRAPHML}node")
        edges = graph.findall(f"{GRAPHML}edge")
        assert [n.get("id") for n in nodes] == names
        assert len(edges) == net.n_edges == 4
        got = {(e.get("source"), e.get("target")) for e in edges}
        assert got == {("a<b", 'x "y"'), ('x "y"', "c&d"), ("a<b", "plain"), ("c&d", "plain")}
        for e in edges:
            w = float(e.find(f"{GRAPHML}data").text)
            assert w == pytest.approx(net.families[e.get("target")].params["coefficients"][e.get("source")])

    def test_learned_network(self, net_and_data):
        net = net_and_data[0]
        root = ET.fromstring(net.to_graphml())
        graph = root.find(f"{GRAPHML}graph")
        assert len(graph.findall(f"{GRAPHML}node")) == len(net.variables)
        assert len(graph.findall(f"{GRAPHML}edge")) == net.n_edges


class TestEvaluate:
    def test_training_data_reproduce_the_stored_loglik(self, net_and_data):
        net, _, train_raw, _, names = net_and_data
        raw = from_array(train_raw, names, standardize=False)
        for refit in (False, True):
            out = net.evaluate(raw, refit=refit)
            assert out["loglik"] == pytest.approx(net.loglik, rel=1e-9)
            assert out["bic"] == pytest.approx(net.bic, rel=1e-9)
            assert out["n_samples"] == 300 and out["units"] == "nats" and out["refit"] is refit
            assert out["loglik_per_instance_per_variable"] == pytest.approx(out["loglik"] / (300 * len(names)))

    def test_equals_an_independent_gaussian_computation(self, net_and_data):
        net, _, _, held_raw, names = net_and_data
        held = from_array(held_raw, names, standardize=False)
        out = net.evaluate(held, refit=False)
        expected = gaussian_loglik(net, standardize_like(net, held_raw))
        assert out["loglik"] == pytest.approx(expected, rel=1e-10)
        n_params = sum(len(f.parents) + 2 for f in net.families.values())
        assert out["bic"] == pytest.approx(expected - 0.5 * math.log(300) * n_params, rel=1e-10)

    def test_applies_the_training_transform(self, net_and_data):
        """Raw held-out data are put on the *training* scale, not re-standardized on their own."""
        net, _, _, held_raw, names = net_and_data
        shifted = held_raw + np.linspace(1.0, 3.0, held_raw.shape[1])  # a location shift the model must see
        out = net.evaluate(from_array(shifted, names, standardize=False))
        assert out["loglik"] == pytest.approx(gaussian_loglik(net, standardize_like(net, shifted)), rel=1e-10)
        own_scale = from_array(shifted, names, standardize=True).values
        assert out["loglik"] < gaussian_loglik(net, own_scale) - 1.0

    def test_held_out_is_worse_and_refit_is_better(self, net_and_data):
        net, _, _, held_raw, names = net_and_data
        held = from_array(held_raw, names, standardize=False)
        plain = net.evaluate(held)
        refit = net.evaluate(held, refit=True)
        assert refit["loglik"] >= plain["loglik"]
        assert plain["loglik"] < net.loglik

    def test_column_order_and_extra_columns_do_not_matter(self, net_and_data):
        net, _, _, held_raw, names = net_and_data
        order = list(reversed(range(len(names))))
        extra = np.column_stack([held_raw[:, order], np.random.default_rng(5).normal(size=held_raw.shape[0])])
        ds = from_array(extra, [names[i] for i in order] + ["unrelated"], standardize=False)
        base = net.evaluate(from_array(held_raw, names, standardize=False))
        assert net.evaluate(ds)["loglik"] == pytest.approx(base["loglik"], rel=1e-12)

    def test_missing_variable_named(self, net_and_data):
        net, _, _, held_raw, names = net_and_data
        ds = from_array(held_raw[:, 1:], names[1:], standardize=False)
        with pytest.raises(DataValidationError, match=repr(names[0])):
            net.evaluate(ds)

    def test_unstandardized_model_uses_raw_values(self, net_and_data):
        _, _, train_raw, held_raw, names = net_and_data
        raw_train = from_array(train_raw, names, standardize=False)
        net = IdealParentSearch().fit(raw_train).network_
        assert net.transform["standardized"] is False
        out = net.evaluate(from_array(held_raw, names, standardize=False))
        assert out["loglik"] == pytest.approx(gaussian_loglik(net, held_raw), rel=1e-10)

"""Random networks with known truth, and samplers.

``random_network`` draws a random DAG over N variables (a random topological order, each variable
gets up to ``max_parents`` parents among its predecessors, ``expected_parents`` on average) with
linear-Gaussian CPDs; ``sample`` draws M instances by ancestral sampling. Networks can also be read
from the arth150 JSON format (bnlearn repository as shipped by pgmpy: nodes, arcs, and per node
``coefficients`` with ``(Intercept)`` and a ``variance``).

Coefficients: each edge weight is drawn uniformly from +-[w_min, w_max]; with ``signal`` set, the
weights of each family are rescaled so that its parents explain about that fraction of the child's
variance (keeps deep chains from becoming near-deterministic). All randomness goes through one
``numpy.random.Generator`` built from ``seed``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ._validation import check_scalar
from .cpd.registry import DEFAULT_CPD, get_cpd
from .data import Dataset, from_array
from .exceptions import ModelError

__all__ = [
    "LinearGaussianNetwork",
    "random_network",
    "regulatory_network",
    "load_network",
    "sample",
    "sample_dataset",
]


@dataclass
class LinearGaussianNetwork:
    """A linear-Gaussian Bayesian network with known structure and parameters.

    ``parents[j]`` are the parent indices of variable j, ``weights[j]`` their coefficients,
    ``intercepts[j]`` and ``variances[j]`` the intercept and noise variance. Variables are stored in
    a topological order when built by :func:`random_network`; :func:`sample` does not rely on it.
    """

    names: list[str]
    parents: list[list[int]]
    weights: list[list[float]]
    intercepts: np.ndarray
    variances: np.ndarray
    #: the CPD of every variable (a name of :mod:`engine.cpd.registry`)
    cpd: str = DEFAULT_CPD
    #: sigmoid networks: output scale theta_1 per variable (x = theta_0 + theta_1 sigmoid(w.u) + eps);
    #: the CPD's ``network_params`` name such per-variable arrays
    theta1: np.ndarray | None = None
    extra: dict = field(default_factory=dict)

    @property
    def n_vars(self) -> int:
        return len(self.names)

    def edges(self) -> list[tuple[str, str]]:
        """True edges as (parent name, child name)."""
        return [(self.names[p], self.names[c]) for c in range(self.n_vars) for p in self.parents[c]]

    def edge_index(self) -> list[tuple[int, int]]:
        return [(p, c) for c in range(self.n_vars) for p in self.parents[c]]

    def topological_order(self) -> list[int]:
        order: list[int] = []
        indeg = np.array([len(p) for p in self.parents])
        children: list[list[int]] = [[] for _ in range(self.n_vars)]
        for c, ps in enumerate(self.parents):
            for p in ps:
                children[p].append(c)
        ready = [i for i in range(self.n_vars) if indeg[i] == 0]
        while ready:
            v = ready.pop(0)
            order.append(v)
            for c in children[v]:
                indeg[c] -= 1
                if indeg[c] == 0:
                    ready.append(c)
        if len(order) != self.n_vars:
            raise ModelError("the network has a directed cycle.")
        return order

    def edges_frame(self) -> pd.DataFrame:
        """True edges with weights, as a DataFrame (parent, child, weight)."""
        rows = [
            (self.names[p], self.names[c], float(w))
            for c in range(self.n_vars)
            for p, w in zip(self.parents[c], self.weights[c], strict=True)
        ]
        return pd.DataFrame(rows, columns=["parent", "child", "weight"])

    def to_json(self) -> dict:
        """The arth150-style JSON description (nodes, arcs, cpds); a network whose CPD is not the
        default (linear) adds its name, and its CPD's ``network_params`` per node (the sigmoid's
        ``theta1``)."""
        cpd_type = get_cpd(self.cpd)
        cpds = {}
        for j, name in enumerate(self.names):
            coefs = {"(Intercept)": [float(self.intercepts[j])]}
            for p, w in zip(self.parents[j], self.weights[j], strict=True):
                coefs[self.names[p]] = [float(w)]
            cpds[name] = {
                "coefficients": coefs,
                "variance": [float(self.variances[j])],
                "parents": [self.names[p] for p in self.parents[j]],
            }
            for key in cpd_type.network_params:
                cpds[name][key] = [float(getattr(self, key)[j])]
        out = {"nodes": list(self.names), "arcs": [list(e) for e in self.edges()], "cpds": cpds}
        if cpd_type.name != DEFAULT_CPD:
            out["cpd"] = cpd_type.name
        return out


def random_network(
    n_vars: int,
    *,
    expected_parents: float = 1.5,
    max_parents: int = 3,
    w_min: float = 0.5,
    w_max: float = 1.5,
    signal: float | None = 0.6,
    seed: int | np.random.Generator | None = None,
    prefix: str = "X",
    cpd: str = DEFAULT_CPD,
) -> LinearGaussianNetwork:
    """Draw a random linear-Gaussian (or sigmoid-Gaussian) network.

    Parameters
    ----------
    n_vars : int
    expected_parents : float
        Mean number of parents per variable (fewer near the top of the order).
    max_parents : int
    w_min, w_max : float
        Edge weights are drawn from +-U(w_min, w_max).
    signal : float in (0, 1) or None
        Fraction of each child's variance its parents explain (weights rescaled); None keeps the
        raw weights with unit noise variance.
    seed : int, Generator or None
    cpd : {"linear", "sigmoid", "multiplicative"}
        A non-linear CPD then calibrates the network (:mod:`engine.cpd.sampling`). With
        ``"sigmoid"`` each child with parents is ``theta_0 + theta_1 sigmoid(w . u) + eps``
        (JMLR eq. 4): weights scaled so that ``w . u`` has standard deviation about 2 (the sigmoid
        saturates), theta_1 = +-U(1.5, 3), and the noise variance set so that the sigmoid term
        explains about ``signal`` (default 0.6) of the child's variance. With ``"multiplicative"``
        each variable is ``exp(theta_0 + w . u) (1 + eps)`` (eq. 16) with ``w . u`` kept within
        about 1.5 of its median.
    """
    cpd_type = get_cpd(cpd)
    check_scalar(n_vars, "n_vars", int, min_val=2)
    check_scalar(expected_parents, "expected_parents", float, min_val=0.0)
    check_scalar(max_parents, "max_parents", int, min_val=0)
    if signal is not None:
        check_scalar(signal, "signal", float, min_val=0.01, max_val=0.99)
    rng = np.random.default_rng(seed)
    order = rng.permutation(n_vars)
    parents: list[list[int]] = [[] for _ in range(n_vars)]
    weights: list[list[float]] = [[] for _ in range(n_vars)]
    variances = np.ones(n_vars)
    intercepts = rng.normal(0.0, 1.0, size=n_vars)
    var_of = np.ones(n_vars)  # marginal variance (approximate for signal scaling)
    cov = np.zeros((n_vars, n_vars))
    for pos, j in enumerate(order):
        if pos > 0 and max_parents > 0:
            n_par = min(pos, max_parents, rng.poisson(expected_parents))
            ps = sorted(int(p) for p in rng.choice(order[:pos], size=n_par, replace=False))
        else:
            ps = []
        w = rng.uniform(w_min, w_max, size=len(ps)) * rng.choice([-1.0, 1.0], size=len(ps))
        if ps:
            sub = cov[np.ix_(ps, ps)]
            sig_var = float(w @ sub @ w)
            if signal is not None and sig_var > 0:
                # parents explain `signal` of the variance with unit noise
                w = w * np.sqrt(signal / (1.0 - signal) / sig_var)
                sig_var = float(w @ sub @ w)
        else:
            sig_var = 0.0
        parents[j] = ps
        weights[j] = [float(x) for x in w]
        # covariance with earlier variables: cov(j, i) = sum_p w_p cov(p, i)
        prev = order[:pos]
        if ps:
            cov[j, prev] = w @ cov[np.ix_(ps, prev)]
            cov[prev, j] = cov[j, prev]
        var_of[j] = sig_var + variances[j]
        cov[j, j] = var_of[j]
    names = [f"{prefix}{i + 1}" for i in range(n_vars)]
    net = LinearGaussianNetwork(names, parents, weights, intercepts, variances, cpd=cpd_type.name)
    if cpd_type.calibrate is not None:
        cpd_type.calibrate(net, order, rng, signal)
    return net


def regulatory_network(
    n_genes: int,
    n_regulators: int,
    *,
    expected_parents: float = 1.5,
    max_parents: int = 4,
    hub_shape: float = 1.5,
    signal: float = 0.6,
    seed: int | np.random.Generator | None = None,
) -> tuple[LinearGaussianNetwork, list[str]]:
    """A transcription-network-like linear-Gaussian network and its regulator list.

    The first ``n_regulators`` genes are regulators (``TF1``, ...), wired among themselves as a
    sparse random DAG (half a parent each on average); every other gene (``G1``, ...) gets
    Poisson(``expected_parents``) regulators (at most ``max_parents``), chosen with probability
    proportional to a Pareto(``hub_shape``) activity per regulator, so that a few hubs regulate
    many genes as in measured networks. Weights are +-U(0.5, 1.5), rescaled so that each family's
    parents explain ``signal`` of its child's variance (unit noise). Returns the network and the
    regulator names.
    """
    check_scalar(n_regulators, "n_regulators", int, min_val=1)
    check_scalar(n_genes, "n_genes", int, min_val=n_regulators + 1)
    rng = np.random.default_rng(seed)
    tfs = random_network(n_regulators, expected_parents=0.5, max_parents=2, signal=signal, seed=rng, prefix="TF")
    cov = np.eye(n_regulators)
    for j in tfs.topological_order():  # the regulators' covariance, for the targets' signal scaling
        ps, w = tfs.parents[j], np.asarray(tfs.weights[j])
        if ps:
            cov[j, :] = w @ cov[ps, :]
            cov[:, j] = cov[j, :]
            cov[j, j] = float(w @ cov[np.ix_(ps, ps)] @ w) + tfs.variances[j]
    activity = rng.pareto(hub_shape, size=n_regulators) + 1.0
    activity /= activity.sum()
    parents, weights = list(tfs.parents), list(tfs.weights)
    for _ in range(n_genes - n_regulators):
        k = min(int(rng.poisson(expected_parents)), max_parents, n_regulators)
        ps = sorted(int(p) for p in rng.choice(n_regulators, size=k, replace=False, p=activity))
        w = rng.uniform(0.5, 1.5, size=k) * rng.choice([-1.0, 1.0], size=k)
        if ps:
            w = w * np.sqrt(signal / (1.0 - signal) / float(w @ cov[np.ix_(ps, ps)] @ w))
        parents.append(ps)
        weights.append([float(x) for x in w])
    names = list(tfs.names) + [f"G{i + 1}" for i in range(n_genes - n_regulators)]
    intercepts = np.concatenate([tfs.intercepts, rng.normal(size=n_genes - n_regulators)])
    net = LinearGaussianNetwork(names, parents, weights, intercepts, np.ones(n_genes))
    return net, list(tfs.names)


def load_network(source: str | os.PathLike | dict) -> LinearGaussianNetwork:
    """Read a linear-Gaussian network in the arth150 JSON format (bnlearn/pgmpy)."""
    try:
        spec = source if isinstance(source, dict) else json.loads(Path(source).read_text())
        names = [str(n) for n in spec["nodes"]]
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            raise ModelError(f"node name(s) {', '.join(map(repr, dups))} appear more than once.")
        index = {n: i for i, n in enumerate(names)}
        parents: list[list[int]] = [[] for _ in names]
        weights: list[list[float]] = [[] for _ in names]
        intercepts = np.zeros(len(names))
        variances = np.ones(len(names))
        cpd_type = get_cpd(str(spec.get("cpd", DEFAULT_CPD)))
        per_var = {key: np.ones(len(names)) for key in cpd_type.network_params}
        for name, cpd in spec["cpds"].items():
            j = index[str(name)]
            coefs = cpd.get("coefficients", {})
            for key, val in coefs.items():
                v = float(val[0] if isinstance(val, list) else val)
                if key == "(Intercept)":
                    intercepts[j] = v
                else:
                    parents[j].append(index[str(key)])
                    weights[j].append(v)
            var = cpd.get("variance", 1.0)
            variances[j] = float(var[0] if isinstance(var, list) else var)
            if not (np.isfinite(variances[j]) and variances[j] > 0):
                raise ModelError(f"node {name!r}: variance must be a positive number, got {variances[j]}.")
            for key, arr in per_var.items():
                v = cpd.get(key, 1.0)
                arr[j] = float(v[0] if isinstance(v, list) else v)
    except ModelError:
        raise
    except (OSError, KeyError, ValueError, TypeError, IndexError) as exc:
        raise ModelError(f"not a network file in the expected JSON format ({exc}).") from None
    net = LinearGaussianNetwork(names, parents, weights, intercepts, variances, cpd=cpd_type.name, **per_var)
    net.topological_order()  # raises on cycles
    return net


def sample(net: LinearGaussianNetwork, n_samples: int, *, seed: int | np.random.Generator | None = None) -> np.ndarray:
    """Ancestral sampling: an (n_samples x n_vars) array, columns in ``net.names`` order."""
    check_scalar(n_samples, "n_samples", int, min_val=1)
    rng = np.random.default_rng(seed)
    draw = get_cpd(net.cpd).sample
    x = np.zeros((n_samples, net.n_vars))
    for j in net.topological_order():
        s = x[:, net.parents[j]] @ np.asarray(net.weights[j]) if net.parents[j] else None
        x[:, j] = draw(net, j, s, rng, n_samples)
    return x


def sample_dataset(net: LinearGaussianNetwork, n_samples: int, *, seed=None, standardize: bool = True) -> Dataset:
    """Sample a :class:`Dataset` from ``net`` (names kept)."""
    return from_array(
        sample(net, n_samples, seed=seed),
        net.names,
        standardize=standardize,
        source=f"synthetic sample ({n_samples} instances)",
    )

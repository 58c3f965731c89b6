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
from .data import Dataset, from_array
from .exceptions import ModelError

__all__ = ["LinearGaussianNetwork", "random_network", "load_network", "sample", "sample_dataset"]


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
    cpd: str = "linear"
    #: sigmoid networks: output scale theta_1 per variable (x = theta_0 + theta_1 sigmoid(w.u) + eps)
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
        """The arth150-style JSON description (nodes, arcs, cpds); sigmoid CPDs add ``theta1``."""
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
            if self.cpd == "sigmoid":
                cpds[name]["theta1"] = [float(self.theta1[j])]
        out = {"nodes": list(self.names), "arcs": [list(e) for e in self.edges()], "cpds": cpds}
        if self.cpd == "sigmoid":
            out["cpd"] = "sigmoid"
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
    cpd: str = "linear",
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
    cpd : {"linear", "sigmoid"}
        With ``"sigmoid"`` each child with parents is ``theta_0 + theta_1 sigmoid(w . u) + eps``
        (JMLR eq. 4): weights scaled so that ``w . u`` has standard deviation about 2 (the sigmoid
        saturates), theta_1 = +-U(1.5, 3), and the noise variance set so that the sigmoid term
        explains about ``signal`` (default 0.6) of the child's variance.
    """
    from ._validation import check_choice

    cpd = check_choice(cpd, "cpd", ("linear", "sigmoid", "multiplicative"))
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
    if cpd == "linear":
        return LinearGaussianNetwork(names, parents, weights, intercepts, variances)
    if cpd == "multiplicative":
        # x = exp(theta_0 + w.u) (1 + eps): weights scaled so that w.u varies by at most ~1.5
        # around its median on a pilot sample (keeps chains of exponentials from overflowing);
        # noise sd 0.1-0.3 (eps clipped above -0.95 to keep x > 0)
        net = LinearGaussianNetwork(
            names,
            parents,
            weights,
            rng.normal(0.0, 0.3, size=n_vars),
            rng.uniform(0.1, 0.3, size=n_vars) ** 2,
            cpd="multiplicative",
        )
        pilot = np.zeros((2000, n_vars))
        for j in order:  # the pilot is sampled exactly as sample() will sample
            ps = parents[j]
            eta = np.full(2000, net.intercepts[j])
            if ps:
                lin = pilot[:, ps] @ np.asarray(weights[j])
                spread = float(np.max(np.abs(lin - np.median(lin))))
                if spread > 0:
                    weights[j] = [float(w) * 1.5 / spread for w in weights[j]]
                eta = eta + pilot[:, ps] @ np.asarray(weights[j])
            pilot[:, j] = np.exp(eta) * (1 + rng.normal(0, np.sqrt(net.variances[j]), 2000).clip(-0.95))
        net.weights = weights
        return net
    # sigmoid: rescale weights by a pilot sample so that w.u has sd ~2, then pick the noise
    frac = 0.6 if signal is None else signal
    theta1 = rng.uniform(1.5, 3.0, size=n_vars) * rng.choice([-1.0, 1.0], size=n_vars)
    net = LinearGaussianNetwork(names, parents, weights, intercepts, np.ones(n_vars), cpd="sigmoid", theta1=theta1)
    pilot = np.zeros((2000, n_vars))
    for j in order:
        ps = parents[j]
        if ps:
            s = pilot[:, ps] @ np.asarray(weights[j])
            sd = s.std()
            if sd > 0:
                weights[j] = [float(w) * 2.0 / sd for w in weights[j]]
                s = s * 2.0 / sd
            h = theta1[j] * (0.5 * (1.0 + np.tanh(0.5 * s)))
            var_h = float(h.var())
            variances[j] = max(var_h * (1.0 - frac) / frac, 1e-3)
            pilot[:, j] = intercepts[j] + h + rng.normal(0.0, np.sqrt(variances[j]), size=2000)
        else:
            variances[j] = 1.0
            pilot[:, j] = intercepts[j] + rng.normal(size=2000)
    net.weights = weights
    net.variances = variances
    return net


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
        kind = str(spec.get("cpd", "linear"))
        theta1 = np.ones(len(names))
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
            t1 = cpd.get("theta1", 1.0)
            theta1[j] = float(t1[0] if isinstance(t1, list) else t1)
    except ModelError:
        raise
    except (OSError, KeyError, ValueError, TypeError, IndexError) as exc:
        raise ModelError(f"not a network file in the expected JSON format ({exc}).") from None
    net = LinearGaussianNetwork(
        names, parents, weights, intercepts, variances, cpd=kind, theta1=theta1 if kind == "sigmoid" else None
    )
    net.topological_order()  # raises on cycles
    return net


def sample(net: LinearGaussianNetwork, n_samples: int, *, seed: int | np.random.Generator | None = None) -> np.ndarray:
    """Ancestral sampling: an (n_samples x n_vars) array, columns in ``net.names`` order."""
    check_scalar(n_samples, "n_samples", int, min_val=1)
    rng = np.random.default_rng(seed)
    x = np.zeros((n_samples, net.n_vars))
    for j in net.topological_order():
        s = x[:, net.parents[j]] @ np.asarray(net.weights[j]) if net.parents[j] else None
        if net.cpd == "multiplicative":
            eta = net.intercepts[j] + (s if s is not None else 0.0)
            noise = rng.normal(0.0, np.sqrt(net.variances[j]), size=n_samples).clip(-0.95)
            x[:, j] = np.exp(eta) * (1.0 + noise)
            continue
        if s is None:
            mean = net.intercepts[j]
        elif net.cpd == "sigmoid":
            mean = net.intercepts[j] + net.theta1[j] * 0.5 * (1.0 + np.tanh(0.5 * s))
        else:
            mean = net.intercepts[j] + s
        x[:, j] = mean + rng.normal(0.0, np.sqrt(net.variances[j]), size=n_samples)
    return x


def sample_dataset(net: LinearGaussianNetwork, n_samples: int, *, seed=None, standardize: bool = True) -> Dataset:
    """Sample a :class:`Dataset` from ``net`` (names kept)."""
    return from_array(
        sample(net, n_samples, seed=seed),
        net.names,
        standardize=standardize,
        source=f"synthetic sample ({n_samples} instances)",
    )

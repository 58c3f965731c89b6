"""Synthetic data per CPD: ancestral sampling of one variable, and the CPD's calibration of a random network.

:func:`engine.synth.random_network` draws the DAG and linear edge weights whatever the CPD; a
non-linear CPD then calibrates the network (:data:`Calibrate`) so that its data stay in a useful
regime, and :func:`engine.synth.sample` draws every variable with the CPD's :data:`SampleNode`
given ``s = U w`` (its parents' weighted sum; None without parents). Both are looked up through
:mod:`engine.cpd.registry`. ``net`` is an :class:`engine.synth.LinearGaussianNetwork` (read only
through its attributes ``parents``, ``weights``, ``intercepts``, ``variances`` and the CPD's extra
per-variable arrays, e.g. ``theta1``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = [
    "Calibrate",
    "SampleNode",
    "calibrate_multiplicative",
    "calibrate_sigmoid",
    "sample_linear",
    "sample_multiplicative",
    "sample_sigmoid",
]

#: ``sample(net, j, s, rng, n)``: n draws of variable j given its parents' weighted sum ``s``
SampleNode = Callable[[Any, int, "np.ndarray | None", np.random.Generator, int], np.ndarray]
#: ``calibrate(net, order, rng, signal)``: adjust a freshly drawn network in place
Calibrate = Callable[[Any, np.ndarray, np.random.Generator, "float | None"], None]

#: instances of the pilot sample that calibrates a non-linear network
PILOT = 2000


def sample_linear(net: Any, j: int, s: np.ndarray | None, rng: np.random.Generator, n: int) -> np.ndarray:
    """``x = b_0 + s + eps``, ``eps ~ N(0, sigma^2)`` (JMLR 2007 section 3.2)."""
    mean = net.intercepts[j] if s is None else net.intercepts[j] + s
    return mean + rng.normal(0.0, np.sqrt(net.variances[j]), size=n)


def sample_sigmoid(net: Any, j: int, s: np.ndarray | None, rng: np.random.Generator, n: int) -> np.ndarray:
    """``x = theta_0 + theta_1 sigmoid(s) + eps`` (eq. 4); a root is ``theta_0 + eps``."""
    if s is None:
        mean = net.intercepts[j]
    else:
        mean = net.intercepts[j] + net.theta1[j] * 0.5 * (1.0 + np.tanh(0.5 * s))
    return mean + rng.normal(0.0, np.sqrt(net.variances[j]), size=n)


def sample_multiplicative(net: Any, j: int, s: np.ndarray | None, rng: np.random.Generator, n: int) -> np.ndarray:
    """``x = exp(theta_0 + s) (1 + eps)`` (eq. 16), eps clipped above -0.95 to keep x > 0."""
    eta = net.intercepts[j] + (s if s is not None else 0.0)
    noise = rng.normal(0.0, np.sqrt(net.variances[j]), size=n).clip(-0.95)
    return np.exp(eta) * (1.0 + noise)


def calibrate_multiplicative(net: Any, order: np.ndarray, rng: np.random.Generator, signal: float | None) -> None:
    """New intercepts ~ N(0, 0.3^2) and noise sd ~ U(0.1, 0.3); the weights of each family scaled so
    that ``w.u`` varies by at most ~1.5 around its median on a pilot sample (keeps chains of
    exponentials from overflowing). ``signal`` is not used."""
    n_vars = len(net.parents)
    net.intercepts = rng.normal(0.0, 0.3, size=n_vars)
    net.variances = rng.uniform(0.1, 0.3, size=n_vars) ** 2
    weights = net.weights
    pilot = np.zeros((PILOT, n_vars))
    for j in order:  # the pilot is sampled exactly as sample() will sample
        ps = net.parents[j]
        eta = np.full(PILOT, net.intercepts[j])
        if ps:
            lin = pilot[:, ps] @ np.asarray(weights[j])
            spread = float(np.max(np.abs(lin - np.median(lin))))
            if spread > 0:
                weights[j] = [float(w) * 1.5 / spread for w in weights[j]]
            eta = eta + pilot[:, ps] @ np.asarray(weights[j])
        pilot[:, j] = np.exp(eta) * (1 + rng.normal(0, np.sqrt(net.variances[j]), PILOT).clip(-0.95))


def calibrate_sigmoid(net: Any, order: np.ndarray, rng: np.random.Generator, signal: float | None) -> None:
    """theta_1 = +-U(1.5, 3); the weights of each family scaled on a pilot sample so that ``w.u`` has
    standard deviation about 2 (the sigmoid saturates), and the noise variance set so that the
    sigmoid term explains about ``signal`` (default 0.6) of the child's variance."""
    n_vars = len(net.parents)
    frac = 0.6 if signal is None else signal
    theta1 = rng.uniform(1.5, 3.0, size=n_vars) * rng.choice([-1.0, 1.0], size=n_vars)
    net.theta1 = theta1
    weights, variances, intercepts = net.weights, net.variances, net.intercepts
    pilot = np.zeros((PILOT, n_vars))
    for j in order:
        ps = net.parents[j]
        if ps:
            s = pilot[:, ps] @ np.asarray(weights[j])
            sd = s.std()
            if sd > 0:
                weights[j] = [float(w) * 2.0 / sd for w in weights[j]]
                s = s * 2.0 / sd
            h = theta1[j] * (0.5 * (1.0 + np.tanh(0.5 * s)))
            var_h = float(h.var())
            variances[j] = max(var_h * (1.0 - frac) / frac, 1e-3)
            pilot[:, j] = intercepts[j] + h + rng.normal(0.0, np.sqrt(variances[j]), size=PILOT)
        else:
            variances[j] = 1.0
            pilot[:, j] = intercepts[j] + rng.normal(size=PILOT)

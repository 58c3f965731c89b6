"""The planted-factor data of tests/engine/test_latent.py and test_arc_strength.py (not a test module).

Both tests read one ``hidden="auto"`` fit of :func:`planted_factor` (seed 5): the session fixture
``planted_auto`` in conftest.py runs it once (about 20 s of CPU each time it was run per test file).
"""

from __future__ import annotations

import numpy as np

from engine.data import from_array
from engine.synth import random_network, sample

N_PLANTED = 30
SAMPLE_SEED_OFFSET = 1000  # see tests/engine/test_hidden.py: sample(seed=s) would reproduce h


def planted_factor(seed: int, m: int = 500, load: float = 1.0):
    """Same construction as tests/engine/test_hidden.py::planted_factor, as a Dataset.

    random_network(30, expected_parents=1.0, signal=0.4, seed=seed), m rows (sample seed
    1000 + seed), columns divided by their std; rng = default_rng(seed): h ~ N(0, 1), 6 random
    columns, random signs, x[:, kids] += sign * load * h. Returns (dataset, child names, h)."""
    net = random_network(N_PLANTED, expected_parents=1.0, signal=0.4, seed=seed)
    x = sample(net, m, seed=SAMPLE_SEED_OFFSET + seed)
    x = x / x.std(axis=0)
    rng = np.random.default_rng(seed)
    h = rng.normal(size=m)
    kids = np.sort(rng.choice(N_PLANTED, size=6, replace=False))
    x[:, kids] += rng.choice([-1.0, 1.0], size=6) * load * h[:, None]
    return from_array(x, net.names, standardize=False), {net.names[k] for k in kids}, h

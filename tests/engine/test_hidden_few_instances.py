"""A kept H flagged by one or two instances: does it pay without them? (engine/hidden/few_instances.py)"""

from __future__ import annotations

import numpy as np
import pytest

import engine.hidden.few_instances as few
from engine.data import from_array
from engine.hidden.em import StructuralEM
from engine.hidden.leverage import profile_leverage

M, KIDS = 40, 8


def _models(values: np.ndarray, start: np.ndarray) -> tuple[StructuralEM, StructuralEM]:
    """The network with H (parent of the first KIDS columns, started at ``start``) and the network
    before it (no edges), each fitted by EM with its structure fixed."""
    names = [f"g{i}" for i in range(values.shape[1])]
    ds = from_array(values, names, standardize=False)
    before = StructuralEM(ds, fixed_structure=True)
    before.run()
    model = StructuralEM(ds, hidden={"H1": (start, names[:KIDS])}, fixed_structure=True, max_iter=200)
    model.run()
    return model, before


def _table(h: np.ndarray, load: float, rng: np.random.Generator) -> np.ndarray:
    kids = load * h[:, None] + rng.normal(size=(M, KIDS))
    return np.column_stack([kids, rng.normal(size=(M, 4))])


def test_a_spike_rests_on_its_instance():
    """Eight genes share one instance 9 sd high and noise elsewhere: H is that instance, flagged,
    and without it the network with H scores below the network before (one loading per gene)."""
    rng = np.random.default_rng(0)
    spike = np.zeros(M)
    spike[3] = 1.0
    model, before = _models(_table(spike, 9.0, rng), spike)
    reading = few.few_instances(model, before, "H1")
    assert reading.flagged == [3]
    assert reading.gain_without < 0.0
    assert reading.rests


def test_a_regulator_with_one_stretched_instance_pays_without_it():
    """A real regulator of eight genes whose highest instance is stretched so that it holds more than
    half of H's energy: flagged, yet it pays on the other 39 instances, so it does not rest on one."""
    rng = np.random.default_rng(1)
    h = rng.normal(size=M)
    h[7] = 12.0
    model, before = _models(_table(h, 1.0, rng), h)
    lev = profile_leverage(model.mean[:, model.names.index("H1")])
    assert lev.flagged and lev.leverage > 0.5
    reading = few.few_instances(model, before, "H1")
    assert reading.flagged == [7]
    assert reading.gain_without > 0.0
    assert not reading.rests


def test_an_unflagged_h_is_not_measured():
    rng = np.random.default_rng(2)
    h = rng.normal(size=M)
    model, before = _models(_table(h, 1.0, rng), h)
    reading = few.few_instances(model, before, "H1")
    assert reading.flagged == [] and not reading.rests and np.isnan(reading.gain_without)


@pytest.mark.parametrize("on", [False, True])
def test_the_switch(monkeypatch, on):
    """Off (the default), a flagged H is dropped whatever it explains, as before; on, only when it does
    not pay without its flagged instances."""
    rng = np.random.default_rng(1)
    h = rng.normal(size=M)
    h[7] = 12.0
    model, before = _models(_table(h, 1.0, rng), h)

    said: list[str] = []

    class Search:  # the attributes rests_on_few reads of a HiddenSearch
        em, dataset = model, model.dataset
        hidden = [type("H", (), {"name": "H1"})()]
        considered = type("C", (), {"say": staticmethod(said.append)})()

    monkeypatch.setattr(few, "PAYS_WITHOUT", on)
    assert few.rests_on_few(Search(), before) is (not on)
    assert len(said) == on and all("flagged by 8" in s and "pays without" in s for s in said)

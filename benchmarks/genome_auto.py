"""One `--hidden auto` run on a generated genome-scale table and what it kept, for the hold-out
scripts of #22 (`bench_regulators_genome_holdout.py`, `bench_regulators_genome_hubs.py`): each
generator is its own, the run and the reading of its hidden variables are the same."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.data import from_array  # noqa: E402
from engine.hidden.leverage import profile_leverage  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def seed_range(text: str) -> list[int]:
    """``"300-309"`` as the seeds 300..309; ``"305"`` as [305] (the scripts' ``--seeds``)."""
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


@dataclass
class Kept:
    """One kept hidden variable: |r| of its profile with each removed regulator, its children,
    its parents, the share of its variance they explain, its profile's leverage and realized gain."""

    name: str
    r: list[float]
    children: set[str]
    parents: list[str]
    parents_r2: float
    leverage: float
    gain: float


def run_auto(g: dict, source: str, seed: int) -> tuple[list[Kept], float, float]:
    """``--hidden auto --max-hidden 3`` with the generator's regulator list on ``g`` (``values``,
    ``names``, ``labels``, ``regulators``; ``removed``: (M, k) profiles of the removed regulators,
    or None): (the kept hidden variables, wall s, CPU s)."""
    ds = from_array(g["values"], g["names"], instance_labels=g["labels"], source=source)
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=g["regulators"], random_state=seed)
    t0, c0 = time.perf_counter(), time.process_time()
    est.fit(ds)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    hs = est.hidden_search_
    r2 = {r.name: r.parents_r2 for r in hs.report()}
    removed = None if g["removed"] is None else np.asarray(g["removed"]).reshape(len(g["labels"]), -1)
    kept = []
    for h in hs.hidden:
        prof = hs.hidden_profile(h.name)
        rs = [] if removed is None else [abs(float(np.corrcoef(prof, col)[0, 1])) for col in removed.T]
        kept.append(
            Kept(
                name=h.name,
                r=rs,
                children=set(h.children),
                parents=[p for p, c in hs.edges() if c == h.name],
                parents_r2=r2.get(h.name, 0.0),
                leverage=profile_leverage(prof).leverage,
                gain=h.realized_gain,
            )
        )
    return kept, wall, cpu

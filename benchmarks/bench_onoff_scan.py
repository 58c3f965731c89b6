"""Where the on/off step scan puts a planted driver, round by round, under variants of its rules (#22).

Reads the ideal profiles that ``bench_regulators_genome_driver_trace.py --dump DIR`` saved at
every proposal round of one ``--hidden auto`` run (``<gen>_<seed>.pkl``: each round's standardized
ideal profiles z, the candidates' edge costs and names, the other sources' sets; the driver D, its
genes and the condition labels) and re-runs :mod:`engine.hidden.onoff`'s scan on them, so a rule
of the scan can be measured without the structure search (seconds a seed instead of minutes).
Per round and variant: the rank and ``step`` of D's best triple among all triples, the steps
:func:`~engine.hidden.onoff.handed_on` gives ``auto`` (conditions, set size, driven genes in it),
and whether D's step is among them (``D HANDED``: a handed-on step of 3-5 conditions holding
half of its set or more in D's genes, or 10 of them).

Variants: ``base`` (the rules before session 18), ``nested`` (:data:`~engine.hidden.onoff.NESTED`:
a gene counts in a step only where the step fits it better than each of its subsets of one
condition fewer, as a pair's genes must beat each single condition), ``wide``
(:data:`~engine.hidden.onoff.WIDE`: the steps a pair outscores or another source holds are
dropped among all grown steps, not among the best few; on since session 18), ``both``, and
``choice`` (``wide`` with :data:`~engine.hidden.onoff.CHOICE`: steps ranked and grown net of log
C(M, k), the choice of their conditions).

Run:  PYTHONPATH=$PWD python benchmarks/bench_onoff_scan.py /tmp/dump/h17m_1758.pkl [...]
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine.hidden.onoff as onoff  # noqa: E402

VARIANTS = {
    "base": {"NESTED": False, "WIDE": False, "CHOICE": False},
    "nested": {"NESTED": True, "WIDE": False, "CHOICE": False},
    "wide": {"NESTED": False, "WIDE": True, "CHOICE": False},
    "both": {"NESTED": True, "WIDE": True, "CHOICE": False},
    "choice": {"NESTED": False, "WIDE": True, "CHOICE": True},
}


@contextmanager
def variant(settings: dict):
    """The scan's module constants set as ``settings`` says, restored after."""
    old = {k: getattr(onoff, k) for k in settings}
    try:
        for k, v in settings.items():
            setattr(onoff, k, v)
        yield
    finally:
        for k, v in old.items():
            setattr(onoff, k, v)


def round_line(rnd: dict, on: tuple[int, ...], driven: set[str], labels: list[str]) -> tuple[str, bool, list]:
    """One round under the current rules: (its line, D's step handed on, the handed-on steps as
    (conditions, members) pairs)."""
    z, cost, names = rnd["z"], rnd["cost"], rnd["names"]
    col = {n: i for i, n in enumerate(names)}
    others = [np.array([col[n] for n in o if n in col], dtype=np.intp) for o in rnd.get("others", [])]
    triples = np.array(list(itertools.combinations(range(z.shape[0]), onoff.STEP_MIN)), dtype=np.intp)
    scores = onoff._scores(z, triples, cost)
    own = [i for i, t in enumerate(triples) if set(t) <= set(on)]
    best = max(own, key=lambda j: scores[j]) if own else None
    rank = (
        "-"
        if best is None
        else f"{1 + int((scores > scores[best]).sum())} ({scores[best]:.1f} of best {scores.max():.1f})"
    )
    handed = onoff.handed_on(z, cost, np.arange(z.shape[1]), others)
    parts, hit = [], False
    for s in handed:
        genes = {names[c] for c in s.members}
        d = len(genes & driven)
        big = len(s.conditions) > onoff.STEP_PAIR and (2 * d >= len(genes) or d >= 10)
        hit |= big
        parts.append(f"{','.join(labels[c] for c in s.conditions)} {s.score:.1f} ({len(genes)}, D {d})")
    line = f"D's triple rank {rank}; handed on: {'; '.join(parts) or 'nothing'}{'  D HANDED' if hit else ''}"
    return line, hit, [(s.conditions, s.members.tolist()) for s in handed]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dumps", nargs="+")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args(argv)
    names = args.variants.split(",")
    tally, same = {v: 0 for v in names}, {v: 0 for v in names}
    for path in args.dumps:
        with open(path, "rb") as f:
            d = pickle.load(f)
        on = tuple(int(c) for c in np.flatnonzero(d["driver"]))
        print(f"{Path(path).stem}: D on in {', '.join(d['labels'][c] for c in on)}, {len(d['driven'])} genes")
        handed: dict[str, list] = {}
        for v in names:
            hits, handed[v] = [], []
            for k, rnd in enumerate(d["rounds"]):
                with variant(VARIANTS[v]):
                    line, hit, steps = round_line(rnd, on, set(d["driven"]), d["labels"])
                hits.append(hit)
                handed[v].append(steps)
                print(f"  {v:>7} round {k + 1}: {line}")
            tally[v] += any(hits)
            same[v] += handed[v] == handed[names[0]]
        if len(names) > 1:  # the same steps in every round of the traced run: auto's run is the same run
            print(
                f"  the same steps as {names[0]} in every round: "
                + ", ".join(v for v in names if handed[v] == handed[names[0]])
            )
    n = len(args.dumps)
    print("D's step handed on in some round: " + ", ".join(f"{v} {tally[v]}/{n}" for v in names))
    print(f"runs unchanged (every round's steps as {names[0]}'s): " + ", ".join(f"{v} {same[v]}/{n}" for v in names))


if __name__ == "__main__":
    main()

"""Does a speed change leave `--hidden auto` on a genome table as it was? (#22 item 4, session 22)

``dump KIND SEED OUT [--cols N]`` runs ``--hidden auto --max-hidden 3`` with the generator's regulator list
on one table (``module``/``outlier``/... of ``bench_regulators_genome.py``, or ``h20m`` of
``bench_regulators_genome_h20.py``, ``--cols`` its width) and pickles what the run decided: the final
edges, structural EM's edges, each kept H's name, children, realized gain (repr) and posterior-mean
profile (bytes), and the run's log; it prints the fit's CPU seconds. ``compare A B`` says which of them
differ, and by how much for the gains and profiles. Run the code before and after a change on the same
table (e.g. the code before from a ``git archive``) and compare the two dumps.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine.data import from_array  # noqa: E402
from engine.learn import IdealParentSearch  # noqa: E402


def table(kind: str, seed: int, cols: int | None) -> dict:
    if kind == "h20m":
        import bench_regulators_genome_h20 as gen

        return gen.generate(seed, False, n_cols=cols)
    import bench_regulators_genome as gen

    return gen.generate(seed, kind)


def dump(kind: str, seed: int, out: str, cols: int | None) -> None:
    g = table(kind, seed, cols)
    ds = from_array(g["values"], g["names"], instance_labels=g["labels"], source=f"{kind}-{seed}")
    est = IdealParentSearch(hidden="auto", max_hidden=3, regulators=g["regulators"], random_state=seed)
    c0 = time.process_time()
    est.fit(ds)
    cpu = time.process_time() - c0
    hs = est.hidden_search_
    res = {
        "edges": sorted(map(tuple, hs.edges())),
        "em_edges": sorted(map(tuple, hs.em.edges)),
        "hidden": [
            (h.name, sorted(h.children), repr(h.realized_gain), hs.hidden_profile(h.name).tobytes()) for h in hs.hidden
        ],
        "log": repr(est.hidden_log_),
    }
    Path(out).write_bytes(pickle.dumps(res))
    kept = [(name, len(kids), gain) for name, kids, gain, _ in res["hidden"]]
    print(f"{kind} {seed}: {ds.n_vars} columns x {ds.n_samples}, fit {cpu:.1f} s CPU, kept {kept}")


def compare(a_path: str, b_path: str) -> bool:
    a, b = (pickle.loads(Path(p).read_bytes()) for p in (a_path, b_path))
    same = True
    for key in ("edges", "em_edges", "log"):
        if a[key] != b[key]:
            same = False
            print(f"{key}: different")
    if [(n, k) for n, k, _, _ in a["hidden"]] != [(n, k) for n, k, _, _ in b["hidden"]]:
        print("kept hidden variables or their children: different")
        return False
    for (name, _, ga, pa), (_, _, gb, pb) in zip(a["hidden"], b["hidden"], strict=True):
        d_gain = abs(float(ga) - float(gb))
        d_prof = float(np.abs(np.frombuffer(pa) - np.frombuffer(pb)).max())
        if d_gain or d_prof:
            same = False
            print(f"{name}: realized gain {ga} vs {gb} (|diff| {d_gain:.1e}), profile max |diff| {d_prof:.1e}")
    print("identical to the bit" if same else "structure, kept Hs and children identical; numbers as above")
    return same


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("kind")
    d.add_argument("seed", type=int)
    d.add_argument("out")
    d.add_argument("--cols", type=int, default=None)
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        dump(args.kind, args.seed, args.out, args.cols)
    else:
        compare(args.a, args.b)


if __name__ == "__main__":
    main()

"""The takeover reading (``engine/hidden/activity.py`` ``takeover_match``, session 25) on every kept hidden
variable of a seen genome generator: is an H that replaced a listed TF that TF's activity, and is the
removed regulator's H ever read so?

``--hidden auto --max-hidden 3`` with the generator's regulator list (``genome_auto.fit_auto``), then per
kept H: its children, realized gain and |r| with the removed regulator R* (``r*``), how many of its
children are R*'s module genes, and for each listed TF linked to it (its parent or child) how many of H's
children were that TF's children in the network before H (``taken``), as a share of H's children and of
the TF's children then (``cover``), how many the TF keeps (``now``), H's |r| with the TF's measured level
(``r_x``) and, on ``h23m`` (whose generator returns the listed TFs' true activities), with its true
activity (``r_act``); then the report's ``activity`` reading (``form``, regulator, flagged).

Generators: any ``bench_regulators_genome_*.py`` module with ``generate(seed, null=...)`` returning
``star``, ``module`` and ``regulators`` (``h20``, ``h22``, ``h23`` ...). Seen generators only: it refuses
the hold-out not yet run (``HELD_OUT``).

Run:  OMP_NUM_THREADS=1 nice -n 10 python benchmarks/study_activity_takeover.py --gen h23 --seeds 2352,2355
      OMP_NUM_THREADS=1 nice -n 10 python benchmarks/study_activity_takeover.py --gen h23 --null --seeds 2350,2356
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from genome_auto import fit_auto  # noqa: E402

#: genome hold-outs not yet run (their generators must not be looked at before the lead's run)
HELD_OUT = ("h25",)


def _r(a: np.ndarray, b: np.ndarray) -> float:
    return abs(float(np.corrcoef(a, b)[0, 1]))


def read_kept(hs, g: dict) -> list[str]:
    """One line per kept H of the fitted ``HiddenSearch`` ``hs`` on table ``g``, then a line per linked TF."""
    star = np.asarray(g["star"], float).reshape(len(g["labels"]), -1)[:, 0]
    col = {n: j for j, n in enumerate(g["names"])}
    acts = {t: g["activities"][:, j] for j, t in enumerate(g.get("tfs", []))} if "activities" in g else {}
    reports = {r.name: r for r in hs.report()}
    now: dict[str, set[str]] = {}
    for p, c in hs.edges():
        now.setdefault(p, set()).add(c)
    lines = []
    for h in hs.hidden:
        prof, kids = hs.hidden_profile(h.name), set(h.children)
        was: dict[str, set[str]] = {}
        for p, c in h.edges_before:
            was.setdefault(p, set()).add(c)
        parents = {p for p, c in hs.edges() if c == h.name}
        act = reports[h.name].extra.get("activity") or {}
        lines.append(
            f"  {h.name} {len(kids)} kids {h.realized_gain:+.1f} r*={_r(prof, star):.2f} "
            f"module {len(kids & set(g['module']))} | activity {act.get('form', '-')} {act.get('regulator', '-')} "
            f"{'FLAGGED' if act.get('flagged') else 'not flagged'}"
        )
        rows = []
        for x in set(g["regulators"]) & (kids | parents):
            taken = len(kids & was.get(x, set()))
            n_was = len(was.get(x, set()))
            r_act = f" r_act {_r(prof, acts[x]):.2f}" if x in acts else ""
            rows.append(
                (
                    taken,
                    f"    {x:<8} {'child ' if x in kids else 'parent'} taken {taken:4d} share {taken / len(kids):.2f} "
                    f"cover {taken / max(1, n_was):.2f} now {len(now.get(x, set()) - {h.name}):4d} "
                    f"r_x {_r(prof, g['values'][:, col[x]]):.2f}{r_act}",
                )
            )
        lines += [text for _, text in sorted(rows, reverse=True)[:4]]
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True, help="h20, h22, h23, ...: bench_regulators_genome_<gen>.py")
    ap.add_argument("--seeds", required=True, help="comma-separated seeds")
    ap.add_argument("--null", action="store_true", help="the generator's null tables")
    args = ap.parse_args(argv)
    if args.gen in HELD_OUT:
        raise SystemExit(f"{args.gen}m is a hold-out not yet run: not studied before the lead's run")
    mod = importlib.import_module(f"bench_regulators_genome_{args.gen}")
    for seed in [int(s) for s in args.seeds.split(",")]:
        g = mod.generate(seed, null=args.null)
        star = np.asarray(g["star"], float).reshape(len(g["labels"]), -1)[:, :1]
        est, wall, cpu = fit_auto({**g, "removed": star}, "study", seed)
        print(f"{args.gen}m{'-null' if args.null else ''} seed {seed}: {cpu:.0f} s CPU", flush=True)
        print("\n".join(read_kept(est.hidden_search_, g)), flush=True)


if __name__ == "__main__":
    main()

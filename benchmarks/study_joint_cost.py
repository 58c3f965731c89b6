"""What the joint re-assignment move (engine/hidden/joint.py) costs and does inside ``auto`` (#22 item 1).

``bench_regulators.general`` seed by seed on one generator, with ``joint.joint_reassign`` wrapped
to count its calls, the calls where it returned another model (accepted), and the CPU seconds
spent in it. Per seed the benchmark's own line, then ``joint: calls, accepted, CPU s``: auto's
CPU less the move's is what the run would have cost without it (the move runs after the take-over
move of each trial's best start, and a climb follows only when it is accepted: counted in auto's
CPU, not in the move's).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_joint_cost.py --only hub [--null-only] [--first 0 --seeds 5]
      (``--off``: the same with ``joint.JOINT = False``, main's code)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_regulators  # noqa: E402

from engine.hidden import joint  # noqa: E402

STATS = {"calls": 0, "accepted": 0, "cpu": 0.0}


def counted(real):
    def wrapper(em, *args, **kw):
        c0 = time.process_time()
        out = real(em, *args, **kw)
        STATS["cpu"] += time.process_time() - c0
        STATS["calls"] += 1
        STATS["accepted"] += out is not em
        return out

    return wrapper


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", required=True)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--null-only", action="store_true")
    ap.add_argument("--off", action="store_true", help="the move off (joint.JOINT = False)")
    args = ap.parse_args()
    joint.JOINT = not args.off
    joint.joint_reassign = counted(joint.joint_reassign)
    print(f"{args.only} {'null' if args.null_only else 'planted'}, move {'off' if args.off else 'on'}", flush=True)
    for seed in range(args.first, args.first + args.seeds):
        before = dict(STATS)
        bench_regulators.general(args.only, 1, null=args.null_only, first=seed)
        calls, acc = STATS["calls"] - before["calls"], STATS["accepted"] - before["accepted"]
        print(f"  joint: seed {seed} calls {calls} accepted {acc} CPU {STATS['cpu'] - before['cpu']:.1f} s", flush=True)


if __name__ == "__main__":
    main()

"""Would another genome-scale trying order change what ``auto`` tries first? (#22; the rankings of
engine/hidden/trying_order.py ``RANKS``, measured and off.)

Runs another benchmark script (the arguments after ``--``) in this process with ``auto``'s step
replaced: on the first round (auto's start searched to convergence, its proposals made as ``auto``
makes them, the member-cover rule on, its sets printed as ``study_member_cover.py`` prints them) it
prints the first three candidates of the default order and of each ranking (source, size,
estimate, estimate + removed loss, common variance) and whether the first differs, then ends
``auto`` there (nothing is tried, so the benchmark's own figures are meaningless: read only the
``[order]`` lines). ``auto`` tries one candidate a step, the first of the order, so a round whose
first candidate is the same under a ranking is tried identically; a seed where it differs needs a
real run to say what the ranking does.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_genome_order.py --
          benchmarks/bench_regulators_genome.py --gen module --seeds 0-9 --no-propose
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from study_member_cover import traced  # noqa: E402

import engine.hidden.search as search_module  # noqa: E402
import engine.hidden.trying_order as order_module  # noqa: E402
from engine.hidden.member_cover import uncovered_keys  # noqa: E402

TALLY = {"rounds": 0} | {rank: 0 for rank in order_module.RANKS}


def _show(p) -> str:
    return (
        f"{p.source} {len(p.names)} (est {p.estimated_gain:+.1f}, free {p.estimated_gain + p.removed_loss:+.1f}, "
        f"cv {p.common_variance:.1f})"
    )


def first_round(search, skipped, best, say, score):  # noqa: ARG001 (auto_step's signature)
    """Print the first round's orders and end auto (returns 'no proposal left')."""
    orders, props = {}, search.propose(n_proposals=10 + len(skipped))  # _auto_candidates' call, made once
    search.propose = lambda **kw: list(props)  # noqa: ARG005
    for rank in (None, *order_module.RANKS):
        order_module.GENOME_RANK = rank
        search_module.uncovered_keys = traced(off=False) if rank is None else uncovered_keys  # print the rule once
        orders[rank] = search._auto_candidates(skipped)
    order_module.GENOME_RANK = None
    del search.propose
    TALLY["rounds"] += 1
    base = orders[None]
    print(f"[order] {search.n_observed} observed, {len(base)} candidates; default: "
          f"{' | '.join(_show(p) for p in base[:3])}", flush=True)  # fmt: skip
    for rank in order_module.RANKS:
        got = orders[rank]
        same = bool(got) and bool(base) and got[0] is base[0]
        TALLY[rank] += not same
        print(f"[order]   {rank}: {'same first' if same else 'FIRST DIFFERS'}: "
              f"{' | '.join(_show(p) for p in got[:3])}", flush=True)  # fmt: skip
    return None, best


def main() -> None:
    args = sys.argv[1:]
    script = args[args.index("--") + 1 :] if "--" in args else args
    search_module.auto_step = first_round
    print(f"[order] first round only: {' '.join(script)}", flush=True)
    sys.argv = script
    runpy.run_path(script[0], run_name="__main__")
    print(f"[order] rounds with another first candidate: {TALLY}", flush=True)


if __name__ == "__main__":
    main()

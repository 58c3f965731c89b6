"""What the member-cover rule changes on a benchmark (#22; engine/hidden/member_cover.py).

Runs another benchmark script (the arguments after ``--``) in this process with
``engine.hidden.search.uncovered_keys`` wrapped: every proposal round of ``auto`` prints, when a
proposal is explained by one of its own members, each such set's size, its member, how many of the
other members are that member's children, and whether ``auto`` may now try it above 150 variables
(``uncovered``). With ``--off`` the rule is switched off (no set is uncovered: ``auto``'s order as
before the rule), so the same command with and without ``--off`` compares the two. A round with no
set explained by its own member prints nothing: there the rule cannot change the order; a round
with one prints the candidate ``auto`` tries first.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_member_cover.py [--off] --
          benchmarks/bench_regulators_genome.py --gen module --seeds 0-9
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine.hidden.search as search_module  # noqa: E402
from engine.hidden.member_cover import member_cover, uncovered_keys  # noqa: E402

TOTALS = {"rounds": 0, "explained_by_member": 0, "uncovered": 0}


def traced(off: bool):
    """``uncovered_keys`` that prints each round's sets explained by a member (and returns none if ``off``)."""

    def wrapper(props, edges, names, **kw):
        props = list(props)
        free = uncovered_keys(props, edges, names, **kw)
        covers = [(p, member_cover(p, edges, names, **kw)) for p in props]
        covers = [(p, c) for p, c in covers if c is not None]
        TOTALS["rounds"] += 1
        if covers:
            TOTALS["explained_by_member"] += len(covers)
            TOTALS["uncovered"] += len(free)
            sets = "; ".join(
                f"{len(p.names)} genes ({p.source}, est {p.estimated_gain:+.1f}) by {c.member}: "
                f"{c.n_children}/{c.n_others} children{'' if c.covers else ', uncovered'}"
                for p, c in covers
            )
            print(f"[member-cover] {len(names)} variables, {len(props)} proposals: {sets}", flush=True)
        return set() if off else free

    return wrapper


def traced_order(order_fn):
    """``trying_order`` that prints the first candidate when a set explained by its own member is in the
    round, and marks it when it is such a set."""

    def wrapper(props, **kw):
        order = order_fn(props, **kw)
        if order and any(p.explained_by in p.names for p in props):
            p = order[0]
            mark = f", explained by its member {p.explained_by}" if p.explained_by in p.names else ""
            print(f"[member-cover]   first tried: {p.source} {len(p.names)} genes, est {p.estimated_gain:+.1f}{mark}; "
                  f"{len(order)} candidates", flush=True)  # fmt: skip
        return order

    return wrapper


def main() -> None:
    args = sys.argv[1:]
    off = "--off" in args[: args.index("--")] if "--" in args else False
    script = args[args.index("--") + 1 :] if "--" in args else args
    search_module.uncovered_keys = traced(off)
    search_module.trying_order = traced_order(search_module.trying_order)
    print(f"[member-cover] rule {'off' if off else 'on'}: {' '.join(script)}", flush=True)
    sys.argv = script
    runpy.run_path(script[0], run_name="__main__")
    print(f"[member-cover] totals: {TOTALS}", flush=True)


if __name__ == "__main__":
    main()

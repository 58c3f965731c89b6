"""What a Search-page run costs per chunk on a full-size table, and what Stop waits for.

The explorer's "Run to convergence" is cut into chunks (``SearchSession.run_chunk``); after each the
Search panel is drawn again, and a Stop click acts between two chunks (explorer/pages/search.py).
On a full table (default: the prepared *B. subtilis* table, 266 conditions x 4,217 genes, with its
regulator list) this measures, in CPU seconds (``time.process_time``/``thread_time``; the machine is
shared, wall times are not comparable):

* ``step``: one engine step as the session takes it (mean, p99, max over ``--steps`` steps);
* ``page``: the Search page run by Streamlit's ``AppTest`` over ``--moves`` moves in chunks of a fixed
  20 moves (so the count of chunks does not depend on the machine's load), the CPU of the whole run,
  of the chunks' search and of the network controls;
* ``stop``: the chunk after a Stop (it takes no move: the run's summary and message), and the
  pieces of the whole page drawn after it (the full move log and score trace).

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_app_run_chunks.py [--table CSV --regulators TXT]
      [--no-regulators] [--steps 3000] [--moves 600]
"""

from __future__ import annotations

import argparse
import collections
import functools
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "app"))

import numpy as np  # noqa: E402
import streamlit as st  # noqa: E402

logging.getLogger("streamlit").setLevel(logging.ERROR)

from engine.io import load_table  # noqa: E402
from explorer import network_panel, plots, state  # noqa: E402
from explorer.session import SearchSession  # noqa: E402

BSUB = Path("/work/realdata/prep/bsub")
MOVES_PER_CHUNK = 20


def _session(table: Path, regulators: Path | None) -> SearchSession:
    regs = None
    if regulators is not None:
        regs = [ln.strip() for ln in regulators.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return SearchSession(load_table(table), None, table.name, None, regulators=regs)


def steps(session: SearchSession, n: int) -> None:
    times = []
    for _ in range(n):
        t = time.process_time()
        if session.step().move is None:
            break
        times.append(time.process_time() - t)
    a = np.asarray(times)
    print(
        f"step: {a.size} steps, mean {a.mean() * 1e3:.1f} ms, "
        f"p99 {np.percentile(a, 99) * 1e3:.1f} ms, max {a.max():.2f} s"
    )


def page(session: SearchSession, moves: int) -> None:
    from conftest import PAGES, AppTest

    cost = collections.Counter()
    chunk = SearchSession.run_chunk

    def fixed(self, max_seconds):
        t = time.thread_time()
        try:
            return all(chunk(self, 0.0) for _ in range(MOVES_PER_CHUNK))
        finally:
            cost["search"] += time.thread_time() - t
            cost["chunks"] += 1

    def timed(fn):
        @functools.wraps(fn)
        def wrapped(*a, **k):
            t = time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                cost["network controls"] += time.thread_time() - t

        return wrapped

    SearchSession.run_chunk = fixed
    network_panel.network_controls = timed(network_panel.network_controls)
    at = AppTest.from_file(str(PAGES / "search.py"), default_timeout=900)
    at.session_state[state.SESSION] = session
    at.run()
    cost.clear()
    session.start_run(moves)
    t = time.process_time()
    at.run()
    total = time.process_time() - t
    n = cost["chunks"]
    print(
        f"page: {session.stepper.n_iter} moves in {n} chunks, {total:.2f} s CPU in all; search {cost['search']:.2f} s, "
        f"network controls {cost['network controls']:.2f} s; the page besides the search "
        f"{(total - cost['search']) / n:.3f} s a chunk"
    )
    SearchSession.run_chunk = chunk


def stop(session: SearchSession) -> None:
    session.start_run(None)
    session.run_chunk(0.0)
    session.stop()
    t = time.process_time()
    session.run_chunk(0.4)
    print(f"stop: the chunk after Stop {time.process_time() - t:.2f} s CPU ({session.notice})")
    for label, fn in (
        ("move log frame (all moves)", lambda: plots.move_log_frame(session.main.log)),
        ("score trace figure (all)", lambda: plots.score_trace_figure({"ideal": session.main.trace})),
    ):
        t = time.process_time()
        fn()
        print(f"stop: {label} {time.process_time() - t:.2f} s CPU")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--table", type=Path, default=BSUB / "table.csv")
    ap.add_argument("--regulators", type=Path, default=BSUB / "table_regulators.txt")
    ap.add_argument("--no-regulators", action="store_true")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--moves", type=int, default=600)
    args = ap.parse_args()
    regs = None if args.no_regulators else args.regulators
    st.session_state  # noqa: B018  (Streamlit's loggers set up first)
    session = _session(args.table, regs)
    print(f"{args.table}: {session.dataset.n_samples} x {session.dataset.n_vars}, regulators: {regs}")
    steps(session, args.steps)
    page(_session(args.table, regs), args.moves)
    stop(session)


if __name__ == "__main__":
    main()

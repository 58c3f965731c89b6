"""The Hidden page's Propose on a real table, as the app runs it (#22 item 4: "the Hidden page lists
proposals at 2500 genes in < 5 s").

Reads a table the user has (conditions in rows with a first column naming them, as
``bench_regulators_real.write_inputs`` writes it, or genes in rows with ``--transpose``) and a
regulator list (one name a line), builds the app's :class:`explorer.session.SearchSession`, runs the
search to convergence as "Run to convergence" does, then times ``SearchSession.propose_hidden(5)``,
the call behind the page's "Propose hidden variables" button (the page adds its drawing, a few
tenths of a second in the browser). Prints CPU and wall seconds of both steps, the load, and the
proposals (source, size, estimate, step conditions, flagged instances).

Run (nice; the files are written by bench_regulators_real.py, see RESULTS.md):
  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_hidden_page_real.py --table T.csv --regulators R.txt
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.io import load_table  # noqa: E402
from explorer.session import SearchSession  # noqa: E402


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--regulators", required=True)
    ap.add_argument("--transpose", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="Propose this many times (a fresh session's memo each)")
    args = ap.parse_args(argv)
    data = load_table(args.table, transpose=args.transpose, standardize=True, drop_non_numeric=True)
    regs = [line.strip() for line in Path(args.regulators).read_text().splitlines() if line.strip()]
    session = SearchSession(data, None, Path(args.table).name, regulators=regs)
    print(f"# {data.n_vars} variables x {data.n_samples} instances, {len(regs)} listed; load {os.getloadavg()[0]:.1f}")

    def converge():
        session.start_run(None)
        while session.run_chunk(5.0):
            pass

    _, wall, cpu = _timed(converge)
    print(f"search to convergence: {session.stepper.n_iter} moves, {wall:.1f} s wall, {cpu:.1f} s CPU")
    for i in range(args.repeat):
        props, wall, cpu = _timed(lambda: session.propose_hidden(5))
        print(f"Propose #{i + 1}: {wall:.2f} s wall, {cpu:.2f} s CPU, load {os.getloadavg()[0]:.1f}")
    for k, p in enumerate(props, 1):
        extra = f" step {p.step_conditions}" if p.step_conditions else ""
        extra += f" flagged {p.high_leverage}" if p.flagged else ""
        head = f"  {k}. {p.source}, {len(p.names)} members, est {p.estimated_gain:+.1f}{extra}"
        print(f"{head}: {', '.join(p.names[:6])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

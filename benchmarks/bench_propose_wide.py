"""The Hidden page's Propose on a wide tumour table, as the app runs it (#22: "the Hidden page lists
proposals at 2500 genes in < 5 s", here at 2,504 genes x 172 tumours with a TF list).

``prep`` reads a genes-in-rows table (a first column of gene names, one column a sample), turns it
round (instances = samples), fills missing cells with column means (the app would complete them by
structural EM; means keep this benchmark about the proposal step), writes ``table.csv`` to
``--workdir``, builds the app's :class:`explorer.session.SearchSession` with the regulator list
(score ``auto``: EBIC on wide data), runs it to convergence as "Run to convergence" does and stores
its edges. ``page`` rebuilds that session with the stored network (``Stepper(initial=edges)``
installed as the main track) and times ``SearchSession.propose_hidden(5)``, the call behind the
page's "Propose hidden variables", in CPU seconds, with a per-stage breakdown (CPU seconds inside
the engine's proposal functions, nested calls counted in each); ``page --app`` times the click
itself on the Hidden page (AppTest, drawing included). ``--out`` writes the proposals (members,
source, estimates, common variance) as JSON, to compare two versions of the code.

Run (nice, one process):
  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_propose_wide.py prep --table T.tsv
      --regulators TF.txt --workdir DIR
  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/bench_propose_wide.py page --regulators TF.txt
      --workdir DIR [--out F] [--repeat 1]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.io import load_table  # noqa: E402
from engine.search import Stepper  # noqa: E402
from explorer.session import SearchSession  # noqa: E402
from explorer.track import SearchTrack  # noqa: E402

#: (module, function) pairs timed in the breakdown; nested calls are counted in each
STAGES = [
    ("engine.hidden.modules", "propose_for_review"),
    ("engine.hidden.modules", "module_proposals"),
    ("engine.hidden.candidates", "propose_from_search"),
    ("engine.hidden.candidates", "score_candidate"),
    ("engine.hidden.proposals", "propose_clusters"),
    ("engine.hidden.seed_batch", "score_seeds"),
    ("engine.hidden.prune", "grow_best"),
    ("engine.hidden.grow_batch", "grow_many"),
    ("engine.hidden.candidates", "grow"),
    ("engine.hidden.candidates", "prune"),
    ("engine.hidden.prune", "neighbour_screen"),
    ("engine.hidden.candidates", "candidate_proposal"),
]


def _instrument() -> dict[str, list[float]]:
    """Wrap :data:`STAGES` (where defined, and where imported by name) with CPU-second timers."""
    spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for mod_name, fn_name in STAGES:
        mod = importlib.import_module(mod_name)
        fn = getattr(mod, fn_name, None)
        if fn is None:
            continue

        key = f"{mod_name.rsplit('.', 1)[1]}.{fn_name}"

        def wrap(*a, __fn=fn, __key=key, **k):
            c = time.process_time()
            try:
                return __fn(*a, **k)
            finally:
                spent[__key][0] += time.process_time() - c
                spent[__key][1] += 1

        functools.update_wrapper(wrap, fn)
        for other in list(sys.modules.values()):
            if (
                getattr(other, "__name__", "").startswith(("engine.", "explorer."))
                and getattr(other, fn_name, None) is fn
            ):
                setattr(other, fn_name, wrap)
    return spent


def prep(args, work: Path, regs: list[str]) -> None:
    raw = pd.read_csv(args.table, sep="\t", index_col=0)
    table = raw.T  # instances = samples
    n_missing = int(table.isna().sum().sum())
    table = table.fillna(table.mean())
    table.index.name = "sample"
    table.to_csv(work / "table.csv")
    data = load_table(work / "table.csv", standardize=True, drop_non_numeric=True)
    c0 = time.process_time()
    session = SearchSession(data, None, "table.csv", regulators=regs)
    session.start_run(None)
    while session.run_chunk(5.0):
        pass
    edges = [[int(p), int(c)] for p, c in session.stepper.edges()]
    (work / "edges.json").write_text(json.dumps(edges))
    print(f"{data.n_vars} variables x {data.n_samples} instances, {n_missing} cells filled by column means")
    print(f"score {session.score_label}; learn: {time.process_time() - c0:.1f} s CPU, {len(edges)} edges")


def page(args, work: Path, regs: list[str]) -> None:
    data = load_table(work / "table.csv", standardize=True, drop_non_numeric=True)
    session = SearchSession(data, None, "table.csv", regulators=regs)
    first = session.stepper
    edges = [tuple(e) for e in json.loads((work / "edges.json").read_text())]
    stepper = Stepper(first.model, first.settings, initial=edges, regulators=first.cols)
    session.install(SearchTrack(stepper))
    if args.app:
        return _app_click(session)
    spent = _instrument()
    for i in range(args.repeat):
        spent.clear()
        c0 = time.process_time()
        props = session.propose_hidden(5)
        cpu = time.process_time() - c0
        print(f"Propose #{i + 1}: {cpu:.2f} s CPU, load {os.getloadavg()[0]:.1f}; {len(edges)} edges")
        for key, (sec, n) in sorted(spent.items(), key=lambda kv: -kv[1][0]):
            print(f"    {key:34s} {sec:7.2f} s CPU in {n} calls")
    out = []
    for k, p in enumerate(props, 1):
        print(
            f"  {k}. {p.source}, {len(p.names)} members, est {p.estimated_gain:+.4f}, cv {p.common_variance:.4f}"
            f"{' flagged' if p.flagged else ''}: {', '.join(p.names[:6])}"
        )
        out.append({"source": p.source, "names": list(p.names), "gain": p.estimated_gain, "cv": p.common_variance})
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1))


def _app_click(session) -> None:
    """The Hidden page itself (``streamlit.testing.v1.AppTest``, the script runs in this process):
    CPU seconds from the click on "Propose hidden variables" to the page drawn with the proposals."""
    from streamlit.testing.v1 import AppTest

    from explorer import state
    from explorer.pages.hidden import KEY_PROPOSE

    at = AppTest.from_file(str(ROOT / "explorer" / "pages" / "hidden.py"), default_timeout=600)
    at.session_state[state.SESSION] = session
    c0 = time.process_time()
    at.run()
    print(f"page opened: {time.process_time() - c0:.2f} s CPU")
    inner, propose = [0.0], session.propose_hidden

    def timed(n: int):  # CPU of the proposal step itself (the page's script thread)
        c = time.thread_time()
        try:
            return propose(n)
        finally:
            inner[0] += time.thread_time() - c

    session.propose_hidden = timed
    c0 = time.process_time()
    at.button(key=KEY_PROPOSE).click().run()
    cpu = time.process_time() - c0
    assert not at.exception, at.exception
    rows = len(at.dataframe[0].value) if at.dataframe else 0
    print(
        f"Propose click to the listed proposals: {cpu:.2f} s CPU ({inner[0]:.2f} s in propose_hidden), "
        f"load {os.getloadavg()[0]:.1f}; {rows} rows listed"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=["prep", "page"])
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--table")
    ap.add_argument("--regulators", required=True)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out")
    ap.add_argument("--app", action="store_true", help="page: the Hidden page's click in AppTest instead")
    args = ap.parse_args(argv)
    work = Path(args.workdir)
    work.mkdir(parents=True, exist_ok=True)
    regs = [line.strip() for line in Path(args.regulators).read_text().splitlines() if line.strip()]
    (prep if args.step == "prep" else page)(args, work, regs)


if __name__ == "__main__":
    main()

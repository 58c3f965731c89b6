"""What the explorer costs at genome scale: loading a wide file, one Step click, a page switch.

Target (issue #11): explorer at 1000 variables: load < 5 s, one Step click < 1 s, page switch < 2 s.

For a linear-Gaussian network (``random_network(N, seed=0)``, M instances sampled with
``seed=1``, written to a CSV file) and the app's default settings (ideal, K=2, C2):

* ``load``: reading the CSV as the upload does (``engine.io.load_table`` with the app's options)
  and building the session (``SearchSession``: the first stepper);
* per click, ``step``: ``SearchSession.step()`` (the engine's move, the move log, the score trace
  and the undo stack); ``figures``: what the Search page builds from the new state: the fitted
  edge weights, the sub-network shown (above 150 variables, :mod:`explorer.subnetwork`, the
  last moves' view) and its layout, the pyvis HTML, the score trace and the move-log table;
  ``click``: both together;
* ``page switch``: the app (``app.py``: sidebar and page) run by Streamlit's ``AppTest`` after
  switching to each page, with the session seeded after the clicks (first visit, then a second
  visit with the page's caches warm). AppTest adds its own overhead (about 0.1-0.3 s per run);
  browser-side drawing is not included.

With ``--lab`` the file is a lab-like expression table instead (``tests/app/lab_file.py``:
gene ids, a sample-id column and an annotation column, 2% missing cells written NA/NaN/null/-/empty,
a repeated id, a constant and a mostly-missing gene; ``--transposed``: genes as rows, loaded with
transpose), read with the upload's options; the session then fills the missing cells by
structural EM (``explorer.prepared``) before its first stepper, and ``load`` includes that.

Run:  python benchmarks/bench_app_step.py [--n-vars 1000] [--n-samples 200] [--clicks 20] [--no-pages]
      python benchmarks/bench_app_step.py --lab [--transposed] --n-vars 600 --n-samples 40
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import streamlit  # noqa: E402, F401  (sets up Streamlit's loggers first)

from engine.io import MAX_MISSING, load_table  # noqa: E402
from engine.synth import random_network, sample_dataset  # noqa: E402

# explorer.state defines st.cache_data functions; outside a Streamlit server they warn once each
logging.getLogger("streamlit.runtime.caching.cache_data_api").setLevel(logging.ERROR)
logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(logging.ERROR)

from explorer import graph_layout, network_view, plots, state  # noqa: E402
from explorer.session import SearchSession  # noqa: E402
from explorer.subnetwork import SUBNETWORK_THRESHOLD, select_subnetwork  # noqa: E402

PAGES = ["home.py", "search.py", "inspector.py", "bounds.py", "hidden.py", "truth.py", "teaching.py"]


def _drawing(session: SearchSession, layouts: dict) -> str:
    """The Search page's network HTML for the session's current state (as the page builds it)."""
    stepper = session.stepper
    names = session.variable_names()
    shown = None
    if len(names) > SUBNETWORK_THRESHOLD:
        shown = tuple(sorted(select_subnetwork(names, stepper.edges(), history=stepper.history).nodes))
        cols = [i for i in shown if i < session.dataset.n_vars]
        key = tuple(cols)
        if key not in layouts:  # the page caches a layout per set of variables shown
            pos = graph_layout.data_layout(np.asarray(session.dataset.values)[:, cols])
            layouts[key] = {names[i]: (float(x), float(y)) for i, (x, y) in zip(cols, pos, strict=True)}
        positions = layouts[key]
    else:
        if None not in layouts:
            pos = graph_layout.data_layout(np.asarray(session.dataset.values))
            layouts[None] = {n: (float(x), float(y)) for n, (x, y) in zip(names, pos, strict=True)}
        positions = layouts[None]
    return network_view.search_network_html(
        names,
        session.weighted_edges(),
        positions,
        last_move=stepper.history[-1] if stepper.history else None,
        shown=shown,
    )


def _pages(session: SearchSession) -> list[tuple[str, float, float]]:
    """(page, first visit s, second visit s): the whole app (``app.py``: sidebar and page) run
    after switching to each page, the session seeded."""
    from streamlit.testing.v1 import AppTest

    from explorer import loading

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.session_state[state.SESSION] = session
    # the sidebar's source settings that "loaded" this session: it keeps it instead of loading a sample
    at.session_state[state.DATA_KEY] = ("sample", loading.DEFAULT_SAMPLE, True)
    at.run()
    out = []
    for page in PAGES:
        times = []
        for _ in range(2):
            at.switch_page(f"explorer/pages/{page}")
            t0 = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - t0)
            if at.exception:
                raise RuntimeError(f"{page}: {at.exception[0].value}")
            if page != "home.py":
                at.switch_page("explorer/pages/home.py").run()  # leave, to time the visit again
        assert at.session_state[state.SESSION] is session, "the sidebar replaced the session"
        out.append((page, *times))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--n-vars", type=int, default=1000)
    parser.add_argument("--n-samples", type=int, default=200)
    parser.add_argument("--no-pages", action="store_true", help="skip the page-switch timings")
    parser.add_argument("--lab", action="store_true", help="a lab-like file with missing cells (see above)")
    parser.add_argument("--transposed", action="store_true", help="with --lab: genes as rows")
    args = parser.parse_args()

    truth = None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "wide.csv"
        if args.lab:
            sys.path.insert(0, str(ROOT / "tests" / "app"))
            from lab_file import write_lab_file

            write_lab_file(path, args.n_vars, args.n_samples, transposed=args.transposed)
        else:
            net = random_network(args.n_vars, seed=0)
            truth = net.edges()
            sample_dataset(net, args.n_samples, seed=1, standardize=False).to_frame().to_csv(path, index=False)
        size_mb = path.stat().st_size / 1e6
        t0 = time.perf_counter()
        # the upload's options (explorer.loading.parse_upload)
        opts = {"rename_repeats": True, "max_missing": MAX_MISSING, "transpose": args.lab and args.transposed}
        dataset = load_table(path, drop_non_numeric=True, drop_constant=True, **opts)
        t_read = time.perf_counter() - t0
    t0 = time.perf_counter()
    em_done: list[float] = []
    session = SearchSession(
        dataset,
        truth,
        "benchmark",
        {"method": "ideal", "k": 2, "measure": "c2"},
        progress=lambda i, n, what: em_done.append(time.perf_counter() - t0),
    )
    stepper = session.stepper
    t_build = time.perf_counter() - t0

    layouts: dict = {}
    step_ms, fig_ms, html_kb = [], [], []
    for _ in range(args.clicks):
        t0 = time.perf_counter()
        session.step()
        t1 = time.perf_counter()
        html = _drawing(session, layouts)
        plots.score_trace_figure({"ideal": session.main.trace})
        plots.move_log_frame(session.main.log)
        t2 = time.perf_counter()
        step_ms.append(1e3 * (t1 - t0))
        fig_ms.append(1e3 * (t2 - t1))
        html_kb.append(len(html) / 1024)

    click_ms = [a + b for a, b in zip(step_ms, fig_ms, strict=True)]
    print(
        f"network: N={args.n_vars}, M={args.n_samples}, ideal K=2 C2; {args.clicks} clicks, "
        f"{stepper.n_iter} moves taken"
    )
    if args.lab:
        print(f"lab file: {dataset.summary()}; {len(dataset.notes)} notes")
    if em_done:
        c = session.prepared.completion
        print(
            f"missing cells: {c.n_missing} filled by structural EM ({c.n_iter} iterations, {c.n_edges} edges) "
            f"in {em_done[-1]:.2f} s; per iteration: {', '.join(f'{t:.2f}' for t in em_done[1:])} s (cumulative)"
        )
    print(
        f"load: CSV ({size_mb:.1f} MB) read in {t_read:.2f} s, session (missing cells filled, first stepper) built "
        f"in {t_build:.2f} s, total {t_read + t_build:.2f} s   (target < 5 s)"
    )
    for label, xs in (("step", step_ms), ("figures", fig_ms), ("click", click_ms)):
        print(f"{label:>8}: mean {statistics.fmean(xs):7.2f} ms   max {max(xs):7.2f} ms")
    print(f"    (first click {click_ms[0] / 1e3:.2f} s, includes the first ranking of every family; target < 1 s)")
    print(f"network HTML: {statistics.fmean(html_kb):.0f} kB per click, {len(layouts)} layout(s) computed")
    if not args.no_pages:
        print("page switch (AppTest: the app run after switching to the page, seconds; target < 2 s):")
        for page, first, second in _pages(session):
            print(f"  {page:>14}: first visit {first:6.2f}   again {second:6.2f}")


if __name__ == "__main__":
    main()

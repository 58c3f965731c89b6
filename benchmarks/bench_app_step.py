"""What one click on the Search page's Step button costs, outside Streamlit.

For a 100-variable linear-Gaussian network (``random_network(100, seed=0)``, 500 instances
sampled with ``seed=1``) and the app's default settings (ideal, K=2, C2), each of 20 clicks times:

* ``step``: ``SearchSession.step()`` (the engine's move, the move log, the score trace and the
  undo stack);
* ``figures``: what the page builds from the new state: the fitted edge weights
  (``SearchSession.weighted_edges``), the pyvis network HTML with the last move highlighted
  (``network_view.search_network_html``), the score trace figure and the move-log table;
* ``click``: both together.

The node layout is computed once per data set (timed separately): the page caches it.
Browser-side costs (sending ~0.7 MB of HTML, vis-network drawing) are not included.

Run:  python benchmarks/bench_app_step.py [--clicks 20] [--n-vars 100]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import streamlit  # noqa: E402, F401  (sets up Streamlit's loggers first)

from engine.synth import random_network, sample_dataset  # noqa: E402

# explorer.state defines st.cache_data functions; outside a Streamlit server they warn once each
logging.getLogger("streamlit.runtime.caching.cache_data_api").setLevel(logging.ERROR)

from explorer import graph_layout, network_view, plots  # noqa: E402
from explorer.session import SearchSession  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--n-vars", type=int, default=100)
    parser.add_argument("--n-samples", type=int, default=500)
    args = parser.parse_args()

    net = random_network(args.n_vars, seed=0)
    dataset = sample_dataset(net, args.n_samples, seed=1)
    names = list(dataset.names)

    t0 = time.perf_counter()
    session = SearchSession(dataset, net.edges(), "benchmark", {"method": "ideal", "k": 2, "measure": "c2"})
    stepper = session.stepper
    t_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    pos = graph_layout.data_layout(dataset.values)
    t_layout = time.perf_counter() - t0
    positions = {n: (float(x), float(y)) for n, (x, y) in zip(names, pos, strict=True)}

    step_ms, fig_ms, html_kb = [], [], []
    for _ in range(args.clicks):
        t0 = time.perf_counter()
        session.step()
        t1 = time.perf_counter()
        html = network_view.search_network_html(
            names,
            session.weighted_edges(),
            positions,
            last_move=stepper.history[-1] if stepper.history else None,
        )
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
    print(f"once per data set: stepper built in {1e3 * t_build:.1f} ms, layout in {1e3 * t_layout:.1f} ms")
    for label, xs in (("step", step_ms), ("figures", fig_ms), ("click", click_ms)):
        print(f"{label:>8}: mean {statistics.fmean(xs):7.2f} ms   max {max(xs):7.2f} ms")
    print(f"network HTML: {statistics.fmean(html_kb):.0f} kB per click")


if __name__ == "__main__":
    main()

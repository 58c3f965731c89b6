"""The Confidence page at any size (issue #23, deliverable 5): above 400 variables it crashed after
the replicates finished (``2555 nodes are too many to lay out``) and again on every slider move.

The page is given a finished result of 600 variables (replicates' outcomes built here, so no
cluster runs); the controller's idle close and its time estimate are tested on a small run."""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest

pytest.importorskip("distributed")

from conftest import page_test, texts  # noqa: E402

# the page's tables, in order: edges, hidden regulators, enrichment (AppTest does not expose their keys)
from dask.distributed import LocalCluster  # noqa: E402

from engine.bootstrap import BootstrapResult, ReplicateOutcome  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.io.gene_sets import match_gene_sets, parse_gene_sets  # noqa: E402
from engine.search import SearchSettings  # noqa: E402
from explorer import gene_sets_box, state  # noqa: E402
from explorer.confidence import ConfidenceController, RunKey  # noqa: E402
from explorer.pages import confidence as page  # noqa: E402

N = 600
B = 4


def threads_cluster():
    return LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0")


@pytest.fixture(scope="module")
def wide():
    """600 variables x 30 instances and a bootstrap result over them: a chain of strong edges,
    random weak ones, and one hidden regulator of G0..G9 found in every replicate."""
    rng = np.random.default_rng(0)
    names = [f"G{i}" for i in range(N)]
    ds = from_array(rng.normal(size=(30, N)), names)
    strong = [(i, i + 1) for i in range(0, 200, 2)]
    outcomes = []
    for r in range(B):
        weak = {(int(a), int(b)) for a, b in rng.integers(0, N, size=(300, 2)) if a < b}
        outcomes.append(ReplicateOutcome(r, edges=sorted(set(strong) | weak), hidden=[names[:10]]))
    return ds, BootstrapResult.build(names, outcomes, B, hidden=True)


def seeded(ds, result, **extra):
    ctl = ConfidenceController(threads_cluster)
    at = page_test("confidence.py", ds, None, **{page.CONTROLLER: ctl}, **extra)
    session = at.session_state[state.SESSION]
    ctl.result, ctl.key = result, RunKey(session.data_version, session.settings, 50, 0, True)
    return at, ctl


def test_large_result_is_drawn_as_a_sub_network_and_the_slider_works(wide):
    ds, result = wide
    at, ctl = seeded(ds, result)
    at.run()
    assert not at.exception, at.exception
    caps = texts(at.caption)
    assert any(t.startswith("Showing 60 of 600 variables — the most connected variables") for t in caps), caps
    assert not ctl.started  # showing a result starts no cluster
    at.slider(key=page.KEY_THRESHOLD).set_value(0.9).run()
    assert not at.exception
    assert any(
        f"{sum(e.strength >= 0.9 for e in result.edges)} edges with strength >= 0.90" in t for t in texts(at.caption)
    )
    # around a searched gene
    at.multiselect(key=f"{page.NETWORK_KEYS}_genes").set_value(["G10"]).run()
    assert not at.exception
    assert any("the 1-hop neighbourhood of G10" in t for t in texts(at.caption))


def test_tables_search_and_downloads(wide):
    ds, result = wide
    at, _ = seeded(ds, result)
    at.run()
    edges = at.dataframe[0].value
    assert len(edges) == len(result.edges)
    at.text_input(key=page.KEY_EDGE_SEARCH).input("G11").run()
    shown = at.dataframe[0].value
    assert len(shown) and all("g11" in f"{p} {c}".lower() for p, c in zip(shown.parent, shown.child, strict=True))
    at.checkbox(key=page.KEY_EDGE_ABOVE).check().run()
    assert (at.dataframe[0].value["strength"] >= at.slider(key=page.KEY_THRESHOLD).value).all()
    regs = at.dataframe[1].value
    assert list(regs["regulator"]) == ["R1"] and regs["support"].iloc[0] == 1.0
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels[:2] == ["Edges (CSV)", "Result (JSON, as the CLI writes it)"]
    assert "Regulators (CSV: support, member frequencies)" in labels


def test_enrichment_of_regulators_with_uploaded_gene_sets(wide):
    ds, result = wide
    gmt = "TARGETS_OF_X\tna\t" + "\t".join(f"G{i}" for i in range(12)) + "\tNOT_MEASURED\nOTHER\tna\tG300\tG301\n"
    sets = parse_gene_sets(gmt, source="sets.gmt", name="sets.gmt")
    at, ctl = seeded(ds, result, **{gene_sets_box.KEY_SETS: sets})
    at.run()
    assert not at.exception, at.exception
    regs = at.dataframe[1].value
    assert regs["top known set"].iloc[0].startswith("TARGETS_OF_X (10 of 12, q ")
    table = at.dataframe[2].value
    top = table[table.regulator == "R1"].iloc[0]
    assert top["set"] == "TARGETS_OF_X" and top["overlap"] == 10 and top["n_children"] == 10
    assert top["p"] == pytest.approx(math.comb(12, 10) / math.comb(N, 10))  # every child in the set
    payload = page._export(ctl.result, 0.5, ctl.result.averaged_at(0.5), match_gene_sets(sets, ds.names))
    assert payload["hidden"][0]["enrichment"][0]["set"] == "TARGETS_OF_X"
    assert payload["settings"]["gene_sets"] == "sets.gmt"
    json.dumps(payload)  # JSON-ready
    assert "gene_sets" not in ctl.result.settings  # the export is a copy


def test_timing_and_idle_close(small_data):
    ds, _ = small_data
    ctl = ConfidenceController(threads_cluster, idle_seconds=0.3)
    try:
        assert ctl.timing() == (0.0, None)
        ctl.start(ds, RunKey(1, SearchSettings(), 4, 0, False))
        while ctl.poll():
            elapsed, left = ctl.timing()
            assert elapsed >= 0 and (left is None or left >= 0)
            time.sleep(0.05)
        assert ctl.started  # closed only once idle
        time.sleep(1.0)
        assert not ctl.started
        ctl.start(ds, RunKey(1, SearchSettings(), 2, 0, False))  # a new run starts a new cluster
        while ctl.poll():
            time.sleep(0.05)
        assert ctl.result.replicates == 2
    finally:
        ctl.close()


def test_regulator_list_reaches_the_replicates(small_data):
    """The sidebar's candidate regulators are part of the run (the page ran without them)."""
    ds, _ = small_data
    ctl = ConfidenceController(threads_cluster)
    try:
        key = RunKey(1, SearchSettings(), 2, 0, False, regulators=("X3",))
        ctl.start(ds, key)
        while ctl.poll():
            time.sleep(0.05)
        assert ctl.result.settings["regulators"] == ["X3"]
        assert ctl.result.edges and all("X3" in (e.parent, e.child) for e in ctl.result.edges)
        assert ctl.result_for(RunKey(1, SearchSettings(), 2, 0, False)) is None  # another list, another result
    finally:
        ctl.close()


def test_averaged_network_is_not_recomputed_above_the_limit(wide, monkeypatch):
    _, result = wide
    assert page._averaged_threshold(result, 0.2) == 0.2
    monkeypatch.setattr(page, "AVERAGED_LIMIT", 50)
    assert page._averaged_threshold(result, 0.2) == result.threshold

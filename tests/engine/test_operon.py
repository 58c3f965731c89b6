"""Tests of engine/hidden/operon.py: a hidden variable whose children are mostly one run of adjacent
locus tags (one operon, co-transcribed) is named on bacterial tables, and never on generic numbered
names; the reading reaches the report's JSON, its CSV column and learn's stderr."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from engine.cli.reports import report_hidden
from engine.hidden.operon import MIN_TAGS, locus_index, one_operon, operon_reading, operon_run, operon_text
from engine.hidden.report import regulator_report
from engine.hidden.report_table import report_table


def _bnumbers(n: int = 200, start: int = 2350) -> list[str]:
    return [f"b{k:04d}" for k in range(start, start + n)]


def _children(names: list[str], wanted: list[str]) -> list[int]:
    return [names.index(w) for w in wanted]


def test_a_run_of_b_numbers_is_flagged_scattered_is_not():
    names = _bnumbers()
    index = locus_index(names)
    assert index is not None and index.prefix == "b" and index.step == 1 and index.share == 1.0
    kids = _children(names, ["b2415", "b2416", "b2417", "b2418", "b2420", "b2377", "b2500"])  # one gap of 2 steps
    run = operon_run(kids, index, names)
    assert (run.first, run.last, run.n_run, run.n_children, run.span, run.flagged) == (
        "b2415", "b2420", 5, 7, 6, True,
    )  # fmt: skip
    text = operon_text(run.to_dict(), "H2")
    assert (
        text
        == "H2: 5 of its 7 children are adjacent genes b2415-b2420: likely one operon (co-transcribed), not a regulator"
    )
    scattered = operon_run(_children(names, ["b2360", "b2380", "b2400", "b2420", "b2440", "b2441"]), index, names)
    assert scattered.n_run == 2 and not scattered.flagged and operon_text(scattered.to_dict()) is None
    # a gap of 3 steps ends a run; a run under half the children is not flagged
    assert operon_run(_children(names, ["b2400", "b2403", "b2406"]), index, names).n_run == 1
    under = operon_run(_children(names, ["b2400", "b2401", "b2402", "b2360", "b2380", "b2440", "b2470"]), index, names)
    assert under.n_run == 3 and not under.flagged


def test_genes_missing_from_the_table_do_not_cut_a_run():
    names = [f"b{k:04d}" for k in range(2300, 2600) if k not in (2403, 2404, 2406, 2407)]  # not in the table
    index = locus_index(names)
    assert index.step == 1
    kids = _children(names, ["b2402", "b2405", "b2408", "b2500"])  # neighbours in the table's order
    assert operon_run(kids, index, names).n_run == 3 and operon_run(kids, index, names).flagged
    assert not operon_run(kids, index, names, by_rank=False).flagged  # cut at 2 steps of 1: the variant off
    sparse = [f"b{k:04d}" for k in (*range(2300, 2340), 2352, *range(2400, 2440))]  # 12 missing after b2339
    run = operon_run(_children(sparse, ["b2338", "b2339", "b2352", "b2400"]), locus_index(sparse), sparse)
    assert (run.first, run.last, run.n_run) == ("b2338", "b2339", 2)  # neighbours in order, 13 steps apart


@pytest.mark.parametrize("sep", ["", "_"])
def test_bsu_tags_step_ten(sep):
    names = [f"BSU{sep}{k * 10:05d}" for k in range(1200, 1400)]
    index = locus_index(names)
    assert index.step == 10 and index.prefix == f"bsu{sep}"
    run = operon_run(_children(names, [f"BSU{sep}{k}" for k in (12570, 12580, 12600, 12610, 13500)]), index, names)
    assert run.flagged and run.n_run == 4 and run.span == 5 and run.last == f"BSU{sep}12610"
    far = operon_run(_children(names, [f"BSU{sep}{k}" for k in (12570, 12610, 12650)]), index, names)  # 4 steps apart
    assert far.n_run == 1 and not far.flagged


@pytest.mark.parametrize("pattern", ["G{:04d}", "g{:04d}", "gene{}", "Gene{:03d}", "TF{:03d}", "x{}", "col_{}", "V{}"])
def test_generic_numbered_names_are_not_locus_tags(pattern):
    names = [pattern.format(k) for k in range(1, 301)]
    assert locus_index(names) is None  # a synthetic table's numbers are construction, not a chromosome
    assert operon_reading(list(range(10, 16)), names) is None


@pytest.mark.parametrize(
    "pattern",
    ["YAL{:03d}W", "YBR{:03d}C", "ENSG{:011d}", "ENSMUSG{:011d}", "ENST{:011d}", "FBgn{:07d}", "WBGene{:08d}",
     "NM_{:06d}", "XM_{:09d}", "LOC{}", "ILMN_{}", "MIMAT{:07d}"],
)  # fmt: skip
def test_eukaryotic_and_database_ids_are_not_locus_tags(pattern):
    names = [pattern.format(k) for k in range(1, 301)]
    assert locus_index(names) is None  # database or chromosome-arm order: a eukaryote has no operons
    assert one_operon(list(range(10, 16)), names) is None


@pytest.mark.parametrize("pattern", ["b{:04d}", "cg{:04d}", "YPO{:04d}", "PA{:04d}", "STM{:04d}", "Rv{:04d}"])
def test_bacterial_tags_like_those_families_still_read(pattern):
    names = [pattern.format(k) for k in range(1, 301)]  # C. glutamicum cg0001, Yersinia YPO0001
    assert locus_index(names) is not None and one_operon(list(range(10, 16)), names) is not None


def test_mixed_names_need_most_to_be_tags():
    tags = _bnumbers(150)
    genes = [f"gen{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] + ["fnr", "arcA", "crp", "lacZ", "ompF"] * 5
    mostly = tags + ["fnr", "crp"] + genes[:18]  # 150 of 170 parse: 88 %
    assert locus_index(mostly) is not None
    kids = _children(mostly, ["b2400", "b2401", "b2402", "fnr", "crp"])  # unparsed children count in the half
    run = operon_run(kids, locus_index(mostly), mostly)
    assert run.n_run == 3 and run.n_children == 5 and run.flagged
    assert locus_index(tags[:100] + genes[:45]) is None  # 100 of 145: under 80 %
    assert locus_index(tags[: MIN_TAGS - 1]) is None  # too few names for a genome
    human = ["CD4", "IL6", "STAT1", "ACTB", "GAPDH", "CD8A", "IL2", "TP53"] * 10
    assert locus_index(human) is None
    rv = [f"Rv{k:04d}{'c' if k % 3 == 0 else ''}" for k in range(1, 101)]  # complement-strand suffix
    idx = locus_index(rv)
    assert idx.prefix == "rv" and operon_run(_children(rv, ["Rv0010", "Rv0011", "Rv0012c"]), idx, rv).flagged


def _network(names: list[str], kids: list[int], seed: int = 0):
    rng = np.random.default_rng(seed)
    n_obs, m = len(names), 40
    coef = np.zeros((n_obs + 1, n_obs + 1))
    coef[n_obs, kids] = rng.uniform(0.6, 1.0, len(kids))
    values = rng.normal(size=(m, n_obs + 1))
    values[:, kids] += values[:, [n_obs]] * coef[n_obs, kids]
    return [*names, "H1"], n_obs, coef, np.ones(n_obs + 1), values


def test_the_reading_reaches_json_csv_and_stderr(capsys):
    names = _bnumbers(60, start=2400)
    full, n_obs, coef, variance, values = _network(
        names, _children(names, ["b2415", "b2416", "b2417", "b2418", "b2440"])
    )
    (rep,) = regulator_report(full, n_obs, coef, variance, values, gains={"H1": (50.0, 45.0)})
    d = rep.to_dict()
    assert d["operon"]["flagged"] and (d["operon"]["first"], d["operon"]["last"]) == ("b2415", "b2418")
    table = report_table([rep])
    assert table["operon_of"].iloc[0].startswith("H1: 4 of its 5 children are adjacent genes b2415-b2418")
    h = {"name": "H1", "children": [c.child for c in rep.children], "operon": d["operon"]}
    report_hidden(
        SimpleNamespace(max_hidden=3, hidden_log_=[]), SimpleNamespace(hidden=[h], flagged_proposals=[], score_info={})
    )
    assert "likely one operon (co-transcribed), not a regulator" in capsys.readouterr().err
    generic = [f"g{k:04d}" for k in range(2400, 2460)]  # the same network on a synthetic table's names
    (rep,) = regulator_report([*generic, "H1"], n_obs, coef, variance, values)
    assert rep.extra["operon"] is None and report_table([rep])["operon_of"].isna().all()


def test_one_operon_is_the_shared_test():
    """``one_operon``: the flagged run or None, an accepted H's column (past the names) skipped."""
    names = _bnumbers(60, start=2400)
    run = one_operon(_children(names, ["b2415", "b2416", "b2417"]) + [len(names)], names)
    assert run is not None and (run.first, run.last, run.n_children) == ("b2415", "b2417", 3)
    assert one_operon(_children(names, ["b2415", "b2430", "b2450"]), names) is None  # scattered
    assert one_operon(_children(names, ["b2415"]), names) is None
    generic = [f"g{k:04d}" for k in range(2400, 2460)]
    assert one_operon([15, 16, 17], generic) is None  # not locus tags

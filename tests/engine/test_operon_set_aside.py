"""``--hidden auto`` sets aside a proposal that is one operon and gives back a kept H that is one
(engine/hidden/considered.py, ``OPERON_SET_ASIDE``; the reading itself: engine/hidden/operon.py)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from engine import IdealParentSearch
from engine.cli.reports import report_hidden
from engine.data import from_array
from engine.hidden import considered as considered_mod
from engine.hidden.considered import Considered
from engine.hidden.modules import propose_for_review
from engine.hidden.proposals import ClusterProposal

OPERON = ["b0110", "b0111", "b0112", "b0113", "b0114", "b0115"]
REGULON = ["b0103", "b0119", "b0124", "b0131", "b0137", "b0142"]  # scattered over the genome
LISTED = ["b0145", "b0146", "b0147"]


def _proposal(names: list[str], all_names: list[str]) -> ClusterProposal:
    members = [all_names.index(n) for n in names]
    z = np.zeros(4)
    return ClusterProposal(members, list(names), z, np.ones(len(names)), 1.0, 0.0, 0.0, np.zeros(len(names)), 5.0,
                           key=frozenset(names))  # fmt: skip


def _tags(n: int = 50) -> list[str]:
    return [f"b{k:04d}" for k in range(100, 100 + n)]


def test_a_proposal_on_one_operon_is_set_aside_a_scattered_one_is_not():
    names, lines = _tags(), []
    c = Considered()
    c.start(lines.append, names)
    props = [_proposal(OPERON[:5], names), _proposal(REGULON, names), _proposal([*OPERON[:2], *REGULON[:4]], names)]
    kept = c.set_aside(props)
    assert [p.names for p in kept] == [REGULON, [*OPERON[:2], *REGULON[:4]]]  # a run of 2 of 6 is no operon
    (record,) = c.to_list()
    run = record["operon"]
    assert record["members"] == OPERON[:5] and (run["first"], run["last"], run["n_run"]) == ("b0110", "b0114", 5)
    assert record["flagged_instances"] == []
    (line,) = lines
    assert "5 of them are adjacent genes b0110-b0114, likely one operon" in line and line.endswith("not tried")
    assert c.set_aside(props) == kept and len(lines) == 1  # said once


def test_generic_names_and_the_switch_leave_proposals_alone(monkeypatch):
    generic = [f"g{k:04d}" for k in range(100, 150)]  # a synthetic table's names: not locus tags
    c = Considered()
    c.start(None, generic)
    props = [_proposal([f"g{k:04d}" for k in range(110, 115)], generic)]
    assert c.set_aside(props) == props and c.to_list() == []
    monkeypatch.setattr(considered_mod, "OPERON_SET_ASIDE", False)
    c = Considered()
    c.start(None, _tags())
    assert c.set_aside(props := [_proposal(OPERON[:5], _tags())]) == props


def test_a_kept_h_on_one_operon_or_one_instance_is_refused():
    names = _tags()
    c = Considered()
    c.start(None, names)
    assert "b0110-b0115: likely one operon" in c.refused("H1", False, [*OPERON, "b0140"])
    assert c.refused("H1", False, REGULON) is None
    assert c.refused("H2", True, REGULON) == "H2 rests on one or two instances, so it is not kept"


def _bacterial_table(m: int = 80, seed: int = 3) -> pd.DataFrame:
    """50 b-numbered genes and 3 listed regulators: one operon's genes share their transcript (co-transcribed),
    a scattered regulon shares an unlisted regulator's activity; both pay as an H once genes cannot be each
    other's parents."""
    rng = np.random.default_rng(seed)
    names = _tags()
    x = pd.DataFrame(rng.normal(size=(m, len(names))), columns=names)
    transcript, regulator = rng.normal(size=m), rng.normal(size=m)
    x[OPERON] = 1.6 * transcript[:, None] + 0.5 * rng.normal(size=(m, len(OPERON)))
    x[REGULON] = 1.2 * regulator[:, None] + 0.6 * rng.normal(size=(m, len(REGULON)))
    for j, r in enumerate(LISTED):  # each listed regulator drives two genes
        for g in names[20 + 2 * j : 22 + 2 * j]:
            x[g] += 0.8 * x[r]
    return x


@pytest.mark.parametrize("on", [True, False])
def test_auto_does_not_keep_the_operon_and_keeps_the_regulon(on, monkeypatch):
    monkeypatch.setattr(considered_mod, "OPERON_SET_ASIDE", on)
    est = IdealParentSearch(hidden="auto", max_hidden=1, regulators=LISTED, random_state=0).fit(_bacterial_table())
    kids = [{c for p, c, _ in est.network_.edges() if p == h["name"]} for h in est.network_.hidden]
    set_aside = [p for p in est.network_.flagged_proposals if p.get("operon")]
    if on:
        assert kids and kids[0] >= set(REGULON[:5]) and not kids[0] & set(OPERON)  # the regulon's H, not the operon's
        assert set_aside and set(set_aside[0]["members"]) <= set(OPERON)
        assert any("likely one operon (co-transcribed), so it is not tried" in line for line in est.hidden_log_)
    else:  # the operon pays more and takes the one slot
        assert kids and kids[0] >= set(OPERON[:5]) and not set_aside


def test_learn_notes_the_operons_set_aside_apart_from_odd_conditions(capsys):
    names = _tags()
    c = Considered()
    c.start(None, names)
    c.set_aside([_proposal(OPERON[:5], names), _proposal(["b0120", "b0121", "b0122"], names)])
    net = SimpleNamespace(hidden=[], flagged_proposals=c.to_list(), score_info={})
    report_hidden(SimpleNamespace(max_hidden=3, hidden_log_=["start"]), net)
    err = capsys.readouterr().err
    assert "2 proposed hidden variable(s) set aside as one operon each" in err and "b0110-b0114, b0120-b0122" in err
    assert "one or two conditions" not in err  # the odd-condition note only counts proposals flagged by leverage


@pytest.mark.parametrize("tags", [True, False])
def test_the_review_list_puts_an_operon_after_the_new_regulons(tags):
    """The Hidden page's order (engine/hidden/modules.py): one operon's proposal after the others on a
    locus-tag table; the same table under generic names ranks it by its estimate, first."""
    x = _bacterial_table()
    name = dict(zip(x.columns, x.columns if tags else [f"g{k:04d}" for k in range(x.shape[1])], strict=True))
    ds = from_array(x.to_numpy(), list(name.values()))
    stepper = IdealParentSearch(regulators=[name[r] for r in LISTED]).make_stepper(ds)
    stepper.run()
    kw = dict(candidates=np.arange(ds.n_vars), min_size=3, labels=ds.instance_labels, explainers=stepper.cols)
    props = propose_for_review(stepper, ds.values, ds.names, n_proposals=5, coexpression=False, **kw)
    operon, regulon = (
        [i for i, p in enumerate(props) if len(set(p.names) & {name[g] for g in s}) >= 4] for s in (OPERON, REGULON)
    )
    assert operon and regulon
    assert (operon[0] > regulon[0]) if tags else (operon[0] < regulon[0])

"""``--hidden auto`` says why it stopped: at ``max_hidden`` with proposals untried, or because nothing
more paid (engine/hidden/untried.py, #22), on the estimator, in the JSON and on stderr."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.cli import main
from engine.cli.reports import report_hidden, untried_line
from engine.data import from_array
from engine.hidden.proposals import ClusterProposal
from engine.hidden.untried import AT_LIMIT, NOTHING_PAID, proposal_record, stop_record
from engine.learn import IdealParentSearch
from engine.network import LearnedNetwork


def planted(roots: int, kids: int = 6, noise: int = 0, *, m: int = 150, load: float = 0.9, seed: int = 0):
    """``roots`` unmeasured factors, each the parent of ``kids`` variables ``R<root>_<k>`` (load
    ``load``, unit variance), and ``noise`` independent variables ``N<j>``."""
    rng = np.random.default_rng(seed)
    cols, names = [], []
    for r in range(roots):
        h = rng.normal(size=m)
        for k in range(kids):
            cols.append(load * h + np.sqrt(1 - load**2) * rng.normal(size=m))
            names.append(f"R{r}_{k}")
    for j in range(noise):
        cols.append(rng.normal(size=m))
        names.append(f"N{j}")
    return from_array(np.column_stack(cols), names)


def roots_of(names) -> set[str]:
    return {n.split("_")[0] for n in names}


@pytest.fixture(scope="module")
def at_limit():
    """Three planted factors, ``max_hidden = 1``: the fitted estimator."""
    est = IdealParentSearch(hidden="auto", max_hidden=1, random_state=0)
    return est.fit(planted(3))


class TestAtTheLimit:
    def test_the_untried_proposals_name_the_other_factors(self, at_limit):
        stop = at_limit.untried_proposals_
        assert stop.reason == AT_LIMIT and stop.at_limit and stop.max_hidden == 1 and stop.n_hidden == 1
        (kept,) = at_limit.hidden_search_.hidden
        found = roots_of(kept.children)
        assert len(found) == 1  # H1 is one factor's parent
        untried = stop.untried
        assert len(untried) == 2
        # each untried proposal is one of the other two factors' children, all six, not H1's
        assert [len(roots_of(p.members)) for p in untried] == [1, 1]
        assert set().union(*(roots_of(p.members) for p in untried)) == {"R0", "R1", "R2"} - found
        assert all(p.n_members == 6 and not p.overlap and not p.flagged for p in untried)
        assert stop.n_positive == sum(p.estimated_gain > 0 for p in untried)
        assert all(set(p.top_members) <= set(p.members) and len(p.top_members) == 6 for p in untried)

    def test_the_json_carries_them_and_reads_back(self, at_limit):
        spec = json.loads(json.dumps(at_limit.network_.to_dict()))
        rec = spec["untried_proposals"]
        assert rec["stopped"] == "max_hidden" and rec["max_hidden"] == 1 and rec["n_untried"] == 2
        assert [p["members"] for p in rec["proposals"]] == [p.members for p in at_limit.untried_proposals_.untried]
        assert rec["n_positive"] == at_limit.untried_proposals_.n_positive
        again = LearnedNetwork.from_dict(spec)
        assert again.untried_proposals == rec and again.to_dict()["untried_proposals"] == rec

    def test_the_line_says_so(self, at_limit):
        line = untried_line(at_limit.network_)
        stop = at_limit.untried_proposals_
        assert line.startswith("note: auto stopped at --max-hidden 1 with 2 proposals untried")
        assert f"({stop.n_positive} with a positive estimate; the largest: 6 variables" in line
        assert "raise --max-hidden" in line and "Hidden page" in line

    def test_learn_says_it_on_stderr(self, at_limit, capsys):
        report_hidden(at_limit, at_limit.network_)  # what ``learn`` says after the search
        err = capsys.readouterr().err.splitlines()
        assert err[0].startswith("hidden variables added: H1 -> ")
        assert [x for x in err if x.startswith("note: auto stopped at")] == [untried_line(at_limit.network_)]


def run_cli(tmp_path, ds, max_hidden: int, capsys) -> tuple[dict, list[str]]:
    path, out = tmp_path / "data.csv", tmp_path / "net.json"
    np.savetxt(path, ds.values, delimiter=",", header=",".join(ds.names), comments="")
    capsys.readouterr()
    assert main(["learn", str(path), "--hidden", "auto", "--max-hidden", str(max_hidden), "--out", str(out)]) == 0
    return json.loads(out.read_text()), capsys.readouterr().err.splitlines()


class TestNoLine:
    def test_max_hidden_large_enough(self, tmp_path, capsys):
        """One factor, room for two: H1 is kept and nothing more pays, so no untried line."""
        result, err = run_cli(tmp_path, planted(1, noise=3), 2, capsys)
        assert len(result["hidden"]) == 1 and "untried_proposals" not in result
        assert not [line for line in err if "untried" in line or "auto stopped at" in line]

    def test_nothing_pays(self, tmp_path, capsys):
        result, err = run_cli(tmp_path, planted(0, noise=8), 2, capsys)
        assert result["hidden"] == [] and "untried_proposals" not in result
        assert not [line for line in err if "auto stopped at" in line]
        assert any(line.startswith("no hidden variable was added") for line in err)

    def test_the_estimator_says_nothing_paid(self):
        est = IdealParentSearch(hidden="auto", max_hidden=2, random_state=0).fit(planted(0, noise=8))
        assert est.untried_proposals_.reason == NOTHING_PAID and est.untried_proposals_.untried == []


class TestStopRecord:
    def test_tried_and_kept_sets_are_left_out_and_overlap_counted(self, at_limit):
        hs = at_limit.hidden_search_
        order = hs.considered.order
        assert len(order) == 3  # the kept set and the two untried, in auto's order
        (h,) = hs.hidden
        rec = stop_record(order, set(), hs.hidden, 1)
        assert [p.members for p in rec.untried] == [p.members for p in at_limit.untried_proposals_.untried]
        rec = stop_record(order, {order[-1].key}, hs.hidden, 1)  # one more counted as tried
        assert len(rec.untried) == 1
        h.children = h.children + [order[-1].names[0]]  # a member shared with H1's children
        try:
            last = stop_record(order, set(), hs.hidden, 1).untried[-1]
            assert last.overlap == {h.name: 1}
            assert untried_line(type("N", (), {"untried_proposals": stop_record(order, set(), hs.hidden, 1).to_dict()}))
        finally:
            h.children = h.children[:-1]
        assert stop_record(order, set(), hs.hidden, 2).reason == NOTHING_PAID
        assert stop_record(None, set(), hs.hidden, 1).to_dict()["proposed"] is False

    def test_no_proposal_left_in_line(self):
        rec = stop_record([], set(), [], 0).to_dict()
        line = untried_line(type("N", (), {"untried_proposals": rec}))
        assert line == (
            "note: auto stopped at --max-hidden 0; no other proposal was in line in its last round "
            "(a larger --max-hidden proposes again)"
        )


class TestOneShape:
    def test_set_aside_and_untried_entries_share_the_proposal_record(self, at_limit):
        """``flagged_proposals`` and ``untried_proposals`` list a proposal alike (engine/hidden/untried.py)."""
        (entry,) = [p.to_dict() for p in at_limit.untried_proposals_.untried[:1]]
        core = proposal_record(at_limit.untried_proposals_.untried[0].proposal)
        assert entry == {**core, "top_members": entry["top_members"], "overlap": {}}
        assert set(core) == {"members", "n_members", "source", "estimated_gain", "leverage", "flagged_instances",
                             "step_conditions"}  # fmt: skip

    def test_a_number_that_is_not_finite_is_written_as_null(self):
        p = ClusterProposal([0, 1], ["a", "b"], np.zeros(3), np.ones(2), 1.0, 0.5, 0.5, np.zeros(2), math.nan)
        rec = proposal_record(p)
        assert rec["estimated_gain"] is None and rec["leverage"] is None  # leverage unset: NaN
        json.dumps(rec, allow_nan=False)  # valid JSON

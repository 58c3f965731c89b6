"""Co-expression modules and the review order of hidden-variable proposals (engine.hidden.modules, #22)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.data import from_array
from engine.hidden.candidates import propose_from_search
from engine.hidden.modules import COEXPRESSION, module_proposals, propose_for_review, review_order
from engine.hidden.proposals import ClusterProposal
from engine.io import load_table
from engine.learn import IdealParentSearch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))
from module_table import write_module_table  # noqa: E402


def _proposal(name: str, gain: float, common: float, flagged: bool = False, by=("s7",)) -> ClusterProposal:
    return ClusterProposal(
        members=[0, 1, 2],
        names=[f"{name}{i}" for i in range(3)],
        profile=np.zeros(4),
        loadings=np.ones(3) / math.sqrt(3),
        eigenvalue=1.0,
        c1=0.5,
        c2=0.6,
        c2_members=np.full(3, 0.2),
        estimated_gain=gain,
        key=frozenset({name}),
        common_variance=common,
        high_leverage=list(by) if flagged else [],
    )


class TestReviewOrder:
    def test_paying_first_by_estimate_then_by_common_variance_flagged_last(self):
        props = [
            _proposal("small", -5.0, 1.0),
            _proposal("module", -60.0, 24.0),
            _proposal("odd", -10.0, 40.0, flagged=True),
            _proposal("pays", 3.0, 0.5),
            _proposal("pays_more", 9.0, 0.1),
            _proposal("no_common", -1.0, math.nan),
        ]
        order = [p.names[0][:-1] for p in review_order(props, 10)]
        assert order == ["pays_more", "pays", "module", "small", "no_common", "odd"]

    def test_a_flagged_proposal_stays_in_a_short_list(self):
        props = [_proposal(f"p{i}", -float(i), 10.0 - i) for i in range(6)] + [_proposal("odd", 5.0, 9.0, True)]
        short = review_order(props, 3)
        assert [p.names[0][:-1] for p in short] == ["p0", "p1", "odd"]
        assert [p.names[0][:-1] for p in review_order(props, 1)] == ["p0"]  # one slot: the best

    def test_an_odd_condition_and_a_two_condition_program_are_both_named(self):
        """#22 item 3: a program on in two conditions (flagged by both) must not push the odd
        condition out of the list, nor the other way round; a second proposal of the same odd
        condition does not take a place from an unflagged one."""
        odd = [_proposal("odd", 5.0, 40.0, True), _proposal("odd_b", 4.0, 30.0, True)]
        heat = _proposal("heat", -3.0, 20.0, True, by=("heat_r1", "heat_r2"))
        props = [_proposal(f"p{i}", -float(i), 10.0 - i) for i in range(6)] + odd + [heat]
        order = [p.names[0][:-1] for p in review_order(props, 5)]
        assert order == ["p0", "p1", "p2", "odd", "heat"]
        assert [p.names[0][:-1] for p in review_order(props, 2)] == ["p0", "odd"]  # one slot left: the first
        assert [p.names[0][:-1] for p in review_order(props[6:], 5)] == ["odd", "odd_b", "heat"]  # review order


@pytest.fixture(scope="module")
def lab_table(tmp_path_factory):
    """The headerless 500 x 24 lab table, searched to convergence without a regulator list."""
    table = write_module_table(tmp_path_factory.mktemp("module") / "lab.tsv", seed=3)
    loaded = load_table(table.path, no_header=True, transpose=True)
    assert loaded.has_missing  # the 3 NA cells, filled here with the (standardized) mean; the app completes them by EM
    ds = from_array(
        np.nan_to_num(loaded.values), loaded.names, standardize=False, instance_labels=loaded.instance_labels
    )
    stepper = IdealParentSearch().make_stepper(ds)
    stepper.run()
    return table, ds, stepper


class TestModulesOnALabTable:
    """Issue #22: the search ties a module's genes by a tree of edges among themselves (no triangle,
    no shared ideal profile); the module must still be proposed first, the odd condition flagged."""

    def test_the_module_is_missed_by_the_search_proposals_and_found_here(self, lab_table):
        table, ds, stepper = lab_table
        module = set(table.module)
        kw = dict(candidates=np.arange(ds.n_vars), min_size=3, max_size=50, labels=ds.instance_labels)
        before = propose_from_search(stepper, ds.values, ds.names, n_proposals=5, **kw)
        assert max(len(module & set(p.names)) for p in before) < 10  # the reason for this module
        found = module_proposals(stepper, ds.values, ds.names, n_sets=2, **kw)
        best = max(found, key=lambda p: len(module & set(p.names)))
        assert best.source == COEXPRESSION and len(module & set(best.names)) >= 27
        assert len(best.names) <= len(module) + 5
        assert abs(np.corrcoef(best.profile, table.regulator)[0, 1]) >= 0.95
        # scored on the current network with the tree inside it removed
        assert len(best.removed_edges) >= 20 and best.removed_loss > 0

    def test_review_order_puts_the_module_first_and_names_the_odd_condition(self, lab_table):
        table, ds, stepper = lab_table
        kw = dict(candidates=np.arange(ds.n_vars), min_size=3, max_size=50, labels=ds.instance_labels)
        props = propose_for_review(stepper, ds.values, ds.names, n_proposals=5, **kw)
        assert len(props) == 5
        assert len(set(table.module) & set(props[0].names)) >= 27 and not props[0].flagged
        flagged = [p for p in props if p.flagged]
        assert flagged and all(p.high_leverage == [table.odd_condition] for p in flagged)
        assert props[-1].flagged and set(flagged[0].names) <= set(table.odd_genes)
        without = propose_for_review(stepper, ds.values, ds.names, n_proposals=5, coexpression=False, **kw)
        assert all(p.source != COEXPRESSION for p in without)

    def test_a_module_of_adjacent_yeast_orfs_is_not_set_aside_as_an_operon(self, lab_table):
        """Budding yeast's systematic names (``YAL040W``) parse as a prefix and a number, but a eukaryote has no
        operons: a module of one chromosome arm's consecutive ORFs is proposed first, not set aside
        (session 26's walk of a lab file named ``YAL000W``..``YAL299W``)."""
        table, ds, stepper = lab_table
        module = set(table.module)
        order = [n for n in ds.names if n in module] + [n for n in ds.names if n not in module]
        yeast = {n: f"YAL{k:03d}W" for k, n in enumerate(order)}  # the module: YAL000W-YAL0xxW, adjacent
        names = [yeast[n] for n in ds.names]
        kw = dict(candidates=np.arange(ds.n_vars), min_size=3, max_size=50, labels=ds.instance_labels)
        props = propose_for_review(stepper, ds.values, names, n_proposals=5, **kw)
        assert len({yeast[n] for n in module} & set(props[0].names)) >= 27 and not props[0].flagged
        b_tags = [f"b{k:04d}" for k in range(len(names))]  # the same table as a bacterium's: read as one operon
        by_tag = {n: b_tags[k] for k, n in enumerate(order)}
        bact = propose_for_review(stepper, ds.values, [by_tag[n] for n in ds.names], n_proposals=5, **kw)
        assert len({by_tag[n] for n in module} & set(bact[0].names)) < 27

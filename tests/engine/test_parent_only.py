"""Parent-only variables named by the user (``IdealParentSearch(parent_only=...)``,
``Dataset.covariates``; :mod:`engine.parent_only`): no edge into them from genes or from hidden
variables, never a proposal's child, still parents under a regulator list, and unknown names one
clear error (issue #22, sample covariates such as batch)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine.bootstrap.replicate import resample, run_replicate
from engine.data import from_array
from engine.exceptions import ParameterError
from engine.hidden import HiddenSearch, StructuralEM
from engine.io.covariates import add_covariates, code_covariates
from engine.learn import IdealParentSearch
from engine.parent_only import child_candidates, edges_into, parent_only_names
from engine.score import choose_score


def _chain(m: int = 200, seed: int = 0) -> pd.DataFrame:
    """c -> a -> b -> d, c a root: a search without the rule often points a -> c (same score)."""
    rng = np.random.default_rng(seed)
    c = rng.normal(size=m)
    a = c + 0.5 * rng.normal(size=m)
    b = a + 0.5 * rng.normal(size=m)
    d = b + 0.5 * rng.normal(size=m)
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d})


def _with_batch(m: int = 80, seed: int = 0):
    """Five genes driven by one factor that tracks a two-level batch, the batch given as a covariate."""
    rng = np.random.default_rng(seed)
    batch = np.array(["b0", "b1"] * (m // 2))
    h = rng.normal(size=m) + 1.5 * (batch == "b1")
    x = np.column_stack([h + 0.3 * rng.normal(size=m) for _ in range(5)])
    ids = [f"c{i}" for i in range(m)]
    data = from_array(x, names=list("abcde"), instance_labels=ids)
    cov = code_covariates(pd.DataFrame({"id": ids, "batch": batch}), ids, data.names)
    return add_covariates(data, cov)


class TestParentOnlyParameter:
    def test_no_edge_enters_a_named_variable(self):
        est = IdealParentSearch(parent_only=["c"]).fit(_chain())
        edges = est.network_.edges()
        assert not [e for e in edges if e[1] == "c"], edges
        assert any(p == "c" for p, _, _ in edges)  # still a parent
        assert est.parent_only_ == ["c"]
        assert est.network_.settings["parent_only"] == ["c"]

    def test_unknown_names_are_one_value_error_naming_them(self):
        with pytest.raises(ValueError, match=r"`parent_only` names 2 variable\(s\) not in the data: 'zz', 'yy'"):
            IdealParentSearch(parent_only=["c", "zz", "yy"]).fit(_chain())

    def test_one_string_is_refused(self):
        with pytest.raises(ParameterError, match="list of variable names, not one string"):
            IdealParentSearch(parent_only="c").fit(_chain())

    def test_a_required_edge_into_one_is_named(self):
        with pytest.raises(ParameterError, match=r"required edge \('a', 'c'\) points into 'c'"):
            IdealParentSearch(parent_only=["c"], required_edges=[("a", "c")]).fit(_chain())

    def test_a_dataset_s_covariates_are_read(self):
        data = _with_batch()
        est = IdealParentSearch().fit(data)
        assert est.parent_only_ == ["batch=b1"]
        assert not [e for e in est.network_.edges() if e[1] == "batch=b1"]

    def test_they_stay_parents_under_a_regulator_list(self):
        data = _with_batch()
        est = IdealParentSearch(regulators=["a"]).fit(data)
        assert est.regulator_names(data) == ["a", "batch=b1"]
        assert {p for p, _, _ in est.network_.edges()} <= {"a", "batch=b1"}
        assert est.network_.settings["regulators"] == ["a", "batch=b1"]

    def test_bootstrap_copies_keep_them(self):
        """The explorer's Confidence page bootstraps the session's data with a plain estimator: each
        replicate reads the covariates from its resample."""
        data = _with_batch()
        rep, _ = resample(data, np.random.SeedSequence(1))
        assert rep.covariates == ("batch=b1",)
        outcomes = [run_replicate((data, IdealParentSearch()), i, np.random.SeedSequence(i)) for i in range(3)]
        assert all(o.error is None for o in outcomes) and any(o.edges for o in outcomes)
        batch = data.names.index("batch=b1")
        assert not [e for o in outcomes for e in o.edges if e[1] == batch]


class TestParentOnlyNames:
    def test_data_order_and_union_with_the_dataset_s_covariates(self):
        data = _with_batch()
        assert parent_only_names(data, ["c"]) == ["c", "batch=b1"]
        assert parent_only_names(data) == ["batch=b1"]
        assert child_candidates(data.names, ["c", "batch=b1"]).tolist() == [0, 1, 3, 4]
        assert edges_into([2], 3) == [(0, 2), (1, 2)]


class TestHiddenVariables:
    def test_structural_em_forbids_hidden_edges_into_them(self):
        data = _with_batch()
        em = StructuralEM(data, hidden={"H1": (data.values[:, 0], ["a", "b"])})
        assert em.parent_only == [5]  # read from Dataset.covariates
        assert (6, 5) in em._forbidden()
        em = StructuralEM(data, hidden={"H1": (data.values[:, 0], ["a", "b"])}, parent_only=["e"])
        # a name given adds to the data's covariates; it never takes their protection away
        assert em.parent_only == [4, 5] and (6, 4) in em._forbidden() and (6, 5) in em._forbidden()

    def test_no_proposal_takes_one_as_a_child(self):
        data = _with_batch()
        hs = HiddenSearch(data, em_options={"parent_only": ["batch=b1", "a"]})
        hs.fit_structure()
        proposals = hs.propose(5)
        assert proposals and all(not {"a", "batch=b1"} & set(p.names) for p in proposals)

    def test_propose_and_the_explorer_exclude_the_same_children(self, monkeypatch):
        """HiddenSearch.propose and the explorer's session (engine.parent_only.child_candidates by
        the data's covariates) leave the same variables out of a proposal's children."""
        import engine.hidden.search as search_module

        data = _with_batch()
        seen = {}

        def capture(*args, candidates, **kwargs):
            seen["candidates"] = np.asarray(candidates)
            return []

        monkeypatch.setattr(search_module, "propose_from_search", capture)
        hs = HiddenSearch(data)
        hs.propose(5)
        np.testing.assert_array_equal(seen["candidates"], child_candidates(data.names, data.covariates))
        np.testing.assert_array_equal(seen["candidates"], [0, 1, 2, 3, 4])
        HiddenSearch(data, em_options={"parent_only": ["a"]}).propose(5)  # a name given adds to them
        np.testing.assert_array_equal(seen["candidates"], child_candidates(data.names, ["a", *data.covariates]))

    def test_two_layer_starts_h1_on_the_genes_only(self):
        """The two-layer start makes H1 the parent of every observed variable: not of a covariate,
        whose edge from H1 is forbidden (it raised 'initial edge (6, 5) is forbidden')."""
        est = IdealParentSearch(two_layer=True, max_hidden=1, random_state=0).fit(_with_batch())
        assert est.network_.hidden and not [e for e in est.network_.edges() if e[1] == "batch=b1"]

    def test_forbidding_every_edge_into_a_variable_does_not_make_it_parent_only(self):
        """No measured gene regulates X is not 'nothing unmeasured does': a hidden parent stays allowed."""
        data = from_array(_chain().to_numpy(), names=list("abcd"))
        into_c = [(p, "c") for p in "abd"]
        em = StructuralEM(data, hidden={"H1": (data.values[:, 0], ["a", "b"])}, forbidden=into_c)
        assert em.parent_only == [] and (4, 2) not in em._forbidden()


def _tall_with_covariates(m: int = 60, n: int = 30):
    """``n`` genes on exactly 2 rows per gene, plus a batch indicator and a numeric covariate."""
    rng = np.random.default_rng(3)
    ids = [f"s{i}" for i in range(m)]
    data = from_array(rng.normal(size=(m, n)), [f"g{j}" for j in range(n)], instance_labels=ids)
    table = pd.DataFrame({"id": ids, "batch": ["a", "b"] * (m // 2), "rin": rng.uniform(6, 9, m).round(2)})
    return add_covariates(data, code_covariates(table, ids, data.names))


class TestScoreAuto:
    """Covariates are not genes: they do not push a table into the wide-data score
    (docs/decisions/score-auto.md), but EBIC, when chosen, counts them among the candidate parents."""

    def test_the_tall_rule_counts_genes_only(self):
        choice = choose_score("auto", 60, 32, n_parent_only=2)
        assert choice.name == "bic" and "2 parent-only variables not counted" in choice.reason
        assert choose_score("auto", 60, 32).name == "ebic"  # counted as genes, they would
        wide = choose_score("auto", 59, 32, n_parent_only=2)
        assert wide.name == "ebic" and wide.score.n_candidates == 31  # the covariates are candidates

    @pytest.mark.filterwarnings("ignore:60 instances are too few")  # BIC at exactly 2 rows per gene says so
    def test_the_estimator_and_structural_em_choose_alike(self):
        data = _tall_with_covariates()
        assert data.n_vars == 32
        est = IdealParentSearch(max_iter=2)
        assert est.score_choice(data).name == "bic"
        est.fit(data)
        assert est.score_choice_.name == "bic" and est.network_.to_dict()["score"]["name"] == "bic"
        assert StructuralEM(data).score_choice.name == "bic"
        assert IdealParentSearch(parent_only=["g0"]).score_choice(data).name == "bic"  # 29 genes now

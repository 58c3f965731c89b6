"""A proposal a listed regulator may explain, said so by name (explorer.proposal_regulators; #22).

The QA walk on a real E. coli table (2500 genes x 27 conditions, 128 listed TFs): proposal #2, the
gadW/gadX/gadE acid-fitness module, had status "hub b3512" and the line "Member b3512 already carries
this profile (a hub of the set): if it is the regulator...". b3512 is gadE, on the user's regulator
list: the text did not say so. Proposal #1 (zur regulon, 6 of 6) named only the closest variable
outside the set (an unlisted gene); which of the 128 listed regulators tracks z* best, the
biologist's ``H <- TF`` question, was not said at all."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
from conftest import PAGES, TIMEOUT  # at import: inside a test, "conftest" may be tests/engine's

from engine.hidden.tracking import best_tracking, chance_corr
from explorer.proposal_regulators import listed_text
from explorer.proposal_text import carrier_text, status_text


def prop(by=None, names=("g1", "g2", "g3"), flagged=False, profile=None):
    return SimpleNamespace(
        explained_by=by, names=list(names), flagged=flagged, high_leverage=["salt"] if flagged else [], profile=profile
    )


class TestCarrier:
    def test_a_listed_hub_is_called_a_listed_regulator(self):
        said = carrier_text(prop("g2"), ["TF1", "g2"])
        assert said.startswith(" **Member g2, a listed regulator, already carries this profile**")
        assert "most likely the members' regulator itself" in said

    def test_a_listed_stand_in_outside_the_set(self):
        assert carrier_text(prop("TF1"), ["TF1"]) == " **TF1, a listed regulator, already explains this cluster.**"

    def test_unlisted_unchanged(self):
        assert "(a hub of the set)" in carrier_text(prop("g2"), ["TF1"])
        assert carrier_text(prop("g9"), ["TF1"]) == " **g9 already explains this cluster.**"

    def test_status_stays_short(self):
        """The table's cell (100 px) cut "hub YML027W (listed)" on the yeast table: with a list, a
        carrier is always a listed regulator (only those may stand in for H), said in the column's
        help and under "How to read this page" instead."""
        assert status_text(prop("g2")) == "hub g2"
        assert status_text(prop("TF1")) == "≈ TF1"


class TestBestListed:
    def setup_method(self):
        rng = np.random.default_rng(0)
        self.z = rng.normal(size=27)
        noise = rng.normal(size=(27, 4))
        # TF_B tracks z* (r about -0.8: a repressor), TF_A weakly, g_x (unlisted) best of all
        self.values = np.column_stack([0.3 * self.z + noise[:, 0], -self.z + 0.7 * noise[:, 1], self.z, noise[:, 3]])
        self.names = ["TF_A", "TF_B", "g_x", "g1"]

    def test_the_listed_regulator_with_the_largest_abs_correlation(self):
        name, r = best_tracking(self.z, self.values, self.names, ["TF_A", "TF_B", "NOT_MEASURED"])
        expect = np.corrcoef(self.z, self.values[:, 1])[0, 1]
        assert name == "TF_B" and np.isclose(r, expect) and r < 0

    def test_listed_names_match_as_the_engine_matches_them(self):
        """``tf_b`` on the list is the data's ``TF_B`` (the search takes it as a regulator)."""
        name, r = best_tracking(self.z, self.values, self.names, ["tf_b", "NOT_MEASURED"])
        assert name == "TF_B" and r < 0
        said = listed_text(prop(names=["g1"], profile=self.z), self.values, self.names, ["tf_a", "tf_b"])
        assert said.startswith(" Of the 2 listed regulators, **TF_B** tracks z* best")

    def test_none_without_a_measured_name(self):
        none = best_tracking(self.z, self.values, self.names, ["NOT_MEASURED"])
        assert none[0] is None and np.isnan(none[1])
        assert listed_text(prop(names=["g1"], profile=self.z), self.values, self.names, ["NOT_MEASURED"]) == ""
        # without a list, any variable outside ``exclude``: the Hidden page asks only with a list
        assert best_tracking(self.z, self.values, self.names, None, exclude={"g_x"})[0] == "TF_B"

    def test_the_sentence(self):
        p = prop(names=["g1"], profile=self.z)
        said = listed_text(p, self.values, self.names, ["TF_A", "TF_B"])
        r = np.corrcoef(self.z, self.values[:, 1])[0, 1]
        assert said == (
            f" Of the 2 listed regulators, **TF_B** tracks z* best (correlation {r:+.2f}): if H is added, "
            "structural EM may make it H's parent (H ← TF_B)."
        )
        assert listed_text(p, self.values, self.names, None) == ""

    def test_a_listed_member_is_said_to_be_one(self):
        p = prop(names=["TF_B", "g1"], profile=self.z)
        said = listed_text(p, self.values, self.names, ["TF_A", "TF_B"])
        assert "**TF_B** (a member) tracks z* best" in said and "may be the members' regulator itself" in said

    def test_below_chance_no_parent_is_offered(self):
        """128 noise regulators and 27 conditions: the best |r| is about 0.5 by chance alone (the
        walk's zur proposal: best listed b3973 at r = -0.47); no H <- TF is offered."""
        rng = np.random.default_rng(3)
        noise = rng.normal(size=(27, 128))
        names = [f"TF{i}" for i in range(128)]
        said = listed_text(prop(names=["g1"], profile=self.z), noise, names, names)
        name, r = best_tracking(self.z, noise, names, names)
        assert abs(r) < chance_corr(128, 27)
        assert said.startswith(f" No listed regulator tracks z* beyond chance (best: **{name}**, correlation {r:+.2f};")
        assert "|r| ≥ 0.62 passes a Bonferroni-corrected 5% test" in said and "H ←" not in said

    def test_chance_level_is_fishers_bonferroni_bound(self):
        from scipy.stats import norm

        assert np.isclose(chance_corr(128, 27), np.tanh(norm.ppf(1 - 0.05 / 256) / np.sqrt(24)))
        assert chance_corr(3, 2) == 1.0
        assert chance_corr(1, 1000) < chance_corr(100, 1000) < chance_corr(100, 30)

    def test_nothing_when_the_carrier_already_is_that_listed_regulator(self):
        p = prop(by="TF_B", names=["g1"], profile=self.z)
        assert listed_text(p, self.values, self.names, ["TF_A", "TF_B"]) == ""


def _module_session(regulators):
    """60 instances: a factor h drives g0..g7; TF tracks h loosely (r about 0.85), TF2 and TF3 and
    g8..g13 are noise; searched to convergence with ``regulators`` listed."""
    from engine.io import from_array
    from explorer.session import SearchSession

    rng = np.random.default_rng(1)
    m = 60
    h = rng.normal(size=m)
    cols = {"TF": h + 0.6 * rng.normal(size=m), "TF2": rng.normal(size=m), "TF3": rng.normal(size=m)}
    cols.update({f"g{j}": 0.9 * h + 0.4 * rng.normal(size=m) for j in range(8)})
    cols.update({f"g{j}": rng.normal(size=m) for j in range(8, 14)})
    session = SearchSession(
        from_array(np.column_stack(list(cols.values())), list(cols)), None, "module", None, regulators
    )
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    return session


def _page(session):
    from streamlit.testing.v1 import AppTest

    from explorer import state

    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    at.run()
    assert not at.exception
    return at


def test_page_names_a_listed_hub_as_a_listed_regulator():
    """g0, a module gene the user listed, carries the module's profile: the table's status and the
    proposal's text say it is a listed regulator."""
    session = _module_session(["TF", "TF2", "TF3", "g0"])
    at = _page(session)
    (first,) = [p for p in session.propose_hidden(5)[:1]]
    assert first.explained_by == "g0" and "g0" in first.names
    assert at.dataframe[0].value["status"].iloc[0] == "hub g0"
    config = json.loads(at.dataframe[0].proto.columns)
    assert "With a regulator list, X is always a listed regulator" in config["status"]["help"]
    text = " ".join(str(m.value) for m in at.markdown)
    assert "**Member g0, a listed regulator, already carries this profile**" in text
    (how,) = [e for e in at.expander if e.label == "How to read this page"]
    assert "with a regulator list, X is always a listed regulator" in " ".join(str(m.value) for m in how.markdown)


def test_page_names_the_listed_regulator_that_tracks_z_best():
    session = _module_session(["TF", "TF2", "TF3"])
    at = _page(session)
    prop = session.propose_hidden(5)[0]
    name, r = best_tracking(prop.profile, session.values(), list(session.dataset.names), ["TF", "TF2", "TF3"])
    text = " ".join(str(m.value) for m in at.markdown)
    if abs(r) >= chance_corr(3, 60):
        assert f"Of the 3 listed regulators, **{name}** tracks z* best (correlation {r:+.2f})" in text
    else:
        assert f"No listed regulator tracks z* beyond chance (best: **{name}**, correlation {r:+.2f}" in text


class TestRegulonRegulators:
    """The yeast walk: proposal #5's members were enriched for regulon:YLR403W, regulon:YLR223C and
    regulon:YNL216W, the known targets of three listed, measured regulators; the page did not say
    that these regulators are on the list, nor whether their mRNA tracks z*."""

    def setup_method(self):
        rng = np.random.default_rng(0)
        self.z = rng.normal(size=50)
        self.values = np.column_stack([rng.normal(size=50), self.z + 0.3 * rng.normal(size=50), rng.normal(size=50)])
        self.names = ["YLR403W", "YLR223C", "g1"]

    def test_listed_regulators_of_enriched_sets_with_their_correlation(self):
        from explorer.proposal_regulators import regulon_text

        said = regulon_text(
            ["regulon:YLR403W", "ylr223c", "OTHER_SET"], self.z, self.values, self.names, self.names[:2]
        )
        r1 = np.corrcoef(self.z, self.values[:, 0])[0, 1]
        r2 = np.corrcoef(self.z, self.values[:, 1])[0, 1]
        assert said == (
            f" The regulators of 2 of these sets are on your list: YLR403W (regulon:YLR403W; correlation with z* "
            f"{r1:+.2f}), YLR223C (ylr223c; {r2:+.2f}). YLR223C tracks z* beyond chance (|r| ≥ 0.32 with 50 "
            "instances and 2 regulators): it may be the members' regulator itself."
        )

    def test_none_track(self):
        from explorer.proposal_regulators import regulon_text

        said = regulon_text(["regulon:YLR403W"], self.z, self.values, self.names, self.names[:2])
        assert said.endswith(
            "None tracks z* beyond chance (|r| ≥ 0.32 with 50 instances and 2 regulators): H may stand for "
            "their activity, which their mRNA does not show."
        )
        assert said.startswith(" The regulator of 1 of these sets is on your list: YLR403W (regulon:YLR403W;")

    def test_nothing_to_say(self):
        from explorer.proposal_regulators import regulon_text

        assert regulon_text(["OTHER"], self.z, self.values, self.names, self.names[:2]) == ""
        assert regulon_text(["regulon:YLR403W"], self.z, self.values, self.names, None) == ""


def test_page_names_the_listed_regulator_of_an_enriched_regulon():
    from engine.io.gene_sets import gene_sets_from_bytes
    from explorer import gene_sets_box, state

    session = _module_session(["TF", "TF2", "TF3"])
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(PAGES / "hidden.py"), default_timeout=TIMEOUT)
    at.session_state[state.SESSION] = session
    gmt = "regulon:TF2\tknown targets\t" + "\t".join(f"g{i}" for i in range(8)) + "\n"
    at.session_state[gene_sets_box.KEY_SETS] = gene_sets_from_bytes(gmt.encode(), "regulons.gmt")
    at.run()
    assert not at.exception
    line = next(str(m.value) for m in at.markdown if str(m.value).startswith("**Known gene sets among the members:**"))
    assert "regulon:TF2 (" in line
    assert "The regulator of 1 of these sets is on your list: TF2 (regulon:TF2; correlation with z* " in line


def test_no_tracking_regulator_on_a_flagged_proposal_points_to_its_odd_condition():
    """Newcomer walk, session 19: a proposal with 91% of z* in one failed array was told "H would be a
    regulator not on the list": for a flagged proposal the sentence points to the odd condition instead."""
    rng = np.random.default_rng(1)
    z = rng.normal(size=27)
    values, names = rng.normal(size=(27, 2)), ["TF_A", "g1"]  # nothing tracks z*
    plain = listed_text(prop(names=["g1"], profile=z), values, names, ["TF_A"])
    assert plain.startswith(" No listed regulator tracks z* beyond chance") and "regulator not on the list" in plain
    odd = listed_text(prop(names=["g1"], profile=z, flagged=True), values, names, ["TF_A"])
    assert odd.startswith(" No listed regulator tracks z* beyond chance") and "not on the list" not in odd
    assert "more likely those conditions than a regulator" in odd


class TestParentText:
    """A listed regulator already a parent of most members (newcomer walk, session 25: TF003 a parent of
    25 of 26 members, "no listed regulator tracks z* beyond chance" before Accept, "TF003's activity?"
    only after)."""

    NAMES = ["TF1", "TF2", *[f"g{i}" for i in range(10)]]

    def members(self, k):
        return SimpleNamespace(members=list(range(2, 2 + k)), removed_edges=[])

    def test_named_when_a_parent_of_most_members(self):
        from explorer.proposal_regulators import parent_text

        parents = {c: ((0, 1) if c < 8 else (1,)) for c in range(12)}  # TF1 -> g0..g5, TF2 -> all
        said = parent_text(self.members(10), parents.get, self.NAMES, ["TF1", "TF2", "TF9"])
        assert said.startswith(" **TF2** is already a parent of 10 of the 10 members")
        assert "the part of TF2's activity its level misses, or a separate regulator for which TF2" in said

    def test_not_named_below_half_below_five_unlisted_or_removed(self):
        from explorer.proposal_regulators import parent_text

        parents = {c: ((0,) if c < 6 else ()) for c in range(12)}  # TF1 -> g0..g3 only
        assert parent_text(self.members(10), parents.get, self.NAMES, ["TF1"]) == ""  # 4 of 10
        assert parent_text(self.members(4), parents.get, self.NAMES, ["TF1"]) == ""  # 4 of 4, under 5
        allp = {c: (0, 12) for c in range(12)}  # TF1 and an accepted hidden variable (index 12)
        assert "TF1** is already a parent of 6 of the 6" in parent_text(self.members(6), allp.get, self.NAMES, ["TF1"])
        assert parent_text(self.members(6), allp.get, self.NAMES, ["TF2"]) == ""  # TF1 not listed
        assert parent_text(self.members(6), allp.get, self.NAMES, None) == ""
        gone = SimpleNamespace(members=list(range(2, 8)), removed_edges=[("TF1", f"g{i}") for i in range(3)])
        assert parent_text(gone, allp.get, self.NAMES, ["TF1"]) == ""  # 3 left of 6: its edges go with Accept

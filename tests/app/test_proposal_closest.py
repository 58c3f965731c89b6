"""The Hidden page's "closest variable outside the set" in words (explorer.proposal_text.closest_text):
with a regulator list, a close variable that is not listed is most likely a member the cluster left
out, not the regulator (a yeast table: a 27-gene proposal whose closest outside gene, |r| = 0.95,
was the module's 28th gene)."""

from __future__ import annotations

from types import SimpleNamespace

from explorer.proposal_text import carrier_text, closest_text


def proposal(closest: str, corr: float, explained_by: str | None = None):
    return SimpleNamespace(closest=closest, closest_corr=corr, explained_by=explained_by)


def test_close_unlisted_variable_is_called_a_likely_member():
    said = closest_text(proposal("YBR577C", 0.95), ["TF1", "TF2"])
    assert said.startswith("Closest variable outside the set: **YBR577C** (|correlation with z*| = 0.95): ")
    assert "not on the regulator list" in said and "most likely a member the cluster left out" in said


def test_plain_sentence_otherwise():
    plain = "Closest variable outside the set: **{}** (|correlation with z*| = {:.2f})."
    assert closest_text(proposal("g7", 0.95), None) == plain.format("g7", 0.95)  # no list: may be the regulator
    assert closest_text(proposal("g7", 0.6), ["TF1"]) == plain.format("g7", 0.6)  # not close
    assert closest_text(proposal("TF1", 0.95), ["TF1"]) == plain.format("TF1", 0.95)  # listed: a candidate parent
    assert closest_text(proposal("g7", 0.95, "TF1"), ["TF1"]) == plain.format("g7", 0.95)  # explained: said apart


def test_carrier_member_is_a_hub_only_when_the_profile_is_not_odd():
    """A member that already carries z* is the set's hub; not when z* rests on one odd condition
    (a flagged proposal), where the text names the condition instead."""

    def prop(by, flagged=False):
        odd = ["salt_2h"] if flagged else []
        return SimpleNamespace(explained_by=by, names=["g1", "g2", "g3"], flagged=flagged, high_leverage=odd)

    assert carrier_text(prop(None)) == ""
    assert carrier_text(prop("g9")) == " **g9 already explains this cluster.**"
    assert "(a hub of the set)" in carrier_text(prop("g2"))
    odd = carrier_text(prop("g2", flagged=True))
    assert odd.startswith(" **Member g2 already carries this profile**, the member that tracks z* best")
    assert "a hub of the set)" not in odd and "not read as a hub of the set while z* rests on salt_2h" in odd

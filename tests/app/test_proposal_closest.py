"""The Hidden page's "closest variable outside the set" in words (explorer.proposal_text.closest_text):
with a regulator list, a close variable that is not listed is most likely a member the cluster left
out, not the regulator (a yeast table: a 27-gene proposal whose closest outside gene, |r| = 0.95,
was the module's 28th gene)."""

from __future__ import annotations

from types import SimpleNamespace

from explorer.proposal_text import closest_text


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

"""The one-operon reading on the Hidden page (engine/hidden/operon.py): an accepted H's report line
and a proposal's warning say "likely one operon" when most children / members are one run of adjacent
locus tags, and nothing on a synthetic table's generic names; the words are the engine's."""

from __future__ import annotations

from types import SimpleNamespace

from engine.hidden.operon import operon_reading
from engine.hidden.report import ChildLoading, RegulatorReport
from explorer.proposal_text import operon_warning
from explorer.report_lines import report_line

NAMES = [f"b{k:04d}" for k in range(2400, 2460)]
KIDS = ["b2415", "b2416", "b2417", "b2418", "b2419", "b2420", "b2450"]


def _report(names: list[str]) -> RegulatorReport:
    idx = [NAMES.index(k) for k in KIDS]
    kids = [ChildLoading(names[i], 0.9, "+", 0.8, 0.9) for i in idx]
    return RegulatorReport("H2", kids, names[idx[0]], 0.9, 120.0, 110.0, extra={"operon": operon_reading(idx, names)})


def test_an_accepted_h_on_one_operon_is_named():
    line = report_line(_report(NAMES), None)
    assert (
        "**One operon?** H2: 6 of its 7 children are adjacent genes b2415-b2420: likely one operon "
        "(co-transcribed), not a regulator." in line
    )
    generic = [f"g{k:04d}" for k in range(2400, 2460)]
    assert "One operon?" not in report_line(_report(generic), None)


def test_a_proposal_on_one_operon_is_warned():
    members = [NAMES.index(k) for k in KIDS]
    text = operon_warning(SimpleNamespace(members=members), NAMES)
    assert text == (
        "This proposal: 6 of its 7 members are adjacent genes b2415-b2420: likely one operon (co-transcribed), "
        "not a regulator. Listed after the other proposals, and Run auto sets it aside; Accept it here if you know "
        "a regulator of these genes beyond their shared transcript."
    )
    assert operon_warning(SimpleNamespace(members=members[::3]), NAMES) is None  # b2415, b2418, b2450: no run of 3

"""learn's stderr note on a program on in two conditions only, set aside by --hidden auto (#22 item 3)."""

from __future__ import annotations

from types import SimpleNamespace

from engine.cli.reports import report_hidden


def _aside(members: int, flagged_by: list[str], step: list[str]) -> dict:
    names = [f"g{i}" for i in range(members)]
    return {
        "members": names,
        "n_members": members,
        "source": "on/off step" if step else "profiles",
        "estimated_gain": -12.0,
        "leverage": 0.48,
        "flagged_instances": flagged_by,
        "step_conditions": step,
    }


def test_a_two_condition_program_is_named_with_both_conditions_and_the_odd_condition_stays(capsys):
    heat = ["WT_heat_r1", "WT_heat_r2"]
    net = SimpleNamespace(
        hidden=[],
        flagged_proposals=[_aside(100, ["cond17"], []), _aside(31, heat, heat)],
        score_info={},
    )
    est = SimpleNamespace(max_hidden=3, hidden_log_=["network without hidden variables", "stopped"])
    report_hidden(est, net)
    err = capsys.readouterr().err
    assert "2 proposed hidden variable(s) set aside" in err and "'cond17', 'WT_heat_r1' and 'WT_heat_r2'" in err
    assert "one of them is a program on in 'WT_heat_r1' and 'WT_heat_r2' only (31 variables" in err
    assert err.count("a program on in") == 1  # the odd condition is not called a program


def test_the_way_to_leave_a_condition_out_fits_the_file(capsys):
    """Session 29: ``--drop`` names a labelled condition (quoted when it has a space); rows without
    labels are named by their number, to delete from the file."""
    net = SimpleNamespace(hidden=[], flagged_proposals=[_aside(40, ["day 3"], [])], score_info={})
    est = SimpleNamespace(max_hidden=3, hidden_log_=["stopped"])
    report_hidden(est, net)
    assert "leave it out: --drop 'day 3'" in capsys.readouterr().err
    net.flagged_proposals = [_aside(40, ["12"], [])]
    report_hidden(est, net, labelled=False)
    err = capsys.readouterr().err
    assert "delete its row of the file (data row 12: the rows have no labels for --drop)" in err


def test_a_kept_h_read_as_activity_or_curve_is_said(capsys):
    """Session 16: a kept H the report reads as a listed TF's activity gets a line."""
    h = {
        "name": "H1",
        "children": [f"g{i}" for i in range(59)],
        "parents": [],
        "activity": {"regulator": "asoL", "shared": 54, "share": 54 / 59, "cosine": -0.96, "flagged": True},
    }
    quiet = {**h, "name": "H2", "activity": {**h["activity"], "flagged": False}}
    net = SimpleNamespace(hidden=[h, quiet], flagged_proposals=[], score_info={})
    report_hidden(SimpleNamespace(max_hidden=3, hidden_log_=[]), net)
    err = capsys.readouterr().err
    assert "H1: asoL is a parent of 54 of its 59 children and H1's coefficients on them are asoL's" in err
    # both readings, in the explorer's words (docs/decisions/activity-flag-two-readings.md): a separate
    # regulator moving with asoL's level gives the same proportional coefficients
    assert "H1 may be the part of asoL's activity its measured level misses" in err
    assert "or a separate regulator of these genes whose activity moves with asoL's level" in err
    assert "whether these genes are known asoL targets tells them apart" in err
    assert "read H1 as asoL's activity" not in err and "not a new regulator" not in err
    assert "H2:" not in err


def test_a_kept_h_that_replaced_a_listed_tf_is_said(capsys):
    """Session 25: an H that took over a listed TF's children (engine/hidden/activity.py takeover_match)
    is said with the children it took and the link, and the same two readings."""
    took = {"regulator": "ebgR", "link": "child", "taken": 171, "share": 0.81, "cover": 0.97, "flagged": True}
    h = {
        "name": "H1",
        "children": [f"g{i}" for i in range(211)],
        "parents": [],
        "activity": {**took, "form": "takeover"},
    }
    net = SimpleNamespace(hidden=[h], flagged_proposals=[], score_info={})
    report_hidden(SimpleNamespace(max_hidden=3, hidden_log_=[]), net)
    err = capsys.readouterr().err
    assert "H1: 171 of its 211 children were ebgR's in the network before H1 (97% of ebgR's children then)" in err
    assert "and ebgR is now H1's child" in err
    assert "H1 may be the part of ebgR's activity its measured level misses" in err

"""The Hidden page's member correlations (explorer/member_heatmaps.py; QA walk, #22): when no member
has a parent outside the set, its values and ideal profiles correlate alike and two identical
heatmaps side by side read as a bug: one is drawn, with a line saying why."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page(same: bool) -> AppTest:
    def script(same):
        from types import SimpleNamespace

        import numpy as np

        from explorer.member_heatmaps import member_correlations

        values = np.array([[1.0, 0.8, 0.3], [0.8, 1.0, 0.4], [0.3, 0.4, 1.0]])
        ideal = values if same else np.array([[1.0, 0.2, 0.1], [0.2, 1.0, 0.5], [0.1, 0.5, 1.0]])
        member_correlations(SimpleNamespace(names=["a", "b", "c"], member_corr=values, ideal_corr=ideal))

    return AppTest.from_function(script, args=(same,), default_timeout=30).run()


def _titles(at: AppTest) -> list[str]:
    import json

    return [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]


def test_one_heatmap_when_ideal_profiles_are_the_values():
    at = _page(True)
    assert not at.exception
    assert _titles(at) == ["Members' values = ideal profiles: correlations between members"]
    assert any("their ideal profiles are their values" in c.value for c in at.caption)


def test_two_heatmaps_when_they_differ():
    at = _page(False)
    assert not at.exception
    assert _titles(at) == [
        "Members' values: correlations between members",
        "Members' ideal profiles: correlations between members",
    ]
    assert not at.caption


def test_cell_values_printed_only_for_a_few_members():
    # 42 members printed 1,764 numbers over one another (QA walk, yeast cell-cycle table)
    import numpy as np

    from explorer.hidden_plots import MAX_ANNOTATED, correlation_heatmap

    def printed(n):
        names = [f"g{i}" for i in range(n)]
        return bool(correlation_heatmap(names, np.eye(n), "t").data[0].texttemplate)

    assert printed(3) and printed(MAX_ANNOTATED) and not printed(MAX_ANNOTATED + 1) and not printed(42)

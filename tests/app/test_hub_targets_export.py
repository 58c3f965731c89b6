"""The explorer's regulator report of the current network passes the regulator list (#22, session
19): ``scale.CurrentFit.report`` is what the JSON export and the Hidden page use, and
``hub_targets`` reads a parentless H only against the listed regulators, as the CLI's
``HiddenSearch.report`` does. Before, that path passed no list and the reading was missing there."""

from __future__ import annotations

import numpy as np

from engine.io import from_array
from explorer import actions, export
from explorer.session import SearchSession


def test_export_reads_a_parentless_h_against_the_list():
    rng = np.random.default_rng(1)
    m = 60
    h = rng.normal(size=m)
    cols = {"TF2": rng.normal(size=m), "TF3": rng.normal(size=m)}  # listed, unrelated to the module
    cols.update({f"g{j}": 0.9 * h + 0.4 * rng.normal(size=m) for j in range(8)})
    cols.update({f"g{j}": rng.normal(size=m) for j in range(8, 14)})
    ds = from_array(np.column_stack(list(cols.values())), list(cols))
    session = SearchSession(ds, None, "module", None, ["TF2", "TF3"])
    session.start_run(None)
    while session.run_chunk(0.5):
        pass
    actions.accept_hidden(session, session.propose_hidden(3)[0])
    (entry,) = export.export_dict(session)["hidden"]
    assert not entry["parents"] and len(entry["children"]) >= 2  # a parentless H: only the list reads it
    hub = entry["hub_targets"]
    assert hub is not None and hub["closest"] and hub["regulators"][0] in ("TF2", "TF3")
    (cli,) = session.hidden.report()  # the CLI's path (HiddenSearch.report, em.regulators)
    assert cli.extra["hub_targets"]["regulators"] == hub["regulators"]

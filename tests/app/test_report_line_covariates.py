"""The regulator report's line on the Hidden variables page with a covariate table loaded: the
covariates join the regulator list as parents, but "none of the N listed regulators is its parent"
counts only the names the user listed (a biologist's 15 TFs, not 17 with batch and age)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest
from test_hidden_page import PAGE, planted

from engine.io.covariates import add_covariates, code_covariates
from engine.io.covariates import with_covariates as engine_with_covariates
from explorer import state
from explorer.session import SearchSession


def test_the_line_counts_the_listed_regulators_not_the_covariates(repo_root):
    ds, kids = planted()
    ds = replace(ds, instance_labels=tuple(f"s{i}" for i in range(ds.n_samples)))
    frame = pd.DataFrame({"id": list(ds.instance_labels), "batch": np.array(["b0", "b1"] * (ds.n_samples // 2))})
    cov = code_covariates(frame, ds.instance_labels, ds.names)
    data = add_covariates(ds, cov)
    listed = [n for n in ds.names if n not in kids][:5]  # five TFs, none of them the factor's children
    at = AppTest.from_file(str(repo_root / "app.py"), default_timeout=120)
    at.run()
    at.session_state[state.SESSION] = SearchSession(
        data, None, "planted", regulators=engine_with_covariates(listed, cov.names)
    )
    at.switch_page(PAGE).run()
    at.button(key="ip_hidden_accept").click().run()
    assert not at.exception
    lines = [m.value for m in at.markdown if m.value.startswith("**H1**")]
    assert lines and "(none of the 5 listed regulators is its parent)" in lines[0], lines

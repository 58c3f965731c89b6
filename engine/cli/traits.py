"""``learn --traits FILE``: the kept hidden variables read against the samples' traits, not modelled.

:func:`read_traits` reads and codes the sheet before the search (a bad file fails at once, not after
it), :func:`say_traits` puts WGCNA's module-trait table of the kept hidden variables into the result
(``traits``) and each hidden variable's followed trait into its entry (``trait``), and says one line per
hidden variable (:mod:`engine.hidden.traits`). ``--covariates`` puts annotations into the model; ``--traits``
only reads what the search found by them.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from ..exceptions import ParameterError
from .output import say

__all__ = ["TRAITS_HELP", "read_traits", "say_traits"]

#: ``--traits``'s help
TRAITS_HELP = (
    "sample traits (sex, batch, tissue, age...) to read the kept hidden variables by, not put into the model: a "
    "CSV/TSV whose first column holds DATA's instance ids; each hidden variable's profile is correlated with every "
    "trait (a text column as indicators COLUMN=LEVEL), Student p and BH q, as WGCNA's module-trait table; under "
    "'traits' in the result. Needs --hidden auto or --two-layer"
)


def read_traits(args: argparse.Namespace, dataset):
    """The coded traits of ``--traits`` for ``dataset``'s instances (None without the option); said on stderr."""
    path = getattr(args, "traits", None)
    if path is None:
        return None
    if not (args.hidden == "auto" or args.two_layer):
        raise ParameterError("--traits reads the hidden variables the search keeps: give it with --hidden auto.")
    from ..hidden.traits import code_traits
    from ..io.covariates import read_covariate_table

    label = os.path.basename(path)
    traits = code_traits(read_covariate_table(path, label), dataset.instance_labels, source=label)
    say(f"traits (read, not modelled): {traits.line()}")
    return traits


def say_traits(result: dict, traits) -> None:
    """:func:`engine.hidden.traits.attach_traits` on ``learn``'s result, and one stderr line per hidden
    variable: the trait it follows, or the closest one."""
    from ..hidden.traits import attach_traits, trait_text

    relations = attach_traits(result, traits)
    hidden = result.get("hidden") or []
    for h in hidden:
        if h["trait"] is not None:
            say(f"  {trait_text(h['trait'], h['name'])}")
            continue
        mine = [x for x in relations if x.hidden == h["name"] and np.isfinite(x.r)]
        if mine:
            top = max(mine, key=lambda x: abs(x.r))
            say(f"  {h['name']}: follows no sample trait (closest {top.trait}, r = {top.r:+.2f}, q {top.q:.2g})")
    if not hidden:
        say("traits: no hidden variable was kept, so none to read by the traits")

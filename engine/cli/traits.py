"""``learn --traits FILE``: the kept hidden variables read against the samples' traits, not modelled.

:func:`read_traits` reads and codes the sheet before the search (a bad file fails at once, not after
it), :func:`attach_traits` puts WGCNA's module-trait table of the kept hidden variables into the result
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

__all__ = ["TRAITS_HELP", "attach_traits", "read_traits"]

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


def attach_traits(result: dict, traits) -> None:
    """``result["traits"]``: the source, what each column became and every (hidden variable, trait)
    relationship; each hidden entry's ``trait``: the one it follows, or None; one stderr line each."""
    from ..hidden.traits import followed_trait, trait_relations, trait_text

    hidden = result.get("hidden") or []
    profiles = {h["name"]: np.asarray(h["profile"], dtype=float) for h in hidden if h.get("profile")}
    relations = trait_relations(profiles, traits)
    result["traits"] = {
        "source": traits.source,
        "described": list(traits.described),
        "traits": list(traits.names),
        "relationships": [x.to_dict() for x in relations],
    }
    for h in hidden:
        best = followed_trait(relations, h["name"])
        h["trait"] = None if best is None else best.to_dict()
        if best is not None:
            say(f"  {trait_text(h['trait'], h['name'])}")
            continue
        mine = [x for x in relations if x.hidden == h["name"] and np.isfinite(x.r)]
        if mine:
            top = max(mine, key=lambda x: abs(x.r))
            say(f"  {h['name']}: follows no sample trait (closest {top.trait}, r = {top.r:+.2f}, q {top.q:.2g})")
    if not hidden:
        say("traits: no hidden variable was kept, so none to read by the traits")

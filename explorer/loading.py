"""Where the explorer's data come from: the bundled samples, uploads and synthetic networks.

Each loader returns ``(Dataset, true edges or None)`` through the engine's readers
(:func:`engine.io.load_table`, :mod:`engine.synth`) and is cached with ``st.cache_data`` (a copy
per caller, keyed by the file's bytes or the generator's settings), so a rerun that changed
nothing parses nothing.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import streamlit as st

from engine.cpd import DEFAULT_CPD
from engine.data import Dataset
from engine.exceptions import ParameterError
from engine.interventions import attach_conditions, read_targets, split_condition
from engine.io import MAX_MISSING, from_frame, load_table, read_table
from engine.synth import random_network, sample_dataset

__all__ = [
    "SAMPLE_DIR",
    "SAMPLES",
    "DEFAULT_SAMPLE",
    "load_truth",
    "load_sample",
    "parse_upload",
    "make_synthetic",
    "sample_design",
    "sample_frame",
    "read_upload",
    "upload_source",
    "sample_source",
    "lost_upload_text",
    "upload_lost",
]


def lost_upload_text() -> str:
    """Shown where the uploader still names a file the server no longer holds."""
    sec = float(st.get_option("server.disconnectedSessionTTL"))
    ttl = f"{sec / 3600:g} h" if sec >= 3600 else f"{sec / 60:g} min" if sec >= 60 else f"{sec:g} s"
    return (
        "The uploaded file is no longer on the server: this tab was disconnected longer than the server keeps a "
        f"session ({ttl} here), or the server restarted, and a new session began with the bundled sample. Remove "
        "the file (×) and upload it again."
    )


def upload_lost(value) -> bool:
    """Whether the uploader's session-state ``value`` is a file the server's upload store no longer
    holds (Streamlit's ``DeletedFile``: it has a file id but no contents; the widget itself returns None)."""
    return value is not None and hasattr(value, "file_id") and not hasattr(value, "getvalue")


SAMPLE_DIR = Path(__file__).resolve().parent.parent / "sample_data"

#: Bundled samples: label -> (data file, truth edge file or None, load options)
SAMPLES: dict[str, tuple[str, str | None, dict]] = {
    "Sachs 2005 T-cell signalling (853 cells x 11 proteins, log scale)": (
        "sachs2005_observational_log.csv",
        "sachs2005_consensus_edges.csv",
        {},
    ),
    "Sachs 2005 with its nine conditions (7466 cells x 11 proteins, log scale, interventions)": (
        "sachs2005_all_conditions_log.csv",
        "sachs2005_consensus_edges.csv",
        {"design": ("condition", "sachs2005_targets.csv")},
    ),
    "Arabidopsis arth150 network sample (1000 x 107 genes)": (
        "arth150_sample.csv",
        "arth150_edges.csv",
        {},
    ),
    "Synthetic linear-Gaussian network (500 x 20)": (
        "synthetic_20.csv",
        "synthetic_20_edges.csv",
        {},
    ),
}
DEFAULT_SAMPLE = next(iter(SAMPLES))


def load_truth(path: Path) -> list[tuple[str, str]]:
    """Read a (parent, child[, weight]) edge CSV into a list of name pairs."""
    frame = pd.read_csv(path, dtype=str)
    return [(str(p), str(c)) for p, c in zip(frame["parent"], frame["child"], strict=True)]


@st.cache_data(show_spinner=False)
def load_sample(
    label: str, standardize: bool = True, design: tuple | None = None
) -> tuple[Dataset, list[tuple[str, str]] | None]:
    """Load a bundled sample and its reference network (cached across reruns and sessions);
    ``design``: its experimental design (:func:`explorer.interventions_panel.controls`)."""
    data_file, truth_file, opts = SAMPLES[label]
    own = opts.get("design")
    opts = {k: v for k, v in opts.items() if k != "design"}
    if own is not None and design is None:  # its conditions unused: all rows as observational
        opts["drop"] = (own[0],)
    if design is not None:
        frame = sample_frame(label)
        dataset = with_design(frame, data_file, design, standardize=standardize, **opts)
    else:
        dataset = load_table(SAMPLE_DIR / data_file, standardize=standardize, **opts)
    truth = load_truth(SAMPLE_DIR / truth_file) if truth_file else None
    return dataset, truth


@st.cache_data(show_spinner=False, max_entries=4)
def sample_frame(label: str) -> pd.DataFrame:
    """A bundled sample's table as read (its columns: for picking a condition column)."""
    return read_table(SAMPLE_DIR / SAMPLES[label][0])


@st.cache_data(show_spinner=False, max_entries=4)
def read_upload(data: bytes, name: str) -> pd.DataFrame:
    """An uploaded file's table as read (its columns: for picking a condition column)."""
    return read_table(io.BytesIO(data), name=name)


def sample_design(label: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """A bundled sample's own condition column and targets table, or None (observational)."""
    design = SAMPLES[label][2].get("design")
    if design is None:
        return None
    return design[0], tuple(read_targets(SAMPLE_DIR / design[1]))


@st.cache_data(show_spinner=False, max_entries=16)
def parse_upload(
    data: bytes, name: str, transpose: bool, standardize: bool, design: tuple | None = None, header: str = "check"
) -> Dataset:
    """Parse uploaded file bytes with :func:`load_table` (cached by content), as a lab's file
    needs: text, constant and mostly-missing columns are left out and a repeated name is
    numbered, each said in the notes; missing cells are kept (the session completes them). With
    ``design`` the chosen condition column is taken out and the targets attached. ``header``:
    ``"check"`` (a first line that looks like data is refused, naming the fix), ``"none"`` (the
    first line is data) or ``"first"`` (the first line is the header, numbers or not)."""
    opts = {"drop_non_numeric": True, "drop_constant": True, "rename_repeats": True, "max_missing": MAX_MISSING}
    opts.update(no_header=header == "none", check_header=header == "check")
    if design is not None:
        if transpose:
            raise ParameterError("a condition column cannot be used with variables in rows: untick the transpose.")
        frame = read_table(io.BytesIO(data), name=name)
        return with_design(frame, name, design, standardize=standardize, **opts)
    return load_table(io.BytesIO(data), name=name, transpose=transpose, standardize=standardize, **opts)


def upload_source(name: str, transpose: bool, standardize: bool, design: tuple | None, header: str) -> dict:
    """How an upload is read, in the CLI's settings names (the export's ``settings``): the explorer
    reads a lab's file as ``--skip-unusable --number-repeats`` do."""
    out = {"data": name, "transpose": transpose, "standardize": standardize, "skip_unusable": True}
    out.update(number_repeats=True, no_header=header == "none", **({"header": True} if header == "first" else {}))
    return {**out, **_design_source(design)}


def sample_source(label: str, standardize: bool = True, design: tuple | None = None) -> dict:
    """How a bundled sample is read, in the CLI's settings names (run from the repository's root)."""
    data_file, _, opts = SAMPLES[label]
    own = opts.get("design")
    out = {"data": f"sample_data/{data_file}", "standardize": standardize}
    if own is not None and design is None:
        out["drop"] = [own[0]]
    elif own is not None and tuple(design[1]) == sample_design(label)[1]:  # its own targets file
        return {**out, **_design_source(design), "targets": f"sample_data/{own[1]}"}
    return {**out, **_design_source(design)}


def _design_source(design: tuple | None) -> dict:
    """An experimental design ``(column, targets, intercepts)`` in the CLI's settings names (the
    targets as pairs: the rerun command names a file holding them, engine.cli.rerun)."""
    if design is None:
        return {}
    column, targets, intercepts = design
    return {"condition": column, "targets": [list(t) for t in targets], "condition_intercept": bool(intercepts)}


def with_design(frame: pd.DataFrame, source: str, design: tuple, *, standardize: bool, **opts) -> Dataset:
    """``frame`` without its condition column, as a Dataset carrying the design ``(column, targets,
    intercepts)`` (:func:`engine.interventions.attach_conditions`; pooled standardization)."""
    column, targets, intercepts = design
    rest, labels = split_condition(frame, column, source)
    dataset = from_frame(rest, standardize=standardize, source=source, **opts)
    return attach_conditions(dataset, labels, list(targets), column=column, intercepts=bool(intercepts))


@st.cache_data(show_spinner=False, max_entries=16)
def make_synthetic(
    n_vars: int, n_samples: int, seed: int, standardize: bool = True, cpd: str = DEFAULT_CPD
) -> tuple[Dataset, list[tuple[str, str]]]:
    """A random network with ``cpd`` families, data sampled from it, and its true edges."""
    net = random_network(int(n_vars), seed=int(seed), cpd=cpd)
    dataset = sample_dataset(net, int(n_samples), seed=int(seed) + 1, standardize=standardize)
    return dataset, net.edges()

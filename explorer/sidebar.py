"""The sidebar: where the data come from, how they are read, and the search settings.

Built by ``app.py`` before the page runs, so its widgets keep their values on every page. Data
are (re)loaded only when the source settings change (see :func:`explorer.state.install_dataset`);
a rejected file leaves the previous data loaded and its message is shown in the page.
"""

from __future__ import annotations

import streamlit as st

from engine.cpd import CPD_CHOICES, CPD_TYPES, DEFAULT_CPD, cpd_settings, get_cpd
from engine.exceptions import IdealParentError
from engine.io import LEFT_OUT, NO_VALUES, RENAMED, omissions, orientation_warning
from engine.score import SCORES
from engine.search.settings import MEASURES, METHODS, QUEUES
from explorer import (
    counts_box,
    covariates_box,
    gene_names,
    gene_sets_box,
    geo_covariates,
    interventions_panel,
    lab_options,
    leave_out,
    load_notes,
    loading,
    regulator_ids,
    state,
    traits_box,
)
from explorer.fill_choice import FILL_NAMES, fill_of

__all__ = ["render", "SOURCES", "ORIENTATIONS", "uploaded_orientation"]

SOURCES = ("Bundled sample", "Upload a file", "Synthetic network (known truth)")
ORIENTATIONS = ("variables in columns", "variables in rows (transpose)")
#: how the sidebar names the engine's choices (engine.search.settings: METHODS, MEASURES, QUEUES)
LABELS = {
    "ideal": "Ideal parent (top K)",
    "greedy": "Greedy (all candidates)",
    "c2": "C2",
    "c1": "C1",
    "shared": "shared (Add + Replace)",
    "per_operator": "per operator",
    "auto": "auto (by the data's shape)",
    "bic": "BIC (the paper's)",
    "ebic": "extended BIC (wide data)",
}


def _data_source() -> None:
    source = st.radio("Data source", SOURCES, key=state.W_SOURCE)
    standardize = st.checkbox(
        "Standardize each variable (mean 0, variance 1)",
        value=True,
        key=state.W_STANDARDIZE,
        help="The paper's C1/C2 use uncentred profiles; on standardized data centring does not matter.",
    )
    if source == SOURCES[0]:
        label = st.selectbox("Sample", list(loading.SAMPLES), key=state.W_SAMPLE)
        design = interventions_panel.controls(label, lambda: loading.sample_frame(label), loading.sample_design(label))
        state.install_dataset(
            ("sample", label, standardize) + ((design,) if design else ()),
            label,
            lambda: loading.load_sample(label, standardize, design),
            loading.sample_source(label, standardize, design),
        )
    elif source == SOURCES[1]:
        uploaded = st.file_uploader(
            "CSV, TSV, Excel or Parquet file (header row of names; .gz read too)",
            type=["csv", "tsv", "txt", "tab", "xlsx", "xls", "parquet", "gz"],
            key=state.W_UPLOAD,
        )
        turned = uploaded_orientation()
        data = None if uploaded is None else uploaded.getvalue()
        # the file's identity (hashed once per rerun): what UPLOAD_SEEN holds and DATA_KEY starts with
        seen = None if uploaded is None else ("upload", uploaded.name, len(data), hash(data))
        new_file = seen is not None and state.get(state.UPLOAD_SEEN) != seen
        followed = state.get(state.ORIENT_FOLLOWED)
        if not new_file and turned is not None and state.get(state.ORIENT_SHOWN) not in (None, turned):
            # the data were turned round (Transpose, or its Undo) since the radio was drawn: follow them
            st.session_state[state.W_ORIENT] = ORIENTATIONS[int(turned)]
            state.put(state.ORIENT_FOLLOWED, ORIENTATIONS[int(turned)])
        elif new_file and followed is not None:
            # the radio was turned by the previous file's Transpose, not by the user: a new file is
            # read as it is (the orientation box still offers to turn it)
            if st.session_state.get(state.W_ORIENT) == followed:
                st.session_state[state.W_ORIENT] = ORIENTATIONS[0]
            state.put(state.ORIENT_FOLLOWED, None)
        if new_file and state.get(state.UPLOAD_SEEN) is not None:
            lab_options.forget_header_choice()  # how the last file's first line was read is not this one's
        if seen is not None:
            state.put(state.UPLOAD_SEEN, seen)
        orientation = st.radio(
            "Orientation",
            ORIENTATIONS,
            key=state.W_ORIENT,
            help="Expression matrices often come genes x conditions: variables in rows. The Transpose "
            "button of the Home and Search pages turns the loaded data round the same way (undoably).",
        )
        transpose = orientation == ORIENTATIONS[1]
        header = lab_options.header_option()
        if uploaded is None and loading.upload_lost(st.session_state.get(state.W_UPLOAD)):
            st.warning(loading.lost_upload_text())  # the uploader still shows the file's name: say it is gone
        elif uploaded is None:
            state.forget_failed_load()  # a file that did not load was removed: its message goes with it
            st.caption("Choose a file; the current data stay loaded until then.")
        else:
            key = (*seen, transpose, standardize)
            design = interventions_panel.controls(
                f"upload {uploaded.name} {len(data)}", lambda: loading.read_upload(data, uploaded.name), None
            )
            key += (design,) if design else ()
            key += (("header", header),) if header != "check" else ()
            source = loading.upload_source(uploaded.name, transpose, standardize, design, header)
            current = state.get(state.DATA_KEY)
            same_file = turned is not None and current[:4] + current[5:] == key[:4] + key[5:]
            if not (same_file and transpose == turned):  # already loaded this way round: nothing to do
                with st.spinner(f"Reading {uploaded.name} ({len(data) / 1e6:,.1f} MB)...", show_time=True):
                    state.install_dataset(
                        key,
                        uploaded.name,
                        lambda: (
                            loading.parse_upload(data, uploaded.name, transpose, standardize, design, header),
                            None,
                        ),
                        source,
                    )
            lab_options.header_fix()
        state.put(state.ORIENT_SHOWN, uploaded_orientation())
    else:
        with st.form("synthetic_form", border=False):
            c1, c2, c3 = st.columns(3)
            c1.number_input("N vars", min_value=2, max_value=300, value=20, step=1, key=state.W_SYN_N)
            c2.number_input("M rows", min_value=10, max_value=20000, value=500, step=50, key=state.W_SYN_M)
            c3.number_input("seed", min_value=0, max_value=10**6, value=0, step=1, key=state.W_SYN_SEED)
            st.selectbox(
                "CPD of the true network",
                list(CPD_CHOICES),
                key=state.W_SYN_CPD,
                help="How the data are generated. Multiplicative-noise data are positive: untick "
                "'Standardize' to learn them with the multiplicative CPD.",
            )
            st.form_submit_button("Generate", key=state.W_SYN_GO)
        n = int(state.get(state.W_SYN_N, 20))
        m = int(state.get(state.W_SYN_M, 500))
        seed = int(state.get(state.W_SYN_SEED, 0))
        cpd = str(state.get(state.W_SYN_CPD) or DEFAULT_CPD)
        state.install_dataset(
            ("synthetic", n, m, seed, cpd, standardize),
            f"synthetic {cpd} network (N={n}, M={m}, seed={seed})",
            lambda: loading.make_synthetic(n, m, seed, standardize, cpd),
            {"data": f"synthetic_{cpd}_N{n}_M{m}_seed{seed}.csv", "standardize": standardize, "generated": True},
        )


def uploaded_orientation() -> bool | None:
    """Whether the loaded data are an uploaded file with its rows as the variables: loaded with
    transpose, or turned round since by the Transpose button (an undoable data edit), but not
    both. None when the data are not an upload."""
    key, session = state.get(state.DATA_KEY), state.session()
    if session is None or not isinstance(key, tuple) or not key or key[0] != "upload":
        return None
    return bool(key[4]) != session.transposed


def _setting_key(setting) -> str:
    """Widget key of a CPD option (``w_correction`` for the sigmoid k1/k2 correction)."""
    return f"w_{setting.name}"


def _on_apply() -> None:
    get = state.get
    max_parents = int(get(state.W_MAX_PARENTS, 0))
    try:
        regulators = covariates_box.with_covariates(lab_options.regulators_from_widgets())
    except IdealParentError as exc:
        state.put(state.ERROR, f"Settings not applied: {exc}")
        return
    state.put(state.REGULATOR_NOTE, None)
    state.put(regulator_ids.OFFERED, None)
    applied = state.apply_settings(
        {
            "method": get(state.W_METHOD),
            "k": int(get(state.W_K)),
            "measure": get(state.W_MEASURE),
            "queue": get(state.W_QUEUE),
            "max_parents": max_parents if max_parents > 0 else None,  # the widget's 0 means no limit
            "cpd": get(state.W_CPD),
            "score": get(state.W_SCORE, "auto"),
            **{s.name: bool(get(_setting_key(s), s.default)) for s, _ in cpd_settings()},
        },
        regulators,
    )
    if applied:
        state.session().regulator_file = lab_options.regulator_file_name()
        lab_options.say_regulators_applied()
    ids = regulator_ids.reading(regulators, state.session()) if state.session() is not None else None
    if ids is not None:  # a list of gene ids after the genes were named by symbols: say it, offer the mapping
        state.put(regulator_ids.OFFERED, ids)
        if applied:
            note = state.get(state.REGULATOR_NOTE)[1]
            state.put(state.REGULATOR_NOTE, ("warning", f"{note} {regulator_ids.explain(ids)}"))
        else:
            state.put(state.ERROR, f"{state.get(state.ERROR)} {regulator_ids.explain(ids)}")
    elif (
        not applied and (hint := gene_names.symbols_hint(regulators, st.session_state.get(state.W_UPLOAD))) is not None
    ):
        state.put(state.ERROR, f"{state.get(state.ERROR)} {hint}")  # a TF list of symbols beside gene ids


def _settings_form() -> None:
    cur = state.settings().to_dict()
    with st.form("settings_form"):
        st.markdown("**Search settings**")
        st.selectbox(
            "Method",
            METHODS,
            index=METHODS.index(cur["method"]),
            format_func=LABELS.get,
            key=state.W_METHOD,
            help="Ideal parent: rank every candidate by C1/C2 and score only the top K of each family "
            "exactly. Greedy: score every candidate exactly.",
        )
        st.number_input(
            "K (candidates scored per family)",
            min_value=1,
            max_value=100,
            value=int(cur["k"]),
            step=1,
            key=state.W_K,
            help="Ideal method only: how many top-ranked Add/Replace candidates per family are scored exactly.",
        )
        st.radio(
            "Ranking measure",
            MEASURES,
            index=MEASURES.index(cur["measure"]),
            format_func=LABELS.get,
            horizontal=True,
            key=state.W_MEASURE,
        )
        st.radio(
            "Queue",
            QUEUES,
            index=QUEUES.index(cur["queue"]),
            format_func=LABELS.get,
            horizontal=True,
            key=state.W_QUEUE,
        )
        st.number_input(
            "Max parents (0 = no limit)",
            min_value=0,
            max_value=50,
            value=int(cur.get("max_parents") or 0),
            step=1,
            key=state.W_MAX_PARENTS,
        )
        cpds = list(CPD_CHOICES)
        st.selectbox(
            "CPD",
            cpds,
            index=cpds.index(cur["cpd"]),
            format_func=lambda name: get_cpd(name).label,
            key=state.W_CPD,
            help="\n\n".join(f"**{c.name}**: {c.description}" for c in CPD_TYPES),
        )
        for setting, cpds in cpd_settings():
            st.checkbox(
                setting.label,
                value=bool(cur.get(setting.name, setting.default)),
                key=_setting_key(setting),
                help=f"{'/'.join(cpds).capitalize()} CPD only. {setting.help} Compare both on the Bounds page.",
            )
        st.selectbox(
            "Score",
            SCORES,
            index=SCORES.index(cur["score"]),
            format_func=LABELS.get,
            key=state.W_SCORE,
            help="BIC is the paper's score. The extended BIC adds a penalty for choosing parents among many "
            "candidates, and keeps networks sparse and predictive when variables outnumber rows (or with a "
            "regulator list). Auto uses BIC for tall data and EBIC otherwise.",
        )
        current = state.session()
        st.text_area(
            "Candidate regulators (optional)",
            value="\n".join(current.regulators) if current is not None and current.regulators else "",
            key=state.W_REGULATORS,
            height=80,
            placeholder="one name per line, e.g. known transcription factors",
            help="Only these variables may become parents. Names not in the data are reported and ignored. "
            "Empty: every variable may be a parent.",
        )
        note = state.get(state.REGULATOR_NOTE)
        if note is not None:
            (st.info if note[0] == "info" else st.warning)(note[1])
        st.file_uploader(
            "…or a regulator file",
            type=["txt", "csv", "tsv", "tab"],
            key=lab_options.regulator_file_key(),
            help="One name per line, or a CSV/TSV with names in the first column; # comments ignored.",
        )
        st.form_submit_button(
            "Apply",
            on_click=_on_apply,
            key=state.W_APPLY,
            help="Restart the search with these settings.",
        )


def _summary() -> None:
    session = state.session()
    if session is None:
        return
    dataset = session.dataset
    st.markdown(f"**Loaded:** {session.label}")
    st.caption(session.prepared.loaded.summary())
    counts_box.sidebar_offer()  # raw counts: log2 CPM offered, or said once applied
    if session.prepared.completion is not None or session.prepared.pending:
        how = "" if session.prepared.pending else f" by {FILL_NAMES[fill_of(session.prepared.completion)]}"
        when = " once the orientation is settled" if session.prepared.pending else " for the search"
        st.caption(f"Missing cells filled{how}{when} (see the Home page).")
    truth = session.truth
    if truth is not None:
        st.caption(f"Known true network: {len(truth)} edges (see Truth & export).")
    in_rows = bool(uploaded_orientation())
    # genes still in rows (the orientation box offers Transpose): their text columns are annotations too
    turnable = not in_rows and state.memo(
        "orientation_warning", session.data_version, lambda: orientation_warning(dataset)
    )
    for note in omissions(dataset.notes):  # a column that cannot be used (or was renamed) is said so visibly
        annotations = load_notes.annotation_columns(note, in_rows or bool(turnable))
        if annotations is not None:  # a description column beside gene ids: expected, not a problem
            st.caption(load_notes.annotation_note(annotations))
            if in_rows:  # its symbols as the genes' names, once the genes are the variables
                gene_names.offer(annotations, st.session_state.get(state.W_UPLOAD))
        elif note.startswith(leave_out.LEFT_OUT):  # the Hidden page's data edit: said plainly, not as a problem
            st.caption(f"Left out here: {note[len(leave_out.LEFT_OUT) :]} (Undo on the Search page brings it back).")
        elif note.startswith(RENAMED):
            st.warning(f"Renamed: {note[len(RENAMED) :]}.", icon="⚠️")
        elif note.startswith(NO_VALUES):  # a failed sample, kept: the user decides
            st.warning(f"Check: {note[0].upper()}{note[1:]}.", icon="⚠️")
        else:
            st.warning(f"Not used: {note[len(LEFT_OUT) :]}.", icon="⚠️")
    if dataset.notes:
        with st.expander("What loading did"):
            for note in dataset.notes:
                st.markdown(f"- {load_notes.in_app_words(note)}")


def render() -> None:
    """Draw the sidebar and load data / apply settings as the user asks.

    A message in ``state.ERROR`` (a rejected file or setting) is shown in the sidebar and at the
    top of the page.
    """
    with st.sidebar:
        st.header("Data")
        before = state.session()
        _data_source()
        if state.session() is not before and before is not None:
            lab_options.recheck_regulators()
        _summary()
        _settings_form()
        regulator_ids.offer(_on_apply)  # after a list of ids on genes named by symbols
        covariates_box.sidebar_box()
        geo_covariates.offer()  # a GEO series matrix's sample characteristics, one click
        gene_sets_box.sidebar_box()
        traits_box.sidebar_box()  # read against the hidden variables, not modelled
        error = state.get(state.ERROR)
        if error:
            st.error(error, icon="⚠️")
    error = state.get(state.ERROR)
    if error:
        st.error(error)

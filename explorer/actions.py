"""What the explorer's Undo takes back: one stack of actions, each knowing how to undo itself.

A :class:`StepAction` is one Step (the main search's move and, in compare mode, the twin's); an
:class:`AcceptHidden` is an accepted hidden variable (JMLR 2007 section 5): structural EM
re-learned the network around it, and undoing it restores the search from before. Actions live on
:attr:`explorer.session.SearchSession.undo_stack`. A :class:`TransposeData` is a data edit: the
data set turned round (variables in rows become columns), with a new search on it; undoing it
restores the data as loaded and the search on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.data import Dataset
from engine.hidden import ClusterProposal, HiddenSearch
from engine.hidden.leverage import profile_leverage
from engine.hidden.verdict import baseline_model, pay_breakdown, score_parts
from engine.io import MAX_MISSING, transpose_dataset
from engine.io.covariates import without_covariates
from engine.io.regulators import resolve_regulators
from engine.learn import IdealParentSearch
from engine.listing import first_few
from explorer.fill_choice import fill_of
from explorer.prepared import PreparedData, prepare
from explorer.track import SearchTrack

if TYPE_CHECKING:
    from explorer.session import SearchSession

#: what :func:`accept_hidden`'s message says of a hidden variable that does not pay (the page shows it as a warning)
NOT_PAY = "it does NOT pay"
#: in an Accept message whose hidden profile rests on one or two conditions (shown as a warning)
ODD_PROFILE = "but one or two conditions carry"

__all__ = [
    "Action",
    "StepAction",
    "AcceptHidden",
    "accept_hidden",
    "hidden_search",
    "install_hidden",
    "without_twin",
    "DataState",
    "searched_data",
    "edit_data",
    "TransposeData",
    "transpose_data",
]


class Action(Protocol):
    """An undoable action of a session."""

    def undo(self, session: SearchSession) -> str:
        """Take the action back; returns what was undone, in words."""
        ...


@dataclass(frozen=True)
class StepAction:
    """One Step: the searches named in ``moved`` ("main", "twin") each applied a move."""

    moved: tuple[str, ...]

    def undo(self, session: SearchSession) -> str:
        # the latest step is the last move of whichever search(es) took the most steps (a twin
        # that converged earlier, or was started later, keeps its moves)
        tracks = session.tracks()
        top = max(track.stepper.n_iter for _, track in tracks)
        if top == 0:
            return "Nothing to undo: no search has a move."
        undone = None
        for which, track in tracks:
            if track.stepper.n_iter == top:
                move = track.stepper.history[-1]
                track.undo()
                if which == "main":
                    undone = move
        if undone is None:
            return "Undid the comparison search's last move."
        return f"Undid {undone.op.name.capitalize()} {undone.edge_label(session.variable_names())}."


def without_twin(action: Action) -> Action | None:
    """``action`` once the comparison search is gone: a step keeps only the main search's move
    (None when it moved only the twin); other actions are unchanged."""
    if isinstance(action, StepAction) and "twin" in action.moved:
        moved = tuple(m for m in action.moved if m != "twin")
        return StepAction(moved) if moved else None
    return action


@dataclass
class AcceptHidden:
    """An accepted hidden variable; keeps the search from before to restore it."""

    previous: SearchTrack
    previous_hidden: HiddenSearch | None
    name: str

    def undo(self, session: SearchSession) -> str:
        session.install(self.previous, self.previous_hidden)
        if "," in self.name:  # an automatic run's Hs, taken back together
            return f"The accepted hidden variables {self.name} were taken back."
        return f"The accepted hidden variable {self.name} was taken back."


#: children named in an Accept message; the rest are counted (all are in the page's tables)
MESSAGE_CHILDREN = 12


def _children_text(children: list[str]) -> str:
    """'a, b, c' for a few children; the first :data:`MESSAGE_CHILDREN` and a count for more."""
    if not children:
        return "no variable (EM dropped its edges)"
    if len(children) <= MESSAGE_CHILDREN:
        return ", ".join(children)
    return f"{len(children)} variables ({first_few(children, MESSAGE_CHILDREN)}: see the tables below)"


def hidden_search(session: SearchSession) -> HiddenSearch:
    """A new hidden-variable search (:class:`engine.hidden.HiddenSearch`) from the session's current
    network, with its settings and candidate regulators: where Accept and the Hidden page's automatic
    run start structural EM (JMLR 2007 section 6)."""
    names = session.variable_names()
    return HiddenSearch(
        session.dataset,
        session.settings,
        initial_edges=[(names[p], names[c]) for p, c in session.stepper.edges()],
        em_options={"regulators": session.regulators},  # the data's covariates stay parents only (StructuralEM)
    )


def install_hidden(session: SearchSession, hs: HiddenSearch, name: str) -> None:
    """Make ``hs``'s network the session's search (EM ran its structure search to convergence unless it
    stopped at its iteration limit: the export says so, #14), undoable: :class:`AcceptHidden` named
    ``name`` restores the search before."""
    previous = (session.main, session.hidden)
    session.install(SearchTrack(hs.em.stepper, converged=bool(hs.em.converged_)), hs)
    session.push(AcceptHidden(*previous, name=name))


def accept_hidden(session: SearchSession, proposal: ClusterProposal, progress=None) -> str:
    """Add a hidden variable as parent of the proposal's members and re-learn the network by
    structural EM (:meth:`engine.hidden.HiddenSearch.accept`); the result becomes the session's
    search and the acceptance goes on the undo stack. Returns a report with the observed-data
    BIC before and after. ``progress(stage, fraction)`` is told each stage and EM iteration."""
    say = progress or (lambda stage, fraction: None)
    if session.hidden is None:
        hs = hidden_search(session)
    else:
        # work on a copy: the HiddenSearch before the acceptance is what Undo restores
        hs = session.hidden.copy()
        hs.set_edges(session.stepper.edges())
    # the baseline is the network before Accept searched to convergence (HiddenSearch.accept), so
    # the reported change is the hidden variable's, not the search's (#12)
    say("searching the network without it to convergence (the baseline)", 0.02)
    base = baseline_model(hs)  # HiddenSearch.baseline_score's network, kept for the split of the change
    parts = score_parts(base)
    baseline = parts[0] - parts[1]
    steps = 2 * hs.em.max_iter  # EM over H's Markov blanket, then over the whole network
    done = [0]

    def tick(it) -> None:
        done[0] += 1  # iterations of both stages (each counts its own from 1)
        say(f"structural EM, iteration {it.iteration} ({it.n_edges} edges)", min(0.3 + 0.65 * done[0] / steps, 0.95))

    say("structural EM over the new variable's Markov blanket, then the whole network", 0.3)
    hv = hs.accept(proposal, baseline=baseline, callback=tick)
    hv.breakdown = pay_breakdown(base, hs.em, parts)  # log-likelihood and penalty (engine.hidden.verdict)
    install_hidden(session, hs, hv.name)
    verdict = (
        "it pays"
        if hv.realized_gain > 0
        else f"{NOT_PAY}: the network without it scores at least as well (why, with the figures, under "
        "Accepted hidden variables); Undo takes it back"
    )
    odd = profile_leverage(hs.hidden_profile(hv.name), session.dataset.instance_labels)
    if hv.realized_gain > 0 and odd.instances:  # it pays by the score, on one odd sample
        share = sum(sorted(odd.share)[-len(odd.instances) :])
        verdict += (
            f", {ODD_PROFILE} {share:.0%} of its profile ({' and '.join(map(str, odd.instances))}): a one-off "
            "condition (a failed sample, a shock), not a regulator acting across the data; check those "
            "conditions before trusting it"
        )
    return (
        f"Added {hv.name} as parent of {_children_text(hv.children)}; "
        f"structural EM ran over its Markov blanket, then over the whole network ({len(hs.em.edges)} edges). "
        f"Observed-data {session.score_label}: {hv.baseline_score:,.2f} for the network before Accept "
        f"searched to convergence, {hv.score_after:,.2f} with {hv.name}: realized change "
        f"{hv.realized_gain:+,.2f} (estimated {hv.estimated_gain:+,.2f}); {verdict}. The Search page "
        "shows the new network with a fresh move log; Undo (here or on the Search page) goes back."
    )


@dataclass(frozen=True)
class DataState:
    """A session's data set and the search on it, as a data edit replaces and Undo restores them."""

    dataset: Dataset
    truth: list[tuple[str, str]] | None
    #: None for new data (the session gives them a new version)
    data_version: int | None
    main: SearchTrack
    hidden: HiddenSearch | None
    rejected: frozenset
    transposed: bool
    #: the data as loaded (turned round by a transpose) and as searched (completed when cells are missing)
    prepared: PreparedData
    #: the candidate regulators in force on these data (None: every variable may be a parent)
    regulators: list[str] | None = None


def searched_data(
    session: SearchSession,
    data: Dataset,
    regulators: list[str] | None,
    *,
    transposed: bool,
    truth: list[tuple[str, str]] | None = None,
    progress=None,
    settled: bool = False,
    fill: str | None = None,
) -> DataState:
    """New data for ``session`` (a data edit: turned round, renamed, or kept as loaded) with a new search
    on them: ``data`` prepared (:func:`explorer.prepared.prepare`: missing cells completed by structural
    EM or the quick fill, told ``progress``; ``settled``: the orientation kept as it is; ``fill``: which,
    default :func:`explorer.fill_choice.default_fill`) and the same stepper a new session builds
    (:func:`explorer.session.make_stepper`), with the session's settings and ``regulators``, ranked
    now so that the first Step is as quick as the others. Raises
    :class:`~engine.exceptions.IdealParentError` when the engine refuses the data (nothing changes)."""
    prepared = prepare(data, session.settings, regulators, progress=progress, settled=settled, fill=fill)
    stepper = IdealParentSearch(**session.settings.to_dict(), regulators=regulators).make_stepper(prepared.searched)
    stepper.refresh()
    track = SearchTrack(stepper)
    return DataState(prepared.searched, truth, None, track, None, frozenset(), transposed, prepared, regulators)


def edit_data(session: SearchSession, data: Dataset, regulators: list[str] | None, action, progress=None) -> DataState:
    """A data edit that keeps the orientation and the fill as settled (held cells stay held, cells filled
    after a Keep are filled again, by the fill chosen): ``data`` with a new search on them
    (:func:`searched_data`) installed, and ``action(previous)`` (its undo keeps the state before) pushed
    on the undo stack. Returns the new state; nothing changes when the engine refuses the data."""
    previous = session.data_state()
    settled, fill = not session.prepared.pending, fill_of(session.prepared.completion)
    edited = searched_data(
        session, data, regulators, transposed=session.transposed, progress=progress, settled=settled, fill=fill
    )
    session.set_data(edited)
    session.push(action(previous))
    return edited


@dataclass(frozen=True)
class TransposeData:
    """The data turned round (a data edit); keeps the data and search from before."""

    previous: DataState

    def undo(self, session: SearchSession) -> str:
        session.set_data(self.previous)
        d = self.previous.dataset
        return f"The transpose was taken back: {d.n_samples} instances x {d.n_vars} variables again."


def transpose_data(session: SearchSession, progress=None, regulators: list[str] | None = None) -> str:
    """Turn the session's data as loaded round (:func:`engine.io.transpose_dataset`), complete
    them again when cells are missing (:func:`explorer.prepared.prepare`, told ``progress``) and
    start a search on them with the same settings and the names of ``regulators`` that are
    variables of the turned data (a list of gene ids names rows until the genes become the
    variables); the edit goes on the undo stack. Nothing changes when the turned data or the new
    search are refused (an :class:`~engine.exceptions.IdealParentError`). Covariates annotate the
    instances, which become the variables: they are set aside (Undo brings them back)."""
    # the uploads' rule (explorer.loading): a turned-round variable mostly missing is left out, named
    covariates = session.prepared.loaded.covariates
    turned = transpose_dataset(without_covariates(session.prepared.loaded), max_missing=MAX_MISSING)
    regs = resolve_regulators(list(dict.fromkeys(regulators or ())), turned.names)[0] or None  # tf2 = TF2 too
    previous = session.data_state()
    # the true network (if any) is over the old variables
    new = searched_data(session, turned, regs, transposed=not session.transposed, progress=progress)
    session.set_data(new)
    session.push(TransposeData(previous))
    dataset = new.dataset
    aside = (
        f" The covariates ({', '.join(covariates)}) annotate the old instances, now the variables: set aside."
        if covariates
        else ""
    )
    return (
        f"Transposed: {dataset.n_samples} instances x {dataset.n_vars} variables (the rows were the "
        f"variables).{aside} Undo takes it back."
    )

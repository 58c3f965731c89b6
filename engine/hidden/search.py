"""Learning with hidden variables: propose, accept or reject, and the automatic protocol.

Ties :mod:`engine.hidden.proposals` (cluster proposals from ideal profiles, JMLR 2007 section 5) to
:mod:`engine.hidden.em` (structural EM, section 6):

* :class:`HiddenSearch` keeps the current model (observed variables plus the hidden variables
  accepted so far), proposes clusters on it, and accepts a proposal by adding a hidden variable
  ``H1``, ``H2``, ... as parent of the cluster's members, initialized from the cluster's profile z*,
  then running structural EM; a rejected proposal is never proposed again.
* :meth:`HiddenSearch.auto` follows the paper's protocol (section 9.2): propose, add the best
  cluster if its estimated gain is positive (a cluster of ideal profiles: in the paper's
  complete-data estimate too), search, and repeat until adding a hidden variable no
  longer improves the observed-data BIC (or ``max_hidden`` is reached). With ``two_layer=True``
  only hidden -> observed edges are allowed and the first hidden variable is the parent of every
  observed variable, as in the paper's experiments; ``greedy_hidden=True`` gives the paper's
  Greedy baseline, where every new hidden variable is a parent of all observed variables.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np

from ..data import Dataset
from ..exceptions import ParameterError
from ..parent_only import child_candidates
from ..search import SearchSettings, Stepper
from .candidates import propose_from_search
from .common_start import start_of
from .considered import Considered
from .em import MISSING_HANDLING, StructuralEM
from .marginal import markov_blanket
from .member_cover import uncovered_keys
from .out_of_sample import refusal
from .proposals import ClusterProposal
from .report import READINGS, HiddenVariable, RegulatorReport, regulator_report
from .room import make_room
from .trial import SMALL_MAX_FAILURES, auto_step, carry_posteriors, climb, first_tried, is_small
from .trying_order import Turns, trying_order
from .verdict import baseline_model

__all__ = ["HiddenSearch", "HiddenVariable"]

#: proposals in a row that :meth:`HiddenSearch.auto` tries without a gain before it stops
MAX_FAILURES = 2


class HiddenSearch:
    """The current network with hidden variables, and the operations on it.

    Parameters
    ----------
    dataset : Dataset
        Observed data (may have missing cells).
    settings : SearchSettings or dict, optional
        Search settings of every M-step (method, k, measure, queue, max_parents).
    two_layer : bool
        Only hidden -> observed edges (the paper's two-layer setting); ``max_parents`` then bounds
        the hidden parents of each observed variable.
    initial_edges : iterable of (parent name, child name)
        Starting structure over the observed variables.
    em_options : dict
        Passed to :class:`StructuralEM` (max_iter, tol, ...).

    ``turns``: kept though ``trying_order.FAMILY_TURN`` is off, so the measured rule can be turned on.
    """

    def __init__(
        self,
        dataset: Dataset,
        settings: SearchSettings | dict | None = None,
        *,
        two_layer: bool = False,
        initial_edges=(),
        em_options: dict | None = None,
        seed: int | None = None,
    ) -> None:
        self.dataset = dataset
        self.settings = SearchSettings.coerce(settings)
        self.two_layer = two_layer
        self.em_options = dict(em_options or {})
        self.rng = np.random.default_rng(seed)
        self.hidden: list[HiddenVariable] = []
        self.rejected: set[frozenset] = set()
        self.considered = Considered()  # flagged proposals set aside by auto, and its progress lines
        self.turns = Turns()  # the families' turns in auto's trying order (.trying_order)
        self.initial_edges = list(initial_edges)
        self.em = self._structural_em(initial_edges=self.initial_edges)
        if dataset.has_missing:
            # posterior moments of the missing cells under the given structure (no search yet)
            self.em.e_step(self.em.params())

    def _structural_em(self, **kwargs) -> StructuralEM:
        """Structural EM on the data with these settings, EM options and ``kwargs``."""
        options = {**self.em_options, **kwargs}
        return StructuralEM(self.dataset, self.settings, two_layer=self.two_layer, **options)

    # ------------------------------------------------------------------ state
    @property
    def names(self) -> list[str]:
        return self.em.names

    @property
    def n_observed(self) -> int:
        return self.em.n_obs

    def edges(self) -> list[tuple[str, str]]:
        return [(self.names[p], self.names[c]) for p, c in self.em.edges]

    def copy(self) -> HiddenSearch:
        """A copy whose changes (accepting, rejecting, new edges) leave this one as it is, e.g. to
        keep the state before an acceptance for undo. The data and the posterior arrays are
        shared: no operation changes them in place."""
        new = copy.copy(self)
        new.hidden = [replace(h, children=list(h.children), members=list(h.members)) for h in self.hidden]
        new.rejected = set(self.rejected)
        new.turns = replace(self.turns, used=set(self.turns.used))
        new.em = copy.copy(self.em)
        new.em.edges = list(self.em.edges)
        return new

    def set_edges(self, edges) -> None:
        """Take the structure a search reached from this model (index pairs over :attr:`names`,
        e.g. after the user stepped the search further) as the current one."""
        self.em.edges = sorted((int(p), int(c)) for p, c in edges)
        self._refresh_children()

    def observed_bic(self) -> float:
        return self.em.observed_bic()

    def hidden_profile(self, name: str) -> np.ndarray:
        """Posterior mean of a hidden variable over the instances."""
        return self.em.mean[:, self.names.index(name)].copy()

    def _current_stepper(self) -> Stepper:
        if self.em.stepper is None:
            self.em.stepper = self.em.make_stepper()
        return self.em.stepper

    # ------------------------------------------------------------- proposals
    def propose(self, n_proposals: int = 5, **kwargs) -> list[ClusterProposal]:
        """Ranked cluster proposals over the observed variables of the current model."""
        stepper = self._current_stepper()
        # a hidden parent of two variables is never better than an edge between them, where
        # edges between observed variables are allowed
        kwargs.setdefault("min_size", 2 if self.two_layer else 3)
        reg = self.em.regulators  # with a regulator list only regulators (and H's) can explain a cluster
        kwargs.setdefault("explainers", None if reg is None else np.r_[reg, self.n_observed : len(self.names)])
        kwargs.setdefault("labels", self.dataset.instance_labels)
        return propose_from_search(
            stepper,
            self.em.mean,
            self.names,
            candidates=child_candidates(self.names[: self.n_observed], [self.names[i] for i in self.em.parent_only]),
            n_proposals=n_proposals,
            exclude=self.rejected,
            **kwargs,
        )

    def reject(self, proposal: ClusterProposal) -> None:
        """Never propose this cluster again."""
        self.rejected.add(proposal.key)

    def _check_current(self, proposal: ClusterProposal) -> None:
        unknown = [n for n in proposal.names if n not in self.names[: self.n_observed]]
        if unknown:
            raise ParameterError(
                f"the proposal names variable(s) {unknown} that are not observed variables of the current model."
            )

    def baseline_score(self) -> float:
        """Observed-data score of the current network without a new variable, searched to
        convergence (on a copy; the current model is left as it is)."""
        return baseline_model(self).observed_bic()  # .verdict

    def accept(
        self,
        proposal: ClusterProposal,
        *,
        children: list[str] | None = None,
        callback: Callable | None = None,
        baseline: float | None = None,
        screen: bool = False,
    ) -> HiddenVariable:
        """Add a hidden variable as parent of the proposal's members, replacing the edges among
        them (thesis ch. 4 conversion), and run structural EM: first over the new variable's
        Markov blanket, then over the whole network (variant 2, then 3). The result records the
        observed-data score before (``baseline``, default :meth:`baseline_score`) and after.
        With ``screen`` (used by :meth:`auto`) the full search is skipped when the Markov-blanket
        stage does not beat the baseline; the variable is then reported at that stage's score."""
        self._check_current(proposal)
        if baseline is None:
            baseline = self.baseline_score()
        profile, gone = start_of(self, proposal)  # z*, or the members' common profile (.common_start)
        kids, cut = children or proposal.names, float(baseline) if screen else None
        hv = self._add_hidden(
            profile, kids, proposal.estimated_gain, proposal.names, callback, removed=gone, screen=cut
        )
        hv.source = proposal.source
        hv.removed_edges = list(proposal.removed_edges)
        hv.baseline_score = float(baseline)
        hv.score_after = self.observed_bic()
        return hv

    def _add_hidden(
        self, profile, children, gain, members, callback=None, informed: bool = True, removed=(), screen=None
    ) -> HiddenVariable:
        name, before = self._next_name(), self.edges()  # the network before H (the report's takeover reading)
        roots = {self.names[i] for i in self.em.parent_only}  # covariates: never a child (the two-layer start)
        children = [c for c in children if c not in roots]
        skip_full = False
        cap = self.settings.max_parents
        if self.two_layer and cap is not None:
            # respect the bound on hidden parents per observed variable
            count = {self.names[c]: 0 for c in range(self.n_observed)}
            for _, c in self.em.edges:
                if self.names[c] in count:
                    count[self.names[c]] += 1
            children = [c for c in children if count.get(c, 0) < int(cap)]
            if not children:
                raise ParameterError(f"every member already has max_parents = {cap} hidden parents; no edge to add.")
        gone = {tuple(e) for e in removed}
        warmup = {} if informed or "warmup" in self.em_options else {"warmup": 50}
        em = self._new_model(name, profile, children, [e for e in self.edges() if e not in gone], **warmup)
        if informed and not self.two_layer:
            # structural EM over the new variable's Markov blanket first (thesis ch. 4, variant 2)
            free = markov_blanket(em.edges, em.names.index(name)) | {em.names.index(name)}
            em.frozen = ~np.isin(np.arange(em.n_vars), sorted(free))
            em.run(callback=callback)
            em.frozen = None
            if screen is not None and em.observed_bic() <= screen:
                skip_full = True  # the blanket alone does not pay: auto moves on (no full search)
        if not skip_full:
            em.run(callback=callback)
        self.em = em
        hv = HiddenVariable(name, [], gain, list(members), edges_before=before)  # its children: _refresh_children
        self.hidden.append(hv)
        self._refresh_children()
        return hv

    def _new_model(self, name: str, profile, children, edges, **kwargs) -> StructuralEM:
        """Structural EM with the current hidden variables plus ``name`` (started at ``profile``,
        parent of ``children``) and the edges ``edges`` (name pairs); the earlier hidden variables
        start at their current posterior."""
        if not self.two_layer:  # a member at the parent cap gives up its weakest parent(s) to H
            children, edges, _ = make_room(self.em, profile, list(children), list(edges))
        hidden = {h.name: (self.hidden_profile(h.name), []) for h in self.hidden}
        hidden[name] = (np.asarray(profile, dtype=float), list(children))
        em = self._structural_em(hidden=hidden, initial_edges=edges, **kwargs)
        carry_posteriors(em, self.em, [h.name for h in self.hidden])
        return em

    def _refresh_children(self) -> None:
        for h in self.hidden:
            h.children = [self.names[c] for p, c in self.em.edges if self.names[p] == h.name]

    def _next_name(self) -> str:
        used = set(self.names)
        i = 1
        while f"H{i}" in used:
            i += 1
        return f"H{i}"

    def fit_structure(self, callback: Callable | None = None) -> None:
        """Run structural EM on the current model (learns the observed structure if not yet done)."""
        self.em.run(callback=callback)
        self._refresh_children()

    # ------------------------------------------------------------ automatic
    def auto(
        self, max_hidden: int = 5, *, greedy_hidden: bool = False, progress: Callable[[str], None] | None = None
    ) -> list[HiddenVariable]:
        """The paper's protocol (section 9.2): add hidden variables while the observed-data score
        improves.

        The network without hidden variables is searched to convergence first, and proposals are
        made on it (ideal-profile clusters and semi-cliques, each scored with the edges inside the
        set removed). A proposal is tried when its estimate is positive or it is a semi-clique (the
        estimate keeps the rest of the network fixed, which the thesis found too pessimistic when
        the edges around the set must be re-learned); see :meth:`_auto_candidates` for the order.
        A cluster of ideal profiles that is not a semi-clique must also have a positive estimate
        in the paper's own complete-data form (section 5: the members' C2 plus the root
        log-likelihood of z*, as if z* were observed; ``complete_gain``), as before #12. The
        observed-data estimate integrates H out and never charges for H's own values, so on small
        samples it is positive for clusters that share little more than noise; the complete-data
        form charges M times the entropy of a standard normal, which the members' C2 pays back
        only when they determine H well (two-layer benchmark: 10 hidden variables kept instead of
        8 at M = 50 and 7 at M = 100 without it, worse on test; docs/decisions/hidden-regulators-keep-rule-small-m.md).
        On a general network (not two-layer) each proposal is tried by :func:`~.trial.try_proposal` (#22): from
        the learned network (structural EM over H's Markov blanket, then everywhere) and, on networks of at most
        ``RELEARN_MAX_VARS`` observed variables, from a re-learned structure; H's children are screened by their
        dependence on E[H | x]. H is kept only if its observed-data score beats the network before it, searched
        to convergence (#12), and every network without it re-searched from where it led (on null networks a
        hidden variable otherwise gets the credit for leading the search out of a local optimum), by more than
        ``trial.KEEP_MARGIN`` nats; its realized gain is measured against the best of them, and when H is not
        kept but such a network beats the one before, auto continues from it (the best such network). There,
        every network without H and every model with H is also climbed with random restarts
        (:func:`~.trial.climb`), the network before the first proposal included. A proposal that does not pay is
        set aside and the next is tried (``MAX_FAILURES`` in a row end the search, ``SMALL_MAX_FAILURES`` on
        small networks); set-aside clusters are not added to the user's rejections. Why it stopped, and at
        ``max_hidden`` what it left untried: ``considered.stop`` (:mod:`.untried`).
        """
        say = self.considered.start(progress, self.names[: self.n_observed])
        score = f"observed {self.em.score_choice.name.upper()}"  # BIC, or EBIC on wide data
        baseline = self._structural_em(initial_edges=self.initial_edges)
        if self.two_layer:
            obs = list(self.names[: self.n_observed])
            self._add_hidden(self.rng.normal(size=self.dataset.n_samples), obs, math.nan, obs, informed=False)
            say(f"added H1 as parent of all observed variables; {score} {self.observed_bic():.2f}")
            best = self.observed_bic()
        else:
            baseline.run()
            if is_small(self):  # random restarts (#22): engine/hidden/trial.py
                baseline = climb(baseline)
            best = baseline.observed_bic()
            say(f"network without hidden variables: {score} {best:.2f}")
            self.em = baseline
        failures = 0
        skipped: set[frozenset] = set()  # tried by auto and not kept; not the user's rejections
        while len(self.hidden) < max_hidden:
            snapshot = (self.em, list(self.hidden))
            last_prop = None
            if greedy_hidden:
                obs = list(self.names[: self.n_observed])
                hv = self._add_hidden(self.rng.normal(size=self.dataset.n_samples), obs, math.nan, obs, informed=False)
                if is_small(self):  # the same search effort as the climbed network before (#22)
                    self.em = climb(self.em)
                    self._refresh_children()
                hv.baseline_score, hv.score_after = best, self.observed_bic()
            elif self.n_observed < 2:  # a hidden variable needs a cluster of at least two children
                say("fewer than 2 observed variables, so no cluster to propose")
                break
            elif not self.two_layer:  # general network (#22): see engine/hidden/trial.py
                kept, best = auto_step(self, skipped, before := best, say, score)
                h = self.hidden[-1] if kept else None  # item 3: one or two instances (.few_instances); one operon
                why = h and refusal(self, snapshot[0])  # .few_instances, one operon (.considered), .out_of_sample
                if why:
                    say(why)
                    (self.em, self.hidden), kept, best = snapshot, False, before
                if kept is None:
                    break
                failures = 0 if kept else failures + 1
                if failures >= (SMALL_MAX_FAILURES if is_small(self) else MAX_FAILURES):
                    say("stopped")
                    break
                continue
            else:
                accept = partial(self.accept, baseline=best, screen=True)
                last_prop, hv = first_tried(self._auto_candidates(skipped), accept, skipped, say)
                if hv is None:
                    say("no cluster with a positive estimated gain, and no semi-clique, is left")
                    break
            after = self.observed_bic()
            if after <= best:
                self.em, self.hidden = snapshot
                failures += 1
                say(f"adding {hv.name} did not improve the {score} ({after:.2f} <= {best:.2f})")
                if greedy_hidden or last_prop is None or failures >= MAX_FAILURES:
                    say("stopped")
                    break
                skipped.add(last_prop.key)  # try the next proposal
                continue
            failures = 0
            best = after
            say(f"added {hv.name} -> {', '.join(hv.children)}; {score} {after:.2f} ({hv.realized_gain:+.2f})")
        if not self.hidden and not self.two_layer and self.em is not baseline and best <= baseline.observed_bic():
            self.em = baseline
        self._refresh_children()
        self.considered.stopped(self.hidden, skipped, max_hidden)  # why, and what is left untried (.untried)
        return self.hidden

    def _auto_candidates(self, skipped: set[frozenset]) -> list[ClusterProposal]:
        """The proposals :meth:`auto` tries, none tried before, in :mod:`.trying_order`'s order. A flagged
        proposal (one or two instances hold most of z*'s energy, #22) is never tried, nor, above 150
        variables, one a listed regulator explains, unless that is a member whose children cover few of
        the others (:mod:`.member_cover`)."""
        props = self.propose(n_proposals=10 + len(skipped), tried_steps=self.considered.tried_steps(skipped))
        props = [p for p in self.considered.set_aside(props) if p.key not in skipped]
        kept, free = [h.source or "" for h in self.hidden], uncovered_keys(props, self.em.edges, self.names)
        order = trying_order(props, two_layer=self.two_layer, small=is_small(self), kept_sources=kept, turns=self.turns,
                             uncovered=free)  # fmt: skip
        return self.considered.announce(order)

    def report(self) -> list[RegulatorReport]:
        """The regulator report of every accepted hidden variable (:mod:`.report`)."""
        par = self.em.params()
        gains = {h.name: (h.estimated_gain, h.realized_gain) for h in self.hidden}
        labels, before = self.dataset.instance_labels, {h.name: h.edges_before for h in self.hidden}  # .activity
        regs = self.em.regulators  # hub_targets and the takeover reading read H against the listed regulators
        return regulator_report(
            self.names, self.n_observed, par.coef, par.variance, self.em.mean, gains, labels, regs, before
        )

    def summary(self, reports: list[RegulatorReport] | None = None) -> dict:
        """JSON-friendly description of the hidden variables and missing-value handling, with the
        regulator ``reports`` of the network being described (default :meth:`report`, EM's fit)."""
        reports = {r.name: r.to_dict() for r in (self.report() if reports is None else reports)}
        hidden = []
        for h in self.hidden:
            d = h.to_dict(self.hidden_profile(h.name), self.dataset.instance_labels)
            rep = reports.get(h.name, {})
            d["closest_observed"], d["closest_corr"] = rep.get("closest_observed"), rep.get("closest_corr")
            d.update({k: rep.get(k) for k in READINGS})  # the report's readings of H (.report)
            d["report"] = rep.get("children", [])
            d["parents"] = rep.get("parents", [])  # H <- regulator edges (#22)
            d["parents_r2"] = rep.get("parents_r2", 0.0)
            hidden.append(d)
        return {
            "hidden": hidden,
            "missing_values": MISSING_HANDLING if self.dataset.has_missing else "none",
            "observed_bic": self.observed_bic(),
            "observed_loglik": self.em.observed_loglik(),
            "em_iterations": len(self.em.history),
            **self.considered.to_json(),  # flagged_proposals, and untried_proposals at max_hidden (.untried)
        }

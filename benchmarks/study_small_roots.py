"""Where ``auto`` loses a planted root, one stage at a time (#22 item 1; the small second roots of
``mixed`` and the 5-child roots of ``layered``), with the oracle as reference.

Per seed of a generator of :mod:`planted_general`, ``HiddenSearch(ds).auto(max_hidden=2)`` runs
with its proposal list and every trial recorded (``auto_step`` is wrapped, not changed). A planted
root is *missed* unless a kept H recovers it (P, R >= 0.8, |corr(H, h)| >= 0.9, as
``bench_regulators.general``). For each missed root j, at the round where the roots auto did find
are kept (the search state when ``auto_step`` is first called with that many H's; no H kept: the
first round):

1. **score**: structural EM from the true structure with every planted H at its true h, climbed,
   against the same without H_j (its edges re-searched from the model with it, and from the true
   structure), climbed: would the observed-data score pay for root j given the others?
2. **proposed**: over the candidates ``auto`` listed in that round (every call), the best
   |corr(z*, h_j)|, and the candidate holding most of its children (P, R of its members).
3. **trial**: the planted child set as the proposal through ``auto``'s own ``try_proposal`` on that
   state, profile its z* (scored as a candidate) and the true h_j: does H pay, which children does
   it hold?
4. **keep rule**: a trial ``auto`` ran whose H tracks h_j (|corr| >= 0.9) and was not kept: its
   score against the bar.

Run:  OMP_NUM_THREADS=1 nice -n 15 python benchmarks/study_small_roots.py --gen mixed --seeds 0,2,3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from planted_general import generate_all, true_edges  # noqa: E402
from study_dense_proposals import corr  # noqa: E402

import engine.hidden.search as search_mod  # noqa: E402
import engine.hidden.trial as trial_mod  # noqa: E402
from engine.data import from_array  # noqa: E402
from engine.hidden import HiddenSearch, StructuralEM  # noqa: E402
from engine.hidden.candidates import candidate_proposal, score_candidate  # noqa: E402
from engine.hidden.trial import climb, try_proposal  # noqa: E402


def pr(got: set[int], kids: set[int]) -> tuple[float, float]:
    """Precision and recall of ``got`` against ``kids``."""
    return len(got & kids) / max(len(got), 1), len(got & kids) / len(kids)


def describe(p, names, kids: set[int], h: np.ndarray) -> str:
    """A proposal's source, size, P and R of its members against ``kids``, |corr(z*, h)|."""
    pp, rr = pr({names.index(v) for v in p.names}, kids)
    return f"{p.source} size {len(p.names)} P {pp:.2f} R {rr:.2f} |corr| {corr(p.profile, h):.3f}"


def h_children(em: StructuralEM, name: str) -> set[int]:
    col = em.names.index(name)
    return {c for p, c in em.edges if p == col and c < em.n_obs}


def ceiling(ds, names, edges, kid_sets, hs_true, j: int) -> tuple[float, float]:
    """Stage 1: (with every planted H, best without H_j), both climbed, from the true structure;
    without H_j, the other roots keep their true h and planted children, the observed edges start
    at the true ones and at those the model with H_j reached."""
    hidden = {
        f"H{i + 1}": (h, [names[k] for k in sorted(kids)])
        for i, (kids, h) in enumerate(zip(kid_sets, hs_true, strict=True))
    }
    with_all = StructuralEM(ds, hidden=hidden, initial_edges=edges)
    with_all.run()
    with_all = climb(with_all)
    others = {k: v for k, v in hidden.items() if k != f"H{j + 1}"}
    obs = set(names)
    led = [(with_all.names[p], with_all.names[c]) for p, c in with_all.edges]
    led = [(p, c) for p, c in led if p in obs and c in obs]
    runs = []
    for start in (edges, led):
        em = StructuralEM(ds, hidden=others, initial_edges=start) if others else StructuralEM(ds, initial_edges=start)
        em.run()
        runs.append(climb(em))
    return with_all.observed_bic(), max(r.observed_bic() for r in runs)


class Recorder:
    """Wraps ``auto_step`` and ``try_proposal``: per call the search state, its candidates, its trial."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __enter__(self):
        self._step, self._try = search_mod.auto_step, trial_mod.try_proposal
        rec = self

        def step(search, skipped, best, say, score):
            state = {"k": len(search.hidden), "search": search.copy(), "best": best, "cands": [], "trial": None}
            rec.calls.append(state)
            own = search._auto_candidates

            def listed(sk):
                out = own(sk)
                state["cands"] = list(out)
                return out

            search._auto_candidates = listed
            try:
                return rec._step(search, skipped, best, say, score)
            finally:
                del search._auto_candidates

        def tried(search, proposal, best, callback=None):
            t = rec._try(search, proposal, best, callback)
            rec.calls[-1]["trial"] = (proposal, t, best)
            return t

        search_mod.auto_step, trial_mod.try_proposal = step, tried
        return self

    def __exit__(self, *exc) -> None:
        search_mod.auto_step, trial_mod.try_proposal = self._step, self._try


def planted_trial(search: HiddenSearch, x: np.ndarray, kids: set[int], h: np.ndarray, best: float) -> str:
    """Stage 3: the planted set through try_proposal on ``search``, profile z* and h."""
    stepper = search._current_stepper()
    values = search.em.mean
    parents = [tuple(stepper.parents(c)) for c in range(values.shape[1])]
    xc = values - values.mean(axis=0)
    cs = score_candidate(stepper.model, parents, np.array(sorted(kids)), stepper.scorer, xc)
    prop = candidate_proposal(cs, xc, values, search.names, 0.9, source="planted set")
    out = []
    for label, z in (("z*", prop.profile), ("h", (h - h.mean()) / h.std())):
        prop.profile = z
        t = try_proposal(search.copy(), prop, best)
        p, r = pr(h_children(t.em, t.name), kids)
        bar = max(best, t.alternative_score)
        hc = corr(t.em.mean[:, t.em.names.index(t.name)], h)
        out.append(
            f"{label}{f' |corr| {corr(cs.profile, h):.3f}' if label == 'z*' else ''}: "
            f"{'PAYS' if t.score > bar else 'no'} {t.score - bar:+.1f} ({t.start}), "
            f"H P {p:.2f} R {r:.2f} |corr| {hc:.3f}"
        )
    return "; ".join(out)


def study(gen: str, seed: int, do_ceiling: bool) -> None:
    x, kid_sets, hs_true = generate_all(gen, seed)
    names = [f"X{i + 1}" for i in range(x.shape[1])]
    ds = from_array(x, names, standardize=False)
    c0 = time.process_time()
    hs = HiddenSearch(ds)
    with Recorder() as rec:
        found = hs.auto(max_hidden=2)
    cpu = time.process_time() - c0
    status = []
    for kids, h in zip(kid_sets, hs_true, strict=True):
        best = (0.0, 0.0, 0.0)
        for v in found:
            got = {names.index(c) for c in v.children}
            best = max(best, (corr(hs.hidden_profile(v.name), h), *pr(got, kids)))
        status.append(best)
    ok = [c >= 0.9 and p >= 0.8 and r >= 0.8 for c, p, r in status]
    line = "; ".join(
        f"root {j + 1} ({len(k)} kids) |corr| {s[0]:.3f} P {s[1]:.2f} R {s[2]:.2f}{' ok' if o else ''}"
        for j, (k, s, o) in enumerate(zip(kid_sets, status, ok, strict=True))
    )
    print(f"{gen} seed {seed} M {x.shape[0]} N {x.shape[1]}: kept {len(found)}; {line} ({cpu:.0f} s CPU)", flush=True)
    for j, (kids, h) in enumerate(zip(kid_sets, hs_true, strict=True)):
        if ok[j] or len(kids) < 4:
            continue
        # the round after the H's that track the other roots (found, recovered or not) are kept
        k = min(sum(s[0] >= 0.9 for i, s in enumerate(status) if i != j), len(found))
        calls = [c for c in rec.calls if c["k"] == k] or [
            c for c in rec.calls if c["k"] == max(c2["k"] for c2 in rec.calls)
        ]
        if do_ceiling:
            edges = [(names[p], names[c]) for p, c in true_edges(gen, seed)]
            w, wo = ceiling(ds, names, edges, kid_sets, hs_true, j)
            print(
                f"   root {j + 1}: (1) score, true structure climbed: with {w:.1f}, without {wo:.1f}: "
                f"{'PAYS' if w > wo else 'no'} {w - wo:+.1f}",
                flush=True,
            )
        seen, lines = set(), []
        top = (0.0, None)
        most = (-1.0, None)
        for c in calls:
            for p in c["cands"]:
                if p.key in seen:
                    continue
                seen.add(p.key)
                m = {names.index(v) for v in p.names}
                top = max(top, (corr(p.profile, h), p), key=lambda t: t[0])
                pp, rr = pr(m, kids)
                most = max(most, (pp * rr, p), key=lambda t: t[0])
        tp = top[1]

        def desc(p, kids=kids, h=h) -> str:
            return describe(p, names, kids, h)

        print(
            f"   root {j + 1}: (2) round with {k} H, {len(calls)} calls, {len(seen)} candidates; best |corr| "
            f"{desc(tp) if tp else '-'}; most children {desc(most[1]) if most[1] else '-'}",
            flush=True,
        )
        for c in calls:
            if c["trial"] is None:
                continue
            prop, t, best = c["trial"]
            got = h_children(t.em, t.name)
            pp, rr = pr(got, kids)
            hc = corr(t.em.mean[:, t.em.names.index(t.name)], h)
            bar = max(best, t.alternative_score)
            lines.append(
                f"      tried {desc(prop)}: H |corr| {hc:.3f} P {pp:.2f} R {rr:.2f}, {t.score - bar:+.1f} vs bar "
                f"({t.start}{', lost to the alternative' if t.alternative_score > best and t.score <= bar else ''})"
            )
        print(f"   root {j + 1}: (3/4) trials of that round:\n" + "\n".join(lines), flush=True)
        print(
            f"   root {j + 1}: (3) planted set through the trial: "
            f"{planted_trial(calls[0]['search'], x, kids, h, calls[0]['best'])}",
            flush=True,
        )
    print(f"   ({time.process_time() - c0:.0f} s CPU in all)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", default="mixed")
    ap.add_argument("--seeds", default="0", help="seed indices, comma list")
    ap.add_argument("--no-ceiling", action="store_true")
    args = ap.parse_args()
    for s in args.seeds.split(","):
        study(args.gen, int(s), not args.no_ceiling)


if __name__ == "__main__":
    main()

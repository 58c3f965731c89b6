"""Planted hidden regulators in general networks (#22 deliverable 1): the generators.

Written before any tuning (#22: "write the generators before you tune"). Each draws a random
linear-Gaussian DAG over N observed variables, samples it ancestrally with unit noise, and adds a
hidden root h ~ N(0, 1) as a parent of L planted children *during* the sampling: child v gets
``load_v * sd(x_v before the h term) * h`` with a random sign, so h reaches the children's
descendants as any parent's effect does (the issue's generator). Columns are then scaled to unit
variance. The truth is the planted child set; nothing else has an h term.

Generators (seeds 0-9 unless said):

* ``sparse``  - the issue's: 30 variables, edge probability 0.06, weights +-U(0.5, 1.0), 6 children,
  loads U(1.0, 1.5), M = 500;
* ``dense``   - 30 variables, edge probability 0.2, weights +-U(0.3, 0.8), 4-8 children, small
  loads U(0.6, 1.0), M = 300;
* ``small-m`` - 30 variables, edge probability 0.08, weights +-U(0.5, 1.0), 8-12 children, loads
  U(1.0, 1.5), M = 50;
* ``hub`` (seeds 100-109; the hold-out of the first #22 session, run once at its end, seen since) -
  40 variables, a scale-free DAG by preferential attachment (each new variable takes 1-3 parents
  among the earlier ones with probability proportional to 1 + their number of children), weights
  +-U(0.4, 0.9), 12-20 children, loads U(0.7, 1.2), M = 200;
* ``layered`` (the hold-out of the second #22 session, seeds 200-209, written before any tuning and
  run only on the final code) - 36-48 variables in 4 layers, each variable of a layer a child of
  each variable of the layer above with probability 2.5 / (its size), weights +-U(0.4, 0.9),
  heterogeneous noise (sd log-uniform in [0.5, 2]), *two* hidden roots with disjoint child sets of
  4-20 each drawn from every layer, loads U(0.7, 1.3), M drawn from 50..500 per seed;
* ``upstream`` (the hold-out of the third #22 session, seeds 400-409, written before any tuning of
  that session and run only on its final code) - 25-45 variables, edge probability 0.1, weights
  +-U(0.4, 0.9), heterogeneous noise (sd log-uniform in [0.6, 1.6]), one hidden variable that is
  *not* a root: h = a * x_u + sqrt(1 - a^2) * e with a = +-U(0.5, 0.7) on one observed variable u
  early in the order (a regulator with an upstream signal), 5-15 children drawn after u, loads
  U(0.8, 1.4), M drawn from 100..400 per seed;
* ``modular`` (the hold-out of the fourth #22 session, seeds 600-609, written before any tuning of
  that session and run only on its final code) - 32-44 variables in 3-4 modules of consecutive
  variables in the order, edge probability 0.25 inside a module and 0.02 between modules, weights
  +-U(0.4, 0.9), heterogeneous noise (sd log-uniform in [0.7, 1.4]), one hidden root that is a
  *switch* (h = standardized b + 0.35 e with b ~ Bernoulli(q), q ~ U(0.3, 0.6): a regulator on in
  some samples and off in the others, not Gaussian) with 6-14 children drawn across the modules,
  loads U(0.7, 1.3), M drawn from 150..500 per seed (seen since that session's end);
* ``tanh`` (the hold-out of the fifth #22 session, seeds 800-809, written before any tuning of
  that session and run only on its final code) - 30-50 variables, a random DAG with edge
  probability drawn in [0.08, 0.15] per seed, weights +-U(0.4, 0.9), and *nonlinear* responses:
  each variable is ``lam * s * tanh(d / s) + (1 - lam) * d`` of its drive d (the weighted sum of
  its parents plus the h term), with s = U(0.6, 1.2) x sd(d) and lam = U(0.6, 1.0) per variable (a
  saturating response, partly linear), plus *heavy-tailed* noise (Student t with 4-6 degrees of
  freedom, scaled to sd log-uniform in [0.5, 1.6] per variable) added after the response; one hidden
  root h ~ N(0, 1) with 5-15 children whose h term is ``load * sd(the linear drive + noise) * h``,
  loads U(0.7, 1.4), M drawn from 80..400 per seed (seen since that session's end);
* ``mixed`` (the hold-out of the sixth #22 session, seeds 1000-1009, written before any tuning of
  that session and run only on its final code; its own module, :mod:`planted_mixed`, which says
  what it plants) - 25-60 variables, edge probability drawn in [0.04, 0.12] per seed, linear,
  quadratic, piecewise-linear and heteroscedastic responses mixed in one network, one or two hidden
  roots (4-20 and 3-8 children, possibly one shared), loads U(0.6, 1.6), M from {60, 120, 250, 500};
  a seed is recovered when every root with >= 4 children is (seen since that session's end);
* ``roots`` (the hold-out of the seventh #22 session, seeds 1200-1209, written before any tuning of
  that session and run only on its final code; its own module, :mod:`planted_roots`, which says
  what it plants) - 25-45 variables on a small-world skeleton (ring lattice, rewired edges),
  weights +-U(0.3, 1.0), noise sd log-uniform in [0.4, 2.0] with Laplace noise on about 30 % of
  the variables, one or two *small* hidden roots (4-9 children each, each child with 0-2 observed
  parents, the first root's children local on the ring on half the seeds), loads +-U(0.6, 1.3)
  scaled up to sum c^2 >= 4.5 per root, M drawn from 80..400 (seen since that session's end);
* ``fanin`` (the hold-out of the eighth #22 session, seeds 1400-1409, written before any tuning of
  that session and run only on its final code; its own module, :mod:`planted_fanin`, which says
  what it plants) - 30-60 variables in a DAG where each variable draws its in-degree (0-3), one or
  two hidden roots of 5-15 children each, every child with 1-3 observed co-parents as strong as
  the root (weights and loads +-U(0.7, 2.0)), noise Gaussian, centred gamma or log-normal per
  variable, M drawn from 100..500 (seen since that session's end);
* ``h16g`` (the hold-out of the sixteenth session, seeds 1600-1609, written before any tuning of
  that session and run only by the lead on its final code; its own module, :mod:`planted_h16g`,
  which says what it plants) - 30-55 variables, edge probability drawn in [0.04, 0.10], columns in
  *unstandardised units* (scales over five orders of magnitude, positive offsets), feed-forward
  loops among a root's children, one or two roots (6-18 and 4-10 children, 2-4 shared), weak and
  mixed-sign loads, Gaussian / Student-t / Laplace noise, M drawn from 50..500 (seen since that
  session's end);
* ``h17g`` (the hold-out of the seventeenth session, seeds 1700-1709, written and committed before
  any tuning of that session and run only by the lead on its final code; its own module,
  :mod:`planted_h17g`, which says what it plants) - 40-60 variables on a banded (pathway-like)
  DAG, one hidden variable that is *not* a root (1-2 observed parents explain 25-55 % of it) with
  5-16 children that are all leaves or partly relays with strong children of their own (drawn per
  seed), a third of them on a sigmoid dose-response in h, contaminated or heteroscedastic noise,
  M log-uniform in 50..500 (seen since that session's end);
* ``h18g`` (the hold-out of the eighteenth session, seeds 1800-1809, written and committed before
  any tuning of that session and run only by the lead on its final code; its own module,
  :mod:`planted_h18g`, which says what it plants) - 30-60 variables, a *cascade of two hidden
  regulators* (h1, an on/off master regulator, is a parent of h2, which also has 0-2 observed
  parents; 7-14 children each, 0-2 children of both), every planted child with 2-4 observed parents
  and a hidden parent explaining only 20-50 % of it, 30 % saturating child responses, M log-uniform
  in 50..500 (seen since that session's end);
* ``h19g`` (the hold-out of the nineteenth session, seeds 1900-1909, written and committed before
  any tuning of that session and run only by the lead on its final code; its own module,
  :mod:`planted_h19g`, which says what it plants) - 35-70 variables, mean in-degree 1.5-2.5, one
  *mediator* h with 1-2 observed parents, its first parent also a direct parent of 30-60 % of h's
  4-20 children with the opposite sign (incoherent feed-forward loops), 25-50 % of the children
  responding to h only as far as an observed cofactor is high (h x a sigmoid gate), M log-uniform in
  40..600 (seen since that session's end);
* ``h20g`` (the hold-out of the twentieth session, seeds 2000-2009, written and committed before
  any tuning of that session and run only by the lead on its final code; its own module,
  :mod:`planted_h20g`, which says what it plants) - 30-70 variables, *cyclic*: the samples are the
  equilibria ``e (I - B)^-1`` of linear structural equations with feedback loops; one hidden h
  (a root or with one observed parent) with 4-20 children, 1-2 of which act back on h with the
  opposite sign (a negative feedback loop, as an anti-sigma factor), 1-3 feedback loops among the
  observed variables too, M log-uniform in 50..600 (seen since that session's end);
* ``h21g`` (the hold-out of the twenty-first session, seeds 2100-2109, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h21g`, which says what it plants) - 35-70 variables, one hidden h (a root or with one
  observed parent) with 5-20 children, 1-2 of them measured specific regulators q that also regulate
  40-70 % of h's later children (coherent feed-forward loops on 70 %, incoherent on 30 %), every child
  with 2 or more observed parents besides h, Student-t (3-5 df) structural noise and Gaussian
  measurement error (reliability 0.85-0.97) on every column, M log-uniform in 60..400 (seen since
  session 22's start);
* ``h22g`` (the hold-out of the twenty-second session, seeds 2200-2209, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h22g`, which says what it plants) - 30-60 genes, one hidden h (a root or with one
  observed parent) with 5-15 children, most with observed co-parents, measured as *bulk RNA-seq*:
  negative-binomial read counts at modest depth (median library 2-20 million reads, libraries spread
  about six-fold), the table ``log2(1 + CPM)`` in its own units, M log-uniform in 40..400 (run by
  the lead at the start of session 23; seen since);
* ``h23g`` (the hold-out of the twenty-third session, seeds 2300-2309, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h23g`, which says what it plants) - 25-50 genes measured as a *perturbation screen*
  (DREAM4-like): steady states of Hill-regulated genes, a share of the samples single-gene knockouts
  (the gene at 0) or knockdowns of observed genes, a few wild types, the rest multifactorial; one
  hidden h (never perturbed; a root or with one observed parent) with 5-15 children, most with
  observed co-parents; concentrations in their own units, M log-uniform in 40..400 (run by the lead at the
  start of session 24; seen since);
* ``h24g`` (the hold-out of the twenty-fourth session, seeds 2400-2409, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h24g`, which says what it plants) - a *phosphoproteomics table* as a lab hands it:
  32-60 sites drawn (25-55 kept by the lab's filter), each site's occupancy a one-sided saturating
  function of its drive, sites of one protein sharing its abundance, log2 intensities with **missing
  cells below a detection limit** (not at random), sites quantified in under half the samples
  dropped, samples median-normalised; one unmeasured kinase h (a root or with one observed parent)
  with 5-15 substrate sites, most with observed co-parents; M log-uniform in 30..240 (run by the lead at
  the start of session 25; seen since);
* ``h25g`` (the hold-out of the twenty-fifth session, seeds 2500-2509, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h25g`, which says what it plants) - an *untargeted metabolomics table*: 30-60
  metabolites in a DAG with log-normal levels over four orders of magnitude, each sample diluted,
  heteroscedastic noise (multiplicative plus an additive noise floor), handed **total-ion-count
  normalised (compositional closure) and log2**; one unmeasured enzyme h (a root or with one observed
  parent) with 4-20 metabolites (products up, substrates down), none among the most abundant, most
  with observed co-parents; M log-uniform in 50..500 (run by the lead at the start of session 26;
  seen since);
* ``h26g`` (the hold-out of the twenty-sixth session, seeds 2600-2609, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h26g`, which says what it plants) - a *longitudinal plasma-protein panel* (NPX, log2):
  30-60 proteins in a DAG measured in 4-16 subjects at repeated visits, so the **rows are not
  independent**: each protein's noise a subject level (icc 0.2-0.7) plus a within-subject
  Ornstein-Uhlenbeck process over irregular visit days (time scales 3-90 days), cis-pQTL subject
  offsets on a quarter of the measured levels; one unmeasured signal h (a slow subject-level process,
  a root or with one observed parent) with 5-15 children, most with observed co-parents; M
  log-uniform in 60..360 (to be run by the lead at the start of session 27);
* ``h27g`` (the hold-out of the twenty-seventh session, seeds 2700-2709, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h27g`, which says what it plants) - a *single-cell RT-qPCR panel* (Fluidigm Biomark,
  expression thresholds Et = LoD - Ct): 30-60 genes in a DAG measured in single cells of one sorted
  population, so the values are **semi-continuous**: bursty molecule counts (negative binomial) of a
  few molecules captured per cell (a per-cell capture on every gene), read as Ct, **non-detects and
  Cts past the limit of detection set to 0** (a point mass in every column); one unmeasured TF h (a
  root or with one observed parent) with 6-18 children, most with observed co-parents; M log-uniform
  in 80..480 (to be run by the lead at the start of session 28);
* ``h28g`` (the hold-out of the twenty-eighth session, seeds 2800-2809, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h28g`, which says what it plants) - a *mass-cytometry (CyTOF) signalling panel* of one
  gated population: 28-48 metal-tagged markers in a DAG and the two DNA channels, handed as
  **arcsinh(count / 5) of randomised ion counts** (dim channels in their counting noise near 0),
  **spillover between the metal channels** (mass +-1 and the oxide at + 16) and **a cell-size factor on
  every marker** with the DNA channels as its proxies; one unmeasured kinase h (a root or with one
  observed parent) with 6-18 children, most with observed co-parents; M log-uniform in 150..750 (to be
  run by the lead at the start of session 29);
* ``h29g`` (the hold-out of the twenty-ninth session, seeds 2900-2909, written and committed before
  any tuning of that session and run only by the lead at the start of the next; its own module,
  :mod:`planted_h29g`, which says what it plants) - a *routine clinical laboratory panel* of outpatients'
  blood draws: 28-48 chemistry and haematology analytes in a DAG, each **in its clinical unit and rounded
  to the analyser's printed resolution** (homeostatic, near-normal and log-normal analytes side by side,
  ties everywhere), **values past a reportable limit handed as the limit**, the patient's sex as a
  column with edges to a quarter of the analytes and **in-vitro haemolysis** raising 3-6 intracellular
  analytes with the H-index as its coarse proxy; one unmeasured cytokine h (IL-6; a root or with one
  observed parent) with 5-15 acute-phase children, most with observed co-parents; M log-uniform in
  120..900.

:func:`generate_all` returns every planted root (the child set and h of each); :func:`generate` the
first (the generators with one root).

``null=True`` gives the same network and noise without h (a null network of that generator).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import planted_fanin
import planted_h16g
import planted_h17g
import planted_h18g
import planted_h19g
import planted_h20g
import planted_h21g
import planted_h22g
import planted_h23g
import planted_h24g
import planted_h25g
import planted_h26g
import planted_h27g
import planted_h28g
import planted_h29g
import planted_mixed
import planted_roots


@dataclass(frozen=True)
class Spec:
    name: str
    n_vars: int
    n_samples: int
    kind: str  # "er" (edge probability) or "hub" (preferential attachment)
    density: float  # edge probability ("er") or unused ("hub")
    weights: tuple[float, float]
    kids: tuple[int, int]  # inclusive range of the number of planted children
    loads: tuple[float, float]
    seed0: int = 0
    n_hidden: int = 1  # planted hidden roots (disjoint child sets)
    noise_sd: tuple[float, float] = (1.0, 1.0)  # log-uniform range of the noise sd per variable
    m_range: tuple[int, int] | None = None  # M drawn per seed in this inclusive range (else n_samples)
    upstream: tuple[float, float] | None = None  # |a| range of h's one observed parent (else h is a root)
    n_range: tuple[int, int] | None = None  # N drawn per seed in this inclusive range (else n_vars)
    p_between: float = 0.0  # ``modular``: edge probability between modules (``density`` inside one)
    switch: bool = False  # h = standardized Bernoulli(q) + 0.35 e (an on/off regulator), else N(0, 1)
    p_range: tuple[float, float] | None = None  # edge probability drawn per seed in this range (else density)
    saturating: bool = False  # ``tanh``: each response lam * s * tanh(d / s) + (1 - lam) * d, Student-t noise


#: ``tanh``: the Student-t degrees of freedom (inclusive), the response's s / sd(d) and lam ranges
T_DF, T_SCALE, T_LAM = (4, 6), (0.6, 1.2), (0.6, 1.0)


SPECS = {
    "sparse": Spec("sparse", 30, 500, "er", 0.06, (0.5, 1.0), (6, 6), (1.0, 1.5)),
    "dense": Spec("dense", 30, 300, "er", 0.2, (0.3, 0.8), (4, 8), (0.6, 1.0)),
    "small-m": Spec("small-m", 30, 50, "er", 0.08, (0.5, 1.0), (8, 12), (1.0, 1.5)),
    "hub": Spec("hub", 40, 200, "hub", 0.0, (0.4, 0.9), (12, 20), (0.7, 1.2), seed0=100),
    "layered": Spec("layered", 48, 0, "layered", 2.5, (0.4, 0.9), (4, 20), (0.7, 1.3), 200, 2, (0.5, 2.0), (50, 500)),
    "upstream": Spec(
        "upstream",
        45,
        0,
        "er",
        0.1,
        (0.4, 0.9),
        (5, 15),
        (0.8, 1.4),
        400,
        1,
        (0.6, 1.6),
        (100, 400),
        (0.5, 0.7),
        (25, 45),
    ),
    "modular": Spec(
        "modular",
        44,
        0,
        "modular",
        0.25,
        (0.4, 0.9),
        (6, 14),
        (0.7, 1.3),
        600,
        1,
        (0.7, 1.4),
        (150, 500),
        None,
        (32, 44),
        0.02,
        True,
    ),
    "tanh": Spec(
        "tanh",
        50,
        0,
        "er",
        0.0,
        (0.4, 0.9),
        (5, 15),
        (0.7, 1.4),
        800,
        1,
        (0.5, 1.6),
        (80, 400),
        None,
        (30, 50),
        p_range=(0.08, 0.15),
        saturating=True,
    ),
    # their own samplers (planted_mixed, planted_roots); the fields say their ranges for the reader
    "mixed": Spec("mixed", 60, 0, "mixed", 0.0, (0.3, 1.1), (4, 20), (0.6, 1.6), 1000, 2, (0.6, 1.6)),
    "roots": Spec("roots", 45, 0, "roots", 0.0, (0.3, 1.0), (4, 9), (0.6, 1.3), 1200, 2, (0.4, 2.0)),
    "fanin": Spec("fanin", 60, 0, "fanin", 0.0, (0.4, 2.0), (5, 15), (0.7, 2.0), 1400, 2, (0.5, 1.5)),
    "h16g": Spec("h16g", 55, 0, "h16g", 0.0, (0.4, 1.0), (4, 18), (0.5, 1.5), 1600, 2, (0.5, 2.0)),
    "h17g": Spec("h17g", 60, 0, "h17g", 0.0, (0.3, 1.0), (5, 16), (0.6, 1.4), 1700, 1, (0.5, 1.5)),
    "h18g": Spec("h18g", 60, 0, "h18g", 0.0, (0.4, 1.0), (7, 16), (0.5, 1.4), 1800, 2, (0.5, 1.5)),
    "h19g": Spec("h19g", 70, 0, "h19g", 0.0, (0.3, 0.9), (4, 20), (0.5, 1.2), 1900, 1, (0.5, 1.5)),
    "h20g": Spec("h20g", 70, 0, "h20g", 0.0, (0.3, 0.9), (4, 20), (0.5, 1.2), 2000, 1, (0.5, 1.5)),
    "h21g": Spec("h21g", 70, 0, "h21g", 0.0, (0.3, 0.9), (5, 20), (0.5, 1.2), 2100, 1, (0.5, 1.5)),
    "h22g": Spec("h22g", 60, 0, "h22g", 0.0, (0.3, 0.9), (5, 15), (0.65, 1.25), 2200, 1, (0.5, 1.5)),
    "h23g": Spec("h23g", 50, 0, "h23g", 0.0, (0.5, 1.5), (5, 15), (0.4, 0.7), 2300, 1, (0.2, 0.6)),
    "h24g": Spec("h24g", 60, 0, "h24g", 0.0, (0.4, 1.0), (5, 15), (0.3, 0.6), 2400, 1, (0.1, 0.3)),
    "h25g": Spec("h25g", 60, 0, "h25g", 0.0, (0.4, 1.0), (4, 20), (0.3, 0.6), 2500, 1, (0.05, 0.2)),
    "h26g": Spec("h26g", 60, 0, "h26g", 0.0, (0.4, 1.0), (5, 15), (0.3, 0.6), 2600, 1, (0.1, 0.3)),
    "h27g": Spec("h27g", 60, 0, "h27g", 0.0, (0.4, 1.0), (6, 18), (0.4, 0.7), 2700, 1, (0.2, 0.4)),
    "h28g": Spec("h28g", 50, 0, "h28g", 0.0, (0.4, 1.0), (6, 18), (0.45, 0.75), 2800, 1, (0.2, 0.4)),
    "h29g": Spec("h29g", 50, 0, "h29g", 0.0, (0.4, 1.0), (5, 15), (0.35, 0.65), 2900, 1, (0.2, 0.4)),
}

#: the generator kept untouched until the end (the twenty-ninth session's; ``hub`` was the first #22
#: session's, ``layered`` the second's, ``upstream`` the third's, ``modular`` the fourth's, ``tanh``
#: the fifth's, ``mixed`` the sixth's, ``roots`` the seventh's, ``fanin`` the eighth's, ``h16g`` the
#: sixteenth's, ``h17g`` the seventeenth's, ``h18g`` the eighteenth's, ``h19g`` the nineteenth's,
#: ``h20g`` the twentieth's, ``h21g`` the twenty-first's, ``h22g`` the twenty-second's, ``h23g`` the
#: twenty-third's, ``h24g`` the twenty-fourth's, ``h25g`` the twenty-fifth's, ``h26g`` the
#: twenty-sixth's, ``h27g`` the twenty-seventh's, ``h28g`` the twenty-eighth's). Only ``--hold-out`` or
#: ``--only h29g`` runs it: ``--only general`` leaves it out.
HOLD_OUT = "h29g"

#: the generators with their own module: its ``n_vars``, ``true_edges`` and ``generate``
OWN_MODULE = {
    "mixed": planted_mixed,
    "roots": planted_roots,
    "fanin": planted_fanin,
    "h16g": planted_h16g,
    "h17g": planted_h17g,
    "h18g": planted_h18g,
    "h19g": planted_h19g,
    "h20g": planted_h20g,
    "h21g": planted_h21g,
    "h22g": planted_h22g,
    "h23g": planted_h23g,
    "h24g": planted_h24g,
    "h25g": planted_h25g,
    "h26g": planted_h26g,
    "h27g": planted_h27g,
    "h28g": planted_h28g,
    "h29g": planted_h29g,
}


def n_vars(name: str, seed: int) -> int:
    """The number of observed variables of ``name`` for ``seed`` (``layered`` draws it)."""
    spec = SPECS[name]
    if spec.kind in OWN_MODULE:
        return OWN_MODULE[spec.kind].n_vars(seed)
    if spec.n_range is not None:
        return int(np.random.default_rng(6000 + spec.seed0 + seed).integers(spec.n_range[0], spec.n_range[1] + 1))
    if spec.kind != "layered":
        return spec.n_vars
    return int(np.random.default_rng(6000 + spec.seed0 + seed).integers(36, spec.n_vars + 1))


def _weights(spec: Spec, rng: np.random.Generator, n: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A random order and the weight matrix w[parent, child] of the generator's DAG."""
    n = spec.n_vars if n is None else n
    order = rng.permutation(n)
    w = np.zeros((n, n))
    lo, hi = spec.weights
    if spec.kind == "layered":  # 4 layers of consecutive variables in ``order``
        cuts = np.linspace(0, n, 5).astype(int)
        for a in range(3):
            upper, lower = order[cuts[a] : cuts[a + 1]], order[cuts[a + 1] : cuts[a + 2]]
            for v in lower:
                for u in upper:
                    if rng.random() < spec.density / len(upper):
                        w[u, v] = rng.uniform(lo, hi) * rng.choice([-1.0, 1.0])
    elif spec.kind in ("er", "modular"):
        k = int(rng.integers(3, 5)) if spec.kind == "modular" else 1
        module = np.searchsorted(np.linspace(0, n, k + 1)[1:-1], np.arange(n), side="right")
        density = spec.density if spec.p_range is None else float(rng.uniform(*spec.p_range))
        for a in range(n):
            for b in range(a + 1, n):
                p = density if module[a] == module[b] else spec.p_between
                if rng.random() < p:
                    w[order[a], order[b]] = rng.uniform(lo, hi) * rng.choice([-1.0, 1.0])
    else:
        out_deg = np.zeros(n)
        for b in range(1, n):
            earlier = order[:b]
            k = min(b, int(rng.integers(1, 4)))
            p = (1.0 + out_deg[earlier]) / (1.0 + out_deg[earlier]).sum()
            for u in rng.choice(earlier, size=k, replace=False, p=p):
                w[u, order[b]] = rng.uniform(lo, hi) * rng.choice([-1.0, 1.0])
                out_deg[u] += 1
    return order, w


def true_edges(name: str, seed: int) -> list[tuple[int, int]]:
    """The observed-to-observed edges (parent, child) of the generator's DAG for ``seed``."""
    spec = SPECS[name]
    if spec.kind in OWN_MODULE:
        return OWN_MODULE[spec.kind].true_edges(seed)
    _, w = _weights(spec, np.random.default_rng(7000 + spec.seed0 + seed), n_vars(name, seed))
    return [(int(p), int(c)) for p, c in zip(*np.nonzero(w), strict=True)]


def _saturating(
    drive: np.ndarray, sd: float, loads: np.ndarray | None, hs: list[np.ndarray], trng: np.random.Generator
) -> np.ndarray:
    """One variable of ``tanh``: its parents' weighted sum ``drive`` plus the h terms (``loads``
    per root, each ``load * sd(drive + noise) * h``; None for a null network), through
    ``lam * s * tanh(d / s) + (1 - lam) * d``, plus Student-t noise of sd ``sd`` after the response.
    The draws are the same with and without h, so a null network has the same responses and noise."""
    df = int(trng.integers(T_DF[0], T_DF[1] + 1))
    ratio, lam = trng.uniform(*T_SCALE), trng.uniform(*T_LAM)
    e = sd * trng.standard_t(df, size=len(drive)) / np.sqrt(df / (df - 2.0))
    d = drive.copy()
    if loads is not None:
        scale = (drive + e).std()
        for load, h in zip(loads, hs, strict=True):
            d += load * scale * h
    s = ratio * d.std()
    if s == 0.0:  # a root that is not a child of h: noise only
        return e
    return lam * s * np.tanh(d / s) + (1.0 - lam) * d + e


def generate(name: str, seed: int, *, null: bool = False) -> tuple[np.ndarray, set[int], np.ndarray | None]:
    """Data (M, N) scaled to unit variance, the planted children of the first root, and its h
    (None for a null network). ``seed`` counts from 0; ``Spec.seed0`` is added here."""
    x, kids, hs = generate_all(name, seed, null=null)
    return (x, set(), None) if null else (x, kids[0], hs[0])


def generate_all(name: str, seed: int, *, null: bool = False) -> tuple[np.ndarray, list[set[int]], list[np.ndarray]]:
    """Data (M, N) scaled to unit variance (``h16g``, ``h22g``-``h29g``: in their own units, ``h24g`` with NaN
    in its empty cells), and per planted root its children and h (empty lists for a null network: the same
    network and noise without the roots)."""
    spec = SPECS[name]
    if spec.kind in OWN_MODULE:
        return OWN_MODULE[spec.kind].generate(seed, null=null)
    s = spec.seed0 + seed
    rng = np.random.default_rng(7000 + s)
    n = n_vars(name, seed)
    order, w = _weights(spec, rng, n)
    hrng = np.random.default_rng(9000 + s)
    m = spec.n_samples if spec.m_range is None else int(hrng.integers(spec.m_range[0], spec.m_range[1] + 1))
    sd = np.exp(hrng.uniform(*np.log(spec.noise_sd), size=n)) if spec.noise_sd != (1.0, 1.0) else np.ones(n)
    hs, kid_sets = [], []
    c = np.zeros((spec.n_hidden, n))
    free = np.arange(n)
    up, a = -1, 0.0  # h's observed parent (``upstream``) and its coefficient
    if spec.upstream is not None:
        up = int(order[hrng.integers(0, n // 3)])
        a = hrng.uniform(*spec.upstream) * hrng.choice([-1.0, 1.0])
        free = order[list(order).index(up) + 1 :]
    for j in range(spec.n_hidden):
        if spec.switch:
            on = (hrng.random(size=m) < hrng.uniform(0.3, 0.6)) + 0.35 * hrng.normal(size=m)
            hs.append((on - on.mean()) / on.std())
        else:
            hs.append(hrng.normal(size=m))
        n_kids = int(hrng.integers(spec.kids[0], spec.kids[1] + 1))
        kids = hrng.choice(free, size=n_kids, replace=False)
        free = np.setdiff1d(free, kids)
        c[j, kids] = hrng.choice([-1.0, 1.0], size=n_kids) * hrng.uniform(*spec.loads, size=n_kids)
        kid_sets.append({int(v) for v in kids})
    trng = np.random.default_rng(11000 + s)  # ``tanh``: the responses and the Student-t noise
    x = np.zeros((m, n))
    for v in order:
        if spec.saturating:
            x[:, v] = _saturating(x @ w[:, v], sd[v], None if null else c[:, v], hs, trng)
            continue
        x[:, v] = x @ w[:, v] + sd[v] * rng.normal(size=m)
        if v == up:  # h's upstream signal: h = a * standardized x_u + sqrt(1 - a^2) * e
            z = (x[:, v] - x[:, v].mean()) / x[:, v].std()
            hs[0] = a * z + np.sqrt(1.0 - a * a) * hs[0]
        if not null:
            scale = x[:, v].std()
            for j in range(spec.n_hidden):
                if c[j, v] != 0.0:
                    x[:, v] += c[j, v] * scale * hs[j]
    x = x / x.std(axis=0)
    if null:
        return x, [], []
    return x, kid_sets, hs

"""The command line's argument parser: ``learn``, ``score`` and ``bootstrap`` sub-commands, their options and help.

Usage errors are one line, ``error: <message> (see '<prog> --help')``, with exit status 2.
"""

from __future__ import annotations

import argparse

from ..cpd import CPD_CHOICES, CPD_TYPES, DEFAULT_CPD, cpd_settings, get_cpd
from ..score import SCORES
from ..search.settings import MEASURES, METHODS, QUEUES, SearchSettings
from .covariates import COVARIATES_HELP, SCORE_COVARIATES_HELP
from .examples import LEARN_EPILOG, ExamplesFormatter
from .output import one_line
from .traits import TRAITS_HELP

__all__ = ["build_parser", "VERSION"]

#: the search settings' defaults, shown and used by the CLI
_DEFAULTS = SearchSettings()


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("ideal-parent-explorer")
    except (ImportError, PackageNotFoundError):  # running from a source tree that is not installed
        return "0.1.0"


VERSION = _version()


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``error: <message> (see '<prog> --help')``, exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"error: {one_line(message)} (see '{self.prog} --help')\n")


def _float_between(lo: float, hi: float):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be between {lo} and {hi}, got {text}")
        return value

    return parse


def _int_at_least(lo: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < lo:
            raise argparse.ArgumentTypeError(f"must be >= {lo}, got {value}")
        return value

    parse.__name__ = f"integer >= {lo}"
    return parse


_EPILOG = """\
examples:
  python -m engine learn data.csv --out result.json
  python -m engine learn genes_x_conditions.tsv --transpose --drop description --k 4
  python -m engine learn data.csv --method greedy --max-parents 3 > greedy.json
  python -m engine score heldout.csv --model result.json
  python -m engine score data.csv --model result.json --refit

Data: one row per instance and one column per variable, first row = variable names (CSV, TSV,
whitespace text, XLSX, Parquet; --no-header when the first line is data). A leading text column of
unique labels is taken as row labels. Every JSON result has 'rerun', the command that learns it again.
Errors: exit status 2 and one line 'error: ...' on stderr (130 when interrupted).
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (``learn``, ``score`` and ``bootstrap`` sub-commands)."""
    parser = _Parser(
        prog="python -m engine",
        description="Ideal Parent structure learning for continuous Bayesian networks "
        "(Elidan, Nachman & Friedman, JMLR 8:1799-1833, 2007). 'learn' finds a network's structure "
        "and parameters and writes them as JSON; 'score' evaluates a saved network on data.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="{learn,score,bootstrap}", parser_class=_Parser)

    data_opts = _Parser(add_help=False)
    data_opts.add_argument(
        "data",
        metavar="DATA",
        nargs="?",  # checked in main(): '--drop A B data.csv' puts DATA at the end of the --drop list
        help="CSV/TSV/text/XLSX/Parquet file; first row = variable names (or --no-header), one row per instance",
    )
    data_opts.add_argument(
        "--transpose",
        action="store_true",
        help="variables are in rows and instances in columns (e.g. genes x conditions)",
    )
    data_opts.add_argument(
        "--drop",
        nargs="+",
        action="extend",
        default=[],
        metavar="COL",
        help="columns of the file to leave out, e.g. a text column of descriptions, and rows by their label: "
        "with --transpose variables (e.g. a constant gene), without it instances (e.g. a failed array)",
    )
    header = data_opts.add_mutually_exclusive_group()
    header.add_argument(
        "--no-header",
        action="store_true",
        help="the file has no header row: its first line is data. The columns are named V1..VN (variables), or "
        "with --transpose sample1..sampleM (instances); a first column of text still labels the rows",
    )
    header.add_argument(
        "--header",
        action="store_true",
        help="the first line names the columns even though it holds only numbers (default: such a line is "
        "refused as probably data, naming --no-header)",
    )
    data_opts.add_argument(
        "--number-repeats",
        action="store_true",
        help="a repeated variable name (two probes of one gene) gets a number, 'Gm3' and 'Gm3 (2)', each "
        "learned as its own variable (default: a repeated name is an error); the renaming is reported",
    )
    data_opts.add_argument(
        "--skip-unusable",
        action="store_true",
        help="leave out the columns that cannot be variables, each named on stderr: text columns, constant "
        "ones, and ones with more than half of their cells missing (engine.io.MAX_MISSING; default: such a "
        "column is an error naming it, and --drop leaves out named columns)",
    )
    data_opts.add_argument(
        "--log-cpm",
        action="store_true",
        help="DATA are raw counts (RNA-seq): use log2(count / library size x 1e6 + 1) per instance (engine.io.counts)",
    )

    learn = sub.add_parser(
        "learn",
        usage="python -m engine learn DATA [options]",
        parents=[data_opts],
        help="learn a network from data and write it as JSON",
        description="Learn a Bayesian network by greedy hill climbing (Add, Delete, Reverse, Replace) scored by "
        "BIC (or the extended BIC when candidate parents outnumber rows), with Ideal Parent candidate "
        "selection by default, and print (or --out) the result as JSON: "
        "variables, edges, families with fitted parameters, score (total BIC and log-likelihood in nats on "
        "the data as loaded), search statistics, settings and the standardization applied. Notes about how "
        "the data were read, and progress, go to stderr.",
        epilog=LEARN_EPILOG,
        formatter_class=ExamplesFormatter,
    )
    learn.add_argument(
        "--no-standardize",
        action="store_true",
        help="keep the original scale (default: each variable is standardized to mean 0, variance 1; the "
        "transform is stored in the result and re-applied by 'score')",
    )
    learn.add_argument(
        "--method",
        choices=METHODS,
        default=_DEFAULTS.method,
        help="ideal: score exactly only the top K Add/Replace candidates per family ranked by the ideal-parent "
        "measure (the paper's Algorithm 2, default); greedy: score every candidate exactly (Algorithm 1)",
    )
    learn.add_argument(
        "--k",
        type=_int_at_least(1),
        default=_DEFAULTS.k,
        metavar="K",
        help=f"candidates per family scored exactly (default {_DEFAULTS.k})",
    )
    learn.add_argument(
        "--measure",
        choices=MEASURES,
        default=_DEFAULTS.measure,
        help="ideal-parent similarity measure used for ranking (default c2, the tighter one)",
    )
    learn.add_argument(
        "--queue",
        choices=QUEUES,
        default=_DEFAULTS.queue,
        help="shared: K candidates shared by Add and Replace (the paper's Algorithm 2, default); "
        "per_operator: K for each",
    )
    learn.add_argument(
        "--cpd",
        choices=CPD_CHOICES,
        default=DEFAULT_CPD,
        help=f"conditional distribution family (default {get_cpd(DEFAULT_CPD).label}"
        + "".join(f"; {c.name} needs positive data: use --no-standardize" for c in CPD_TYPES if c.positive_data)
        + ")",
    )
    for setting, cpds in cpd_settings():
        learn.add_argument(
            setting.cli_flag,
            dest=setting.name,
            action="store_false" if setting.default else "store_true",
            help=f"{'/'.join(cpds)} CPD only; turns {'off' if setting.default else 'on'} the "
            f"{setting.caption}. {setting.help}",
        )
    learn.add_argument(
        "--max-parents",
        type=_int_at_least(0),
        default=None,
        metavar="P",
        help="parents per variable at most (default: no limit)",
    )
    learn.add_argument(
        "--score",
        choices=SCORES,
        default=_DEFAULTS.score,
        help="network score: bic (the paper's), ebic (extended BIC, for more candidate parents than rows) or "
        "auto (default: bic for tall data without --regulators, else ebic; the choice and the reason are "
        "printed and stored in the result)",
    )
    learn.add_argument(
        "--ebic-gamma",
        type=_float_between(0.0, 1.0),
        default=_DEFAULTS.ebic_gamma,
        metavar="G",
        help=f"EBIC's gamma in [0, 1] (default {_DEFAULTS.ebic_gamma})",
    )
    learn.add_argument(
        "--regulators",
        metavar="FILE",
        default=None,
        help="candidate regulators: only these variables may be parents. One name per line, or a CSV/TSV with "
        "names in the first column; blank lines and # comments ignored; names not in the data are reported",
    )
    learn.add_argument("--covariates", metavar="FILE", default=None, help=COVARIATES_HELP)
    learn.add_argument("--traits", metavar="FILE", default=None, help=TRAITS_HELP)
    learn.add_argument(
        "--gene-sets",
        metavar="FILE",
        default=None,
        help="known gene sets (a GMT file, the GSEA/MSigDB format, or a two-column set,gene / regulator,target "
        "CSV/TSV): each hidden variable's and each regulator's children are tested for over-representation "
        "(hypergeometric p, Benjamini-Hochberg q over the sets; universe = the variables of the data); the "
        "top sets go under 'enrichment' and 'regulator_enrichment' in the result",
    )
    learn.add_argument(
        "--condition",
        metavar="COLUMN",
        default=None,
        help="interventional data: the column naming each row's experimental condition (not a variable)",
    )
    learn.add_argument(
        "--targets",
        metavar="FILE",
        default=None,
        help="with --condition: CSV with columns condition,target, one row per variable an experiment set; "
        "conditions not listed are observational. A family is scored only on rows where its child was not set",
    )
    learn.add_argument(
        "--condition-intercept",
        action="store_true",
        help="with --condition: one intercept per condition in every family (reagents that shift levels)",
    )
    learn.add_argument(
        "--max-steps", type=_int_at_least(0), default=None, metavar="N", help="stop after N moves (default: converge)"
    )
    learn.add_argument(
        "--restarts",
        type=_int_at_least(0),
        default=0,
        metavar="R",
        help="random restarts after convergence; stop after R in a row that do not improve (default 0)",
    )
    learn.add_argument(
        "--hidden",
        choices=["none", "auto"],
        default="none",
        help="auto: add hidden variables while they improve the observed-data BIC (structural EM)",
    )
    learn.add_argument(
        "--max-hidden", type=_int_at_least(0), default=3, metavar="H", help="hidden variables at most (default 3)"
    )
    learn.add_argument(
        "--two-layer", action="store_true", help="the paper's two-layer setting: hidden roots -> observed leaves only"
    )
    learn.add_argument(
        "--seed", type=_int_at_least(0), default=0, metavar="S", help="random seed (restarts, hidden starts; default 0)"
    )
    learn.add_argument("--out", metavar="FILE", help="write the JSON result to FILE instead of stdout")
    learn.add_argument(
        "--csv",
        metavar="FILE",
        help="also write the edges as CSV to FILE, strongest first (learn: parent, child, weight, strength in "
        "nats; bootstrap: parent, child, strength, direction, averaged); with --hidden auto also the hidden "
        "regulators in FILE's name + '_regulators.csv' (learn: the regulator report, one row per hidden variable "
        "and child; bootstrap: their support and each child's frequency)",
    )
    learn.add_argument(
        "--quiet",
        action="store_true",
        help="nothing on stderr but errors: no notes on how the data were read, no warnings, no progress",
    )

    score = sub.add_parser(
        "score",
        usage="python -m engine score DATA --model RESULT.json [options]",
        parents=[data_opts],
        help="score a saved network on data",
        description="Log-likelihood and BIC (nats) of DATA under a network saved by 'learn'. DATA is read on "
        "its original scale; the model's stored standardization is applied to it. Without --refit the saved "
        "parameters are used as they are (held-out evaluation); with --refit every family is refitted on "
        "DATA first (structure fixed). Prints JSON: loglik, loglik_per_instance_per_variable, bic, units, "
        "n_samples, refit.",
    )
    score.add_argument("--model", required=True, metavar="RESULT.json", help="a result written by 'learn'")
    score.add_argument("--refit", action="store_true", help="refit the parameters on DATA first")
    score.add_argument("--covariates", metavar="FILE", default=None, help=SCORE_COVARIATES_HELP)
    score.add_argument(
        "--condition",
        metavar="COLUMN",
        default=None,
        help="interventional data: the column naming each row's condition (default: the model's condition column "
        "when DATA has it). Each family is scored on the rows where its child was not set, as 'learn' scores it",
    )
    score.add_argument(
        "--targets",
        metavar="FILE",
        default=None,
        help="with --condition: CSV condition,target (default: the targets the model was learned with)",
    )
    score.add_argument(
        "--condition-intercept",
        action="store_true",
        help="one intercept per condition in every family (default: as the model was learned; "
        "a model learned without them needs --refit)",
    )
    _add_bootstrap(sub, learn)
    return parser


def _add_bootstrap(sub, learn: argparse.ArgumentParser) -> None:
    """``bootstrap``: every option of ``learn`` (copied from its parser, so a new learn option
    reaches the replicates without a change here), plus the replicates and where they run."""
    boot = sub.add_parser(
        "bootstrap",
        usage="python -m engine bootstrap DATA --replicates B [--scheduler ADDRESS | --workers W] [learn options]",
        parents=[learn],  # DATA, --transpose, --drop, every learn option, --out, --quiet (and -h)
        add_help=False,
        help="edge and hidden-regulator confidence by the bootstrap, in parallel on Dask",
        description="Relearn the network on B resamples of DATA (instances drawn with replacement, "
        "Friedman, Goldszmidt & Wyner 1999, or half-samples: --resample) with the learn options given, "
        "in parallel on Dask (a local cluster of one process per core by default), and print (or --out) "
        "JSON as bnlearn's boot.strength and averaged.network: 'edges' (one row per pair of variables "
        "seen in some replicate, in its dominant direction: strength = share of replicates with the edge "
        "either way, direction = share of those with parent -> child), 'threshold' and 'averaged' (the "
        "edges above it), and with --hidden auto the hidden regulators' support (matched across "
        "replicates by their children, Jaccard >= 0.5) and each child's membership frequency. Progress "
        "goes to stderr.",
        epilog="Exit status 1 when some replicates failed: the result of the others is still written, with "
        "'failed' naming each failed replicate and its error.",
    )
    boot.add_argument(
        "--replicates",
        type=_int_at_least(1),
        default=200,
        metavar="B",
        help="bootstrap replicates (default 200); each has its own seed from --seed, so the result for a "
        "seed is the same whatever the number of workers",
    )
    boot.add_argument(
        "--max-hours",
        type=_float_between(1e-6, 1e6),
        default=24.0,
        metavar="H",
        help="time budget (default 24): when the first replicate shows the run would take longer, it stops "
        "at once and says how long it would take and how many replicates fit (at most 100,000 in any case)",
    )
    boot.add_argument(
        "--resample",
        choices=("auto", "bootstrap", "subsample"),
        default="auto",
        help="how replicates draw instances: 'bootstrap' (M rows with replacement), 'subsample' (half-samples, "
        "floor(M/2) rows without replacement, in complementary pairs: stability selection) or 'auto' "
        "(default: the bootstrap with at least 2 rows per candidate parent, half-samples with fewer; the "
        "choice and why are printed and stored in settings.resample)",
    )
    boot.add_argument(
        "--threshold",
        type=_float_between(0, 1),
        default=None,
        metavar="T",
        help="strength above which an edge is in the averaged network (default: estimated from the "
        "strengths as bnlearn's averaged.network does, Scutari & Nagarajan 2013)",
    )
    where = boot.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 (default: start a local one)",
    )
    where.add_argument(
        "--workers",
        type=_int_at_least(1),
        default=None,
        metavar="W",
        help="worker processes of the local cluster, one thread each (default: one per core)",
    )

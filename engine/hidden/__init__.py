"""Hidden variables and missing values (JMLR 2007 sections 5, 6 and 9.2).

* :mod:`.proposals` clusters of similar ideal profiles as hidden-variable proposals (section 5);
* :mod:`.semiclique` semi-cliques of a learned network, grown from 3-cliques (thesis ch. 4);
* :mod:`.candidates` both sources scored on the network with the edges inside each set removed;
* :mod:`.em` structural EM over missing cells and hidden variables (section 6), shaped like a
  scikit-learn mixture (``n_iter_``, ``converged_``, ``lower_bound_``, ``lower_bounds_``);
* :mod:`.marginal` the observed-data log-likelihood with hidden and missing cells integrated out;
* :mod:`.report` per child loading, sign, variance explained; the closest observed variable;
* :mod:`.report_table` the report as one table (TF parents, flags, enrichment hits), the CSV export;
* :mod:`.search` :class:`HiddenSearch`: propose, accept or reject, and the automatic protocol.
"""

from .candidates import family_coefficients, propose_from_search, score_candidate
from .em import MISSING_HANDLING, EMIteration, StructuralEM
from .marginal import marginal_loglik
from .proposals import (
    ClusterProposal,
    ideal_cosines,
    propose_clusters,
    score_cluster,
)
from .report import REPORT_COLUMNS, ClusterView, RegulatorReport, cluster_view, regulator_report, report_rows
from .report_table import REPORT_TABLE_COLUMNS, report_table
from .search import HiddenSearch, HiddenVariable
from .semiclique import find_semicliques

__all__ = [
    "ClusterProposal",
    "ClusterView",
    "cluster_view",
    "family_coefficients",
    "ideal_cosines",
    "propose_clusters",
    "propose_from_search",
    "score_cluster",
    "score_candidate",
    "find_semicliques",
    "REPORT_COLUMNS",
    "RegulatorReport",
    "regulator_report",
    "report_rows",
    "REPORT_TABLE_COLUMNS",
    "report_table",
    "StructuralEM",
    "EMIteration",
    "MISSING_HANDLING",
    "marginal_loglik",
    "HiddenSearch",
    "HiddenVariable",
]

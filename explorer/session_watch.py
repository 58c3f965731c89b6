"""Whether this browser session is still there: for work that must end when the user leaves.

Streamlit has no hook for the end of a session. A closed tab disconnects the session, and the
server keeps its state for a while in case the browser reconnects, so objects in session state
(a Dask cluster, say) are not collected then. :func:`connected_check` returns a function that asks
the server whether this session is still connected; the Confidence page's controller
(:class:`explorer.confidence.ConfidenceController`) polls it from a watchdog thread and stops its
run and closes its cluster once the session has been gone a while.

Uses ``Runtime.is_active_session`` (thread-safe, documented as such in Streamlit's runtime).
A closed tab and a dropped socket look the same from here; :func:`grace_seconds` is how long a
disconnected session's run is kept (docs/decisions/app-disconnect-grace.md): a few minutes, so a
blip on a busy server does not stop a bootstrap the user is still watching, and never past the
server's ``disconnectedSessionTTL``, after which the session cannot come back.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["connected_check", "grace_seconds"]


def grace_seconds(cap: float) -> float:
    """How long a disconnected session's run is kept: ``cap``, or the server's
    ``server.disconnectedSessionTTL`` when that is shorter (the session is dropped then)."""
    from streamlit import config

    try:
        ttl = float(config.get_option("server.disconnectedSessionTTL"))
    except Exception:  # no such option in this Streamlit: the cap alone
        return float(cap)
    return max(0.0, min(float(cap), ttl))


def connected_check() -> Callable[[], bool] | None:
    """A function telling whether the session running this script is still connected to a browser,
    or None where there is no server (``AppTest``, a bare ``python`` run)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not Runtime.exists():
        return None
    runtime, session_id = Runtime.instance(), ctx.session_id
    return lambda: runtime.is_active_session(session_id)

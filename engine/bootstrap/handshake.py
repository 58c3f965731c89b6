"""A bounded first contact with a Dask scheduler, before ``distributed.Client`` is trusted with it.

``Client("tcp://host:port")`` waits without a bound for the peer's handshake once the TCP
connection is open, so an address where something else listens (an HTTP server, the dashboard's
port) hung the CLI (#26). :func:`check_scheduler` opens the connection itself with a timeout and
reads the greeting a Dask comm sends first on accepting a connection (the listener writes its
handshake before reading the client's): an 8-byte little-endian length, then that many bytes of
frames holding a msgpack mapping with ``python`` and ``pickle-protocol``
(``distributed.comm.core.Listener.on_connection``, ``distributed.comm.tcp.TCP.read``). Anything
else (silence, a closed connection, other bytes) is named as "answered but is not a Dask
scheduler". ``tcp://`` addresses (and bare ``host:port``) are probed in full; a ``ws://`` address
only up to the opened connection (nothing listening is said at once, where ``Client`` retried
for its whole 30 s timeout), its WebSocket handshake being left to ``Client``; ``inproc://HOST/PID/N``
(a cluster in this process) is left to ``Client``;
another scheme (TLS, UCX, a malformed in-process address, a web address) is refused with the
reason: given as text it cannot work (the Python API takes a Client made with its security).
"""

from __future__ import annotations

import socket
import struct

from ..exceptions import ParameterError

__all__ = ["check_scheduler", "HANDSHAKE_TIMEOUT"]

#: seconds to open the connection and, again, to receive the scheduler's greeting
HANDSHAKE_TIMEOUT = 5.0
#: a Dask handshake is a few dozen bytes; a length above this is not one
_MAX_GREETING = 1 << 16


#: why an address of another scheme cannot be given as text (the Python API takes a connected Client)
_OTHER_SCHEMES = {
    "tls": "needs a security configuration: pass a distributed.Client made with it (Python API)",
    "wss": "needs a security configuration: pass a distributed.Client made with it (Python API)",
    "inproc": "is an address inside one Python process, inproc://HOST/PID/N from a cluster started in it",
    "ucx": "needs UCX: pass a distributed.Client made on it (Python API)",
    "http": "is a web address, e.g. the dashboard on port 8787, not the scheduler",
    "https": "is a web address, e.g. the dashboard on port 8787, not the scheduler",
}


def check_scheduler(address: str, timeout: float | None = None) -> None:
    """Raise :class:`ParameterError` unless a Dask scheduler answers at ``address`` within ``timeout``
    seconds (per step; default :data:`HANDSHAKE_TIMEOUT`): nothing listening, no answer, or a peer
    that does not speak Dask's protocol."""
    timeout = HANDSHAKE_TIMEOUT if timeout is None else timeout
    scheme, _, rest = address.strip().rpartition("://")
    if scheme == "inproc" and rest.count("/") == 2:  # inproc://HOST/PID/N: this process's
        return
    if scheme not in ("", "tcp", "ws"):
        why = _OTHER_SCHEMES.get(scheme.lower(), "is not a Dask transport")
        raise ParameterError(
            f"scheduler address {address!r}: expected tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786 ({scheme}:// {why})."
        )
    host, _, port_text = rest.rpartition(":")
    host = host.strip("[]")  # tcp://[::1]:8786
    if scheme == "ws" and not port_text.isdigit():  # ws://HOST: a port of Dask's choosing, left to Client
        return
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ParameterError(f"scheduler address {address!r}: expected tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786.")
    failed = f"could not connect to the Dask scheduler at {address}"
    try:
        sock = socket.create_connection((host, int(port_text)), timeout=timeout)
    except socket.gaierror:
        raise ParameterError(f"{failed}: unknown host {host!r}.") from None
    except ConnectionRefusedError:
        raise ParameterError(f"{failed}: nothing listens there (connection refused); is it running?") from None
    except TimeoutError:
        raise ParameterError(f"{failed}: no answer within {timeout:g} s; is the host reachable?") from None
    except OSError as exc:
        raise ParameterError(f"{failed} ({exc.strerror or exc}).") from None
    with sock:
        if scheme == "ws":  # a WebSocket server speaks first only after the client's HTTP upgrade
            return
        sock.settimeout(timeout)
        try:
            greeting = _read_greeting(sock)
        except TimeoutError:
            greeting = None
            why = f"it sent no Dask handshake within {timeout:g} s"
        except OSError as exc:
            greeting = None
            why = f"the connection failed ({exc.strerror or exc})"
        else:
            why = "it closed the connection" if not greeting else f"it sent {greeting[:24]!r}"
        if greeting is None or not _is_dask(greeting):
            raise ParameterError(
                f"{address} answered but is not a Dask scheduler ({why}); a scheduler listens on port 8786 "
                "by default (8787 is its dashboard)."
            )


def _read_greeting(sock: socket.socket) -> bytes:
    """The peer's first message: its 8-byte length and then its bytes (fewer if it stops early)."""
    head = _read(sock, 8)
    if len(head) < 8:
        return head
    (n,) = struct.unpack("<Q", head)
    if not 0 < n <= _MAX_GREETING:
        return head
    return head + _read(sock, n)


def _read(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            break
        buf += chunk
    return buf


def _is_dask(greeting: bytes) -> bool:
    """Whether ``greeting`` is a Dask comm's handshake (frames whose msgpack mapping has ``python``)."""
    if len(greeting) < 16:
        return False
    try:
        import msgpack
        from distributed.protocol.utils import unpack_frames

        frames = unpack_frames(memoryview(greeting)[8:])
        info = msgpack.loads(bytes(frames[0]), raw=False)
    except Exception:  # any malformed frame: not Dask's protocol
        return False
    return isinstance(info, dict) and "python" in info and "pickle-protocol" in info

"""A TCP relay between the browser and the Streamlit server that a test can cut, to drop the app's
websocket as a busy server or a flaky network does (the browser tests of a lost session).

``with CuttableRelay(server_port) as relay:`` listens on ``relay.port`` and copies bytes both ways;
``relay.cut()`` closes every open connection and refuses new ones (accepted, then closed at once)
until ``relay.restore()``. The server sees its websocket close; the browser sees the connection
drop and keeps trying to reconnect, with the session id it had, as Streamlit's frontend does.
"""

from __future__ import annotations

import socket
import threading

__all__ = ["CuttableRelay"]


class CuttableRelay:
    """A relay from ``127.0.0.1:port`` to ``127.0.0.1:target`` that can be cut and restored."""

    def __init__(self, target: int) -> None:
        self.target = target
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._cut = threading.Event()
        self._closed = threading.Event()
        #: connections accepted, and refused while cut (the browser's reconnection attempts)
        self.accepted = 0
        self.refused = 0

    def __enter__(self) -> CuttableRelay:
        threading.Thread(target=self._accept, name="relay accept", daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._closed.set()
        self._listener.close()
        self._drop_all()

    def cut(self) -> None:
        """Close every open connection and refuse new ones until :meth:`restore`."""
        self._cut.set()
        self._drop_all()

    def restore(self) -> None:
        self._cut.clear()

    def _drop_all(self) -> None:
        with self._lock:
            socks, self._open = list(self._open), set()
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._cut.is_set():
                self.refused += 1
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            self.accepted += 1
            with self._lock:
                self._open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while chunk := src.recv(65536):
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            with self._lock:
                self._open.discard(src)
                self._open.discard(dst)

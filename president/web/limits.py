"""Limits for the whole server, beside the per-address ones.

Each client address has its own limits (sockets not yet joined, failed hellos per socket, new
tables a minute, HTTP connections): they stop one client. Many addresses, each within its
own limits, could still together flood the server: a few thousand websockets opened at once,
hellos with made-up tokens, tables made that nobody plays. The limits here bound the work
all clients together can ask for, so that the players already at tables are not slowed:

- :data:`MAX_WAITING_TOTAL` sockets not yet joined to a table, whole server;
- :data:`HANDSHAKES_PER_SECOND` new websockets accepted a second;
- :data:`HELLOS_PER_SECOND` ``hello`` messages handled a second;
- :data:`TABLES_PER_MINUTE` new tables a minute.

A request past one of them is refused before any work is done for it, in the documented
shape: a websocket gets ``429 {"error": "busy", ...}`` instead of its upgrade, a ``hello`` gets
the ``busy`` error and its socket is closed with code 1013 (try again later: the page retries
after a pause), ``POST /api/tables`` gets ``429 busy``. The rates are token buckets
(:class:`Rate`): a short burst is taken at once, a longer one at the bucket's rate.

The hello deadline of a socket that never says ``hello`` is spread (:func:`hello_deadline`):
sockets opened in the same moment are closed over several seconds, not all in one.

>>> rate = Rate(per_second=2.0, burst=3)
>>> [rate.take(now=0.0) for _ in range(4)]
[True, True, True, False]
>>> rate.take(now=0.5)          # one more token after half a second at 2 a second
True
>>> rate.ready(now=0.5)
False
"""

from __future__ import annotations

import random
import time

__all__ = ["Rate", "Cooldown", "hello_deadline", "COOLDOWN_SECONDS", "MAX_WAITING_TOTAL", "HANDSHAKES_PER_SECOND",
           "HANDSHAKE_BURST", "HELLOS_PER_SECOND", "HELLO_BURST", "TABLES_PER_MINUTE",
           "TABLE_BURST", "HELLO_SECONDS", "HELLO_SPREAD_SECONDS"]

MAX_WAITING_TOTAL = 1000
"""Websockets the whole server holds open before they join a table; more are refused (429).
A page joins within a few milliseconds of opening its socket, so even a thousand pages
coming back at once after a restart fit (those refused retry after a pause)."""

HANDSHAKES_PER_SECOND = 150.0
"""New websockets the whole server accepts a second (with a burst of
:data:`HANDSHAKE_BURST`); past it, 429 ``busy`` before the upgrade."""
HANDSHAKE_BURST = 50

HELLOS_PER_SECOND = 150.0
"""``hello`` messages the whole server handles a second (with a burst of
:data:`HELLO_BURST`); past it, the ``busy`` error and the socket closed (1013)."""
HELLO_BURST = 50

TABLES_PER_MINUTE = 600.0
"""New tables the whole server makes a minute (with a burst of :data:`TABLE_BURST`);
past it, ``POST /api/tables`` gets 429 ``busy``."""
TABLE_BURST = 20

HELLO_SECONDS = 10.0
"""A socket that has not joined a table this long after it opened (plus its share of
:data:`HELLO_SPREAD_SECONDS`) is closed (code 1008), whatever it sent meanwhile."""
HELLO_SPREAD_SECONDS = HELLO_SECONDS / 2
"""Each socket's hello deadline is :data:`HELLO_SECONDS` plus a random part of this (half
the hello time): a thousand sockets opened together are closed over five seconds, not in one
moment."""


COOLDOWN_SECONDS = 1.0
"""After an address is refused as ``busy`` (any limit, its own or the server's), its new
connections are refused this long at once (:class:`Cooldown`)."""


class Cooldown:
    """Addresses lately refused as ``busy``: ``president serve`` answers their new
    connections with a ready-made 429 ``busy`` before reading a byte of them, for
    ``seconds`` after the refusal. A client that reconnects as fast as it is refused (a
    flood from many addresses, each within its limits) then costs the server an accept and a
    write per connection, not the parsing of a request, an upgrade and the app's refusal.

    Args:
        seconds: how long an address cools down after a refusal.
        most: the most addresses remembered (the oldest are forgotten past it: bounded
            memory).

    >>> box = Cooldown(seconds=1.0)
    >>> box.refused("127.0.0.9", now=10.0)
    >>> box.active("127.0.0.9", now=10.5), box.active("127.0.0.9", now=11.5), box.active("x", now=10.5)
    (True, False, False)
    """

    def __init__(self, seconds: float = COOLDOWN_SECONDS, most: int = 100_000) -> None:
        self.seconds = seconds
        self.most = most
        self._until: dict[str, float] = {}

    def refused(self, address: str | None, now: float | None = None) -> None:
        """Note that ``address`` was just refused as ``busy``."""
        if address is None or self.seconds <= 0:
            return
        at = time.monotonic() if now is None else now
        self._until.pop(address, None)          # (to the end: the dict stays in time order)
        self._until[address] = at + self.seconds
        if len(self._until) > self.most:
            for old in list(self._until)[: len(self._until) - self.most]:
                del self._until[old]

    def active(self, address: str | None, now: float | None = None) -> bool:
        """Whether ``address`` is still cooling down (its connections are refused at once)."""
        if address is None:
            return False
        until = self._until.get(address)
        if until is None:
            return False
        if (time.monotonic() if now is None else now) < until:
            return True
        del self._until[address]
        return False


class Rate:
    """A token bucket: up to ``burst`` requests at once, then ``per_second`` on average.

    Args:
        per_second: tokens added a second (``0``: no limit, every :meth:`take` succeeds).
        burst: the most tokens held (the bucket starts full).

    Raises:
        ValueError: for a negative rate or a burst under 1.
    """

    def __init__(self, per_second: float, burst: float) -> None:
        if not per_second >= 0 or not burst >= 1:
            raise ValueError(f"a rate needs per_second >= 0 and burst >= 1, not "
                             f"{per_second!r} and {burst!r}")
        self.per_second = float(per_second)
        self.burst = float(burst)
        self._tokens = float(burst)
        self._at: float | None = None

    def _fill(self, now: float | None) -> None:
        at = time.monotonic() if now is None else now
        if self._at is None or at > self._at:
            if self._at is not None:
                self._tokens = min(self.burst, self._tokens + (at - self._at) * self.per_second)
            self._at = at

    def ready(self, now: float | None = None) -> bool:
        """Whether :meth:`take` would succeed now (takes nothing)."""
        if not self.per_second:
            return True
        self._fill(now)
        return self._tokens >= 1

    def take(self, now: float | None = None) -> bool:
        """Take one token if there is one: ``True``, else ``False`` (the request is over the
        rate and should be refused)."""
        if not self.per_second:
            return True
        self._fill(now)
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False


def hello_deadline(opened: float, seconds: float = HELLO_SECONDS) -> float:
    """When a socket opened at ``opened`` (monotonic seconds) must have joined a table:
    ``seconds`` later plus a random share of half as long again (:data:`HELLO_SPREAD_SECONDS`
    for the default), so that sockets opened together do not all time out in one moment."""
    return opened + seconds + random.uniform(0.0, seconds / 2)

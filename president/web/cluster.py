"""Several server processes as one game server: what they share through Redis (docs/web.md,
"Several processes"; docs/deploy.md).

The processes share one PostgreSQL store (:mod:`president.web.store_pg`), where each table is
owned by exactly one process at a time (a PostgreSQL advisory lock:
:class:`~president.web.store_pg.PgOwners`, which also says which process owns a table). Redis
(redis-py's asyncio client) carries the rest:

- **Liveness.** Each process writes its name and the time into the sorted set
  ``president:<store>:processes`` every :data:`HEARTBEAT_SECONDS`; a process not heard from for
  :data:`ALIVE_SECONDS` is taken for dead.
- **Per-address socket counts.** Each process counts its open and unjoined websockets per
  client address in its own hash ``president:<store>:sockets:<process>``; a new socket is refused when
  the sum over the live processes is at the limit (one Lua script: counted and checked in one
  step), so one address cannot hold more sockets by spreading them over processes.
- **Per-address table rate.** New tables per client address per minute are counted in
  ``president:<store>:made:<address>:<minute>``, across the processes.
- **The relay.** A page may reach any process (a proxy that does not hash on the table, or
  ``president serve --workers N`` on one port). When its hello names a table another process
  owns, this process relays the socket to the owner through Redis pub/sub: each process
  listens on the channel ``president:<store>:to:<process>``; the relaying process sends ``open``
  (with the hello), each ``frame`` the page sends and ``close``; the owner serves the page
  with the same code as a direct socket (:meth:`~president.web.sockets.Sockets.hello`,
  :meth:`~president.web.sockets.Sockets.play`) and sends back each message (``out``) and the
  end (``end`` with a close code). If the owner dies, its relayed pages are closed with 1012
  within :data:`ALIVE_SECONDS` and reconnect: the table is then taken over from the store by
  the process the page reaches.
- **Hand-over.** Before relaying, the process a page reached asks the owner to give the table
  up (``give``/``given``): the owner does when no page is at the table there, and the table is
  rebuilt from the store where its page is. So with a proxy hashing on the table id in the
  socket's address (``/ws?table=...``; docs/deploy.md) a table moves once, at its first page,
  to the process its pages reach, and the relay is only the fallback; with ``--workers N`` on
  one port a table follows its first page, and the later pages of a busy table are relayed.

Redis keeps nothing a game needs to survive: a restarted Redis loses the counts for a moment
and the relayed sockets, which reconnect.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

import orjson

from .ledger import StoreError
from .sockets import Sockets, WebSocketTransport, encode

__all__ = ["Cluster", "HEARTBEAT_SECONDS", "ALIVE_SECONDS", "check_redis", "REDIS_ENV"]

log = logging.getLogger("president.web")

HEARTBEAT_SECONDS = 1.0
"""How often a process says it is alive (and checks the others)."""
ALIVE_SECONDS = 4.0
"""A process not heard from for this long is taken for dead: its socket counts stop counting
and the pages relayed to it are closed (1012) so that they reconnect."""
RELAY_ANSWER_SECONDS = 2.0
"""A relayed hello the owner has not answered in this long is closed with 1013 (try again)."""
HAND_OVER_SECONDS = 3.0
"""How long a process waits for another to give up a table it asked for."""
COUNTS_SECONDS = 30
"""A process's socket counts expire this long after its last heartbeat."""
REDIS_ENV = "PRESIDENT_REDIS"
"""The environment variable that names Redis when ``president serve --redis`` does not."""

_COUNT = """
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
redis.call('EXPIRE', KEYS[1], ARGV[3])
local o, w = 0, 0
for i = 1, #KEYS do
  local v = redis.call('HMGET', KEYS[i], ARGV[1], ARGV[2])
  o = o + (tonumber(v[1]) or 0)
  w = w + (tonumber(v[2]) or 0)
end
return {o, w}
"""
"""Count a new socket of an address in this process's hash (``KEYS[1]``) and return the
address's open and unjoined sockets summed over the live processes' hashes (``KEYS``)."""

_UNCOUNT = """
for i = 1, #ARGV do
  if redis.call('HINCRBY', KEYS[1], ARGV[i], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return 0
"""


def mask_redis(url: str) -> str:
    """A Redis address without its password, for messages."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"


def check_redis(url: str) -> None:
    """Check at start that Redis at ``url`` answers (redis-py's blocking client, once).

    Raises:
        StoreError: redis-py is not installed, the address cannot be read, or Redis does not
            answer (the message names the address without its password and what to do).
    """
    try:
        import redis
    except ModuleNotFoundError:
        raise StoreError("Redis is named (--redis) but redis-py is not installed; install "
                         "pip install 'president-game[redis]'") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    except ValueError as e:
        raise StoreError(f"the Redis address {mask_redis(url)} cannot be read ({e}); give "
                         "redis://host:port/0") from None
    try:
        client.ping()
    except (redis.AuthenticationError, redis.AuthenticationWrongNumberOfArgsError) as e:
        raise StoreError(f"Redis at {mask_redis(url)} refused the login ({str(e)[:120]}); give "
                         "the right user and password in the address "
                         "(redis://user:password@host:port/0)") from None
    except redis.RedisError as e:
        raise StoreError(f"Redis at {mask_redis(url)} does not answer ({type(e).__name__}: "
                         f"{str(e)[:120]}); start it, or give the right address with --redis "
                         f"or ${REDIS_ENV}") from None
    finally:
        client.close()


class _RelayedPage:
    """The owner's side of a relayed page: a :class:`~president.web.sockets.Transport` whose
    messages come from the relaying process (a queue fed by the channel) and go back to it."""

    def __init__(self, cluster: "Cluster", cid: str, relayer: str) -> None:
        self.cluster = cluster
        self.cid = cid
        self.relayer = relayer
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.batches = False
        self.closed_code: int | None = None
        self.ended = False
        self._lock = asyncio.Lock()

    def gone(self, code: int | None) -> None:
        """The page left (its relayer said so, or died)."""
        if not self.ended:
            self.ended = True
            self.closed_code = code
            self.queue.put_nowait(None)

    async def receive(self, timeout: float | None = None) -> str | None:
        item = await (self.queue.get() if timeout is None
                      else asyncio.wait_for(self.queue.get(), timeout))
        return item

    async def send(self, message: dict[str, Any]) -> None:
        if self.ended:
            return
        async with self._lock:      # in order
            await self.cluster._publish(self.relayer, "out", self.cid, encode(message))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if self.ended:
            return
        self.ended = True
        self.queue.put_nowait(None)
        async with self._lock:
            await self.cluster._publish(self.relayer, "end", self.cid, f"{code} {reason}")


class _Relay:
    """The relaying side: a browser's socket whose table another process (``owner``) owns."""

    def __init__(self, page: WebSocketTransport, owner: str) -> None:
        self.page = page
        self.owner = owner
        self.out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.done = False


class Cluster:
    """This process among the others sharing its PostgreSQL store and Redis (module
    docstring).

    Args:
        url: Redis's address (``redis://host:port/db``; ``rediss://`` for TLS).
        owners: this process's table locks (its :attr:`~president.web.store_pg.PgOwners.process`
            is this process's name).
        namespace: the store's own mark (the app gives the ledger's ``created``), so that the
            processes of one store share their keys and channels and no others do.

    :meth:`start` and :meth:`stop` run in the app's lifespan; :attr:`sockets` is set by the app.
    Redis failing at run time costs the shared counts (each process then counts alone, a
    warning is logged) and the relay (a hello for another process's table gets
    ``elsewhere``, and the page retries), never a table or an action.
    """

    def __init__(self, url: str, owners: Any, namespace: str = "") -> None:
        self.url = url
        self.prefix = f"president:{namespace}:" if namespace else "president:"
        """Every key and channel begins so: the processes of one store share a namespace,
        and another store's processes on the same Redis never meet them."""
        self.owners = owners
        self.process: str = owners.process
        self.sockets: Sockets | None = None
        self._redis: Any = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._relays: dict[str, _Relay] = {}
        self._served: dict[str, _RelayedPage] = {}
        self._asks: dict[str, asyncio.Future[bool]] = {}
        self._serving: set[asyncio.Task[Any]] = set()
        self._live: list[str] = [self.process]
        self._count: Any = None
        self._uncount: Any = None
        self._warned = 0.0

    # ----- life -------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect, say this process is alive, and listen on its channel."""
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(self.url, socket_connect_timeout=5,
                                              health_check_interval=30)
        self._count = self._redis.register_script(_COUNT)
        self._uncount = self._redis.register_script(_UNCOUNT)
        await self._beat()
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self._channel(self.process))
        self._tasks = [asyncio.ensure_future(self._listen(pubsub)),
                       asyncio.ensure_future(self._heartbeat())]

    async def stop(self) -> None:
        """End every page relayed to this process with 1012 (they reconnect, to whichever
        process then owns their table), stop listening, and say this process is gone."""
        for page in list(self._served.values()):
            page.gone(1012)
            await self._publish(page.relayer, "end", page.cid, "1012 service restart")
        if self._serving:
            await asyncio.wait(list(self._serving), timeout=5)
        for task in self._tasks:
            task.cancel()
        for relay in list(self._relays.values()):
            relay.done = True
        try:
            await self._redis.zrem(self._key("processes"), self.process)
            await self._redis.delete(self._sockets_key(self.process))
        except Exception:
            pass
        try:
            await self._redis.aclose()
        except Exception:
            pass

    def _key(self, name: str) -> str:
        return self.prefix + name

    def _channel(self, process: str) -> str:
        return self._key(f"to:{process}")

    def _sockets_key(self, process: str) -> str:
        return self._key(f"sockets:{process}")

    def _redis_failed(self, what: str, e: BaseException) -> None:
        now = time.monotonic()
        if now - self._warned > 10:     # at most one line every 10 s
            self._warned = now
            log.warning("Redis at %s failed while %s (%s: %s); the processes count and relay "
                        "alone until it answers", mask_redis(self.url), what,
                        type(e).__name__, str(e)[:120])

    async def _beat(self) -> None:
        r = self._redis
        seconds, micro = await r.time()
        now = seconds + micro / 1e6
        async with r.pipeline(transaction=False) as p:
            p.zadd(self._key("processes"), {self.process: now})
            p.expire(self._sockets_key(self.process), COUNTS_SECONDS)
            p.zrangebyscore(self._key("processes"), now - ALIVE_SECONDS, "+inf")
            p.zremrangebyscore(self._key("processes"), "-inf", now - 3600)
            answers = await p.execute()
        live = [n.decode() if isinstance(n, bytes) else str(n) for n in answers[2]]
        self._live = [self.process, *(n for n in live if n != self.process)]

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self._beat()
            except Exception as e:
                self._redis_failed("saying this process is alive", e)
                continue
            live = set(self._live)
            for relay in list(self._relays.values()):
                if relay.owner not in live and not relay.done:
                    relay.done = True       # the owner died: the page reconnects
                    await relay.page.close(1012, "the table moves to another process")
            for page in list(self._served.values()):
                if page.relayer not in live:
                    page.gone(1006)

    # ----- shared counts ----------------------------------------------------------------

    async def sockets_opened(self, address: str) -> tuple[int, int] | None:
        """Count a new socket of ``address`` and return the address's open and unjoined
        sockets over every live process before it, or ``None`` when Redis failed (then the
        caller counts this process's only)."""
        try:
            keys = [self._sockets_key(p) for p in self._live]
            o, w = await self._count(keys=keys, args=[f"o:{address}", f"w:{address}",
                                                      COUNTS_SECONDS])
            return int(o) - 1, int(w) - 1
        except Exception as e:
            self._redis_failed("counting a socket", e)
            return None

    async def socket_joined(self, address: str) -> None:
        """A socket of ``address`` joined a table (or was relayed)."""
        await self._uncount_fields([f"w:{address}"])

    async def sockets_closed(self, address: str, *, waiting: bool) -> None:
        """A socket of ``address`` closed (``waiting``: before it joined)."""
        await self._uncount_fields([f"o:{address}", *([f"w:{address}"] if waiting else [])])

    async def _uncount_fields(self, fields: list[str]) -> None:
        try:
            await self._uncount(keys=[self._sockets_key(self.process)], args=fields)
        except Exception as e:
            self._redis_failed("counting a socket", e)

    async def table_allowed(self, address: str, per_minute: int) -> bool:
        """Count a new table of ``address`` and say whether it is within ``per_minute`` over
        every process this minute (``True`` when Redis failed: the process's own rate still
        holds)."""
        if not per_minute:
            return True
        key = self._key(f"made:{address}:{int(time.time() // 60)}")
        try:
            async with self._redis.pipeline(transaction=True) as p:
                p.incr(key)
                p.expire(key, 120)
                made, _ = await p.execute()
        except Exception as e:
            self._redis_failed("counting a new table", e)
            return True
        return int(made) <= per_minute

    # ----- the relay --------------------------------------------------------------------

    async def owner_of(self, table_id: str) -> str | None:
        """The live process that owns ``table_id`` (not this one), or ``None``."""
        owner = await asyncio.to_thread(self.owners.owner_of, table_id)
        return owner if owner is not None and owner != self.process else None

    async def ask_hand_over(self, owner: str, table_id: str) -> bool:
        """Ask ``owner`` to give ``table_id`` up (it does when no page is at it there:
        :meth:`~president.web.tables.Tables.hand_over`); ``True`` once it has, within
        :data:`HAND_OVER_SECONDS`."""
        cid = secrets.token_urlsafe(12)
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._asks[cid] = answer
        try:
            await self._publish(owner, "give", cid, f"{self.process} {table_id}")
            return await asyncio.wait_for(answer, HAND_OVER_SECONDS)
        except asyncio.TimeoutError:
            return False
        finally:
            self._asks.pop(cid, None)

    async def _give(self, cid: str, asker: str, table_id: str) -> None:
        given = False
        if self.sockets is not None:
            try:
                given = await self.sockets.tables.hand_over(table_id)
            except Exception:
                log.exception("table %s could not be handed over", table_id)
        await self._publish(asker, "given", cid, "1" if given else "0")

    async def _publish(self, process: str, op: str, cid: str, payload: str) -> None:
        try:
            await self._redis.publish(self._channel(process), f"{op} {cid} {payload}")
        except Exception as e:
            self._redis_failed("relaying a socket", e)

    async def relay(self, page: WebSocketTransport, owner: str, hello: str | bytes,
                    address: str) -> None:
        """Relay the browser's socket ``page`` to ``owner`` (whose table its ``hello`` named)
        until either side closes it."""
        cid = secrets.token_urlsafe(12)
        relay = _Relay(page, owner)
        self._relays[cid] = relay
        writer = asyncio.ensure_future(self._write(relay))
        text = hello.decode("utf-8", "replace") if isinstance(hello, bytes) else hello
        try:
            await self._publish(owner, "open", cid, orjson.dumps(
                {"from": self.process, "address": address, "hello": text}).decode())
            while not relay.done:
                raw = await page.receive()
                if raw is None or relay.done:
                    break
                if isinstance(raw, bytes):
                    raw = raw.decode("utf-8", "replace")
                await self._publish(owner, "frame", cid, raw)
        finally:
            self._relays.pop(cid, None)
            writer.cancel()
            if not relay.done:
                relay.done = True
                await self._publish(owner, "close", cid, str(page.closed_code or 1005))

    async def _write(self, relay: _Relay) -> None:
        """Send the owner's messages to the browser, in order. An owner that does not answer
        the hello within :data:`RELAY_ANSWER_SECONDS` (it died a moment ago, and Redis does
        not know yet) gets the page closed with 1013, to try again."""
        first = True
        while True:
            if first:
                try:
                    op, payload = await asyncio.wait_for(relay.out.get(), RELAY_ANSWER_SECONDS)
                except asyncio.TimeoutError:
                    relay.done = True
                    await relay.page.close(1013, "the table's process does not answer")
                    return
                first = False
            else:
                op, payload = await relay.out.get()
            if op == "out":
                await relay.page.send_text(payload)
            else:       # end: the owner closed the page
                code, _, reason = payload.partition(" ")
                relay.done = True
                await relay.page.close(int(code) if code.isdigit() else 1011, reason[:120])
                return

    async def _listen(self, pubsub: Any) -> None:
        """Dispatch the messages of this process's channel."""
        while True:
            try:
                async for message in pubsub.listen():
                    data = message.get("data")
                    if isinstance(data, bytes):
                        self._dispatch(data.decode("utf-8", "replace"))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._redis_failed("listening for relayed sockets", e)
                await asyncio.sleep(HEARTBEAT_SECONDS)
                try:
                    await pubsub.subscribe(self._channel(self.process))
                except Exception:
                    pass

    def _dispatch(self, data: str) -> None:
        op, _, rest = data.partition(" ")
        cid, _, payload = rest.partition(" ")
        if op in ("out", "end"):
            relay = self._relays.get(cid)
            if relay is not None:
                relay.out.put_nowait((op, payload))
        elif op == "frame":
            page = self._served.get(cid)
            if page is not None and not page.ended:
                page.queue.put_nowait(payload)
        elif op == "close":
            page = self._served.get(cid)
            if page is not None:
                page.gone(int(payload) if payload.isdigit() else None)
        elif op == "given":
            asked = self._asks.get(cid)
            if asked is not None and not asked.done():
                asked.set_result(payload == "1")
        elif op == "give":
            asker, _, table_id = payload.partition(" ")
            self._spawn(self._give(cid, asker, table_id))
        elif op == "open":
            try:
                opened = orjson.loads(payload)
                relayer, address, hello = opened["from"], opened["address"], opened["hello"]
            except (orjson.JSONDecodeError, KeyError, TypeError):
                log.warning("a relayed socket's opening could not be read; ignored")
                return
            self._spawn(self._serve(cid, str(relayer), str(address), str(hello)))

    def _spawn(self, job: Any) -> None:
        task = asyncio.ensure_future(job)
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    async def _serve(self, cid: str, relayer: str, address: str, hello: str) -> None:
        """Serve a page relayed from ``relayer`` as any socket: its hello, then its seat."""
        sockets = self.sockets
        if sockets is None:
            return
        page = _RelayedPage(self, cid, relayer)
        self._served[cid] = page
        page.queue.put_nowait(hello)
        try:
            seat = await sockets.hello(page, address, relayed=True)
            if seat is not None:
                await sockets.play(*seat, page)
        except Exception:
            log.exception("a socket relayed from %s failed", relayer)
        finally:
            self._served.pop(cid, None)
            await page.close(1000)

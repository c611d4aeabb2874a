"""Sealed records: data the server hands to a browser to keep, which the browser can neither
read nor change.

A match table's record (its rules, names, seat tokens, the match seed and every action) is
what the server needs to rebuild the table after a restart. It must never reach the browser
in clear: it holds every hand implicitly (the seed gives the deck order). So the server seals
it with Fernet from the ``cryptography`` package (AES-128-CBC with HMAC-SHA256,
encrypt-then-MAC), after compressing the JSON. The Fernet key is derived from one server secret.

>>> box = Sealer(b"k" * 32)
>>> box.open(box.seal({"a": 1}))
{'a': 1}
>>> box.open("not a sealed record")
Traceback (most recent call last):
...
president.web.sealing.SealError: the saved record is damaged or was not made by this server
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import secrets
import struct
import time
import zlib
from pathlib import Path
from typing import Any, Sequence

from cryptography.exceptions import InvalidTag
from cryptography.fernet import Fernet, InvalidToken

from .ledger import StoreError, default_state_dir, private_dir, tighten

__all__ = ["Sealer", "SealError", "GrowingText", "load_secret", "SECRET_FILE", "MAX_RECORD_BYTES"]

SECRET_FILE = "web-secret"
"""Name of the key file in the state directory."""

MAX_SEALED_CHARS = 400_000
"""Largest sealed text accepted (characters); a whole long match is far below it."""

MAX_RECORD_BYTES = 4 * 1024 * 1024
"""Largest record a sealed text may unpack to (bytes of JSON); a whole long match is some tens
of KB, so a text that unpacks to more (a zlib bomb, sealed with the server's own key) is
refused without unpacking the rest."""

SEAL_PREFIX = "s1."
"""How a text sealed with AES-GCM-SIV starts (never the start of a Fernet token, whose base64
has no dot)."""

_SEAL_AAD = b"president-web record s1|"
_URLSAFE_B64 = re.compile(r"[A-Za-z0-9_-]*={0,2}")
_CLOCK_SKEW = 60    # seconds a sealing time may lie in the future (Fernet allows the same)


def _siv_class() -> Any:
    """AES-GCM-SIV, or ``None`` where this OpenSSL lacks it (before 3.2)."""
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV
        AESGCMSIV(bytes(32)).encrypt(bytes(12), b"", None)
        return AESGCMSIV
    except Exception:  # ImportError, UnsupportedAlgorithm
        return None


def _compressor() -> Any:
    # A 4 KB window and a small state (memLevel 4): a record is a few KB, and setting up
    # zlib's default 256 KB state cost three times the compression itself. Any zlib stream
    # opens with zlib.decompress, so older records still open.
    return zlib.compressobj(1, zlib.DEFLATED, 12, 4)


class GrowingText:
    """The zlib stream of a text that only grows at its end, kept compressed as it grows:
    ``head``, then items joined by ``","``, then ``tail`` (a record: its setup, the log's
    entries, the closing brackets). :meth:`compressed` compresses only the items added since
    the last time, not the whole text again.

    >>> import zlib
    >>> g = GrowingText('{"log":[', ']}')
    >>> g.add(['1', '[2,"pass"]'])
    >>> zlib.decompress(g.compressed())
    b'{"log":[1,[2,"pass"]]}'
    >>> g.add(['"n"']); g.items
    3
    >>> zlib.decompress(g.compressed())
    b'{"log":[1,[2,"pass"],"n"]}'
    """

    def __init__(self, head: str, tail: str) -> None:
        self.head = head
        self.items = 0
        """How many items the text holds."""
        self._z = _compressor()
        self._out = bytearray(self._z.compress(head.encode()))
        self._tail = tail.encode()

    def add(self, items: Sequence[str]) -> None:
        """Append ``items`` (each one JSON value as text) to the end, before the tail."""
        if not items:
            return
        joined = ",".join(items)
        self._out += self._z.compress((("," if self.items else "") + joined).encode())
        self.items += len(items)

    def compressed(self) -> bytes:
        """One zlib stream of the whole text now (head, items, tail)."""
        z = self._z.copy()        # the stream so far goes on growing; this copy ends it
        end: bytes = z.compress(self._tail) + z.flush()
        return bytes(self._out) + end


class SealError(ValueError):
    """A sealed text that is not valid: damaged, changed, too large or from another server."""


class Sealer:
    """Seals and opens JSON-able records with a server secret.

    Args:
        secret: the server secret (bytes; any length, 32 random bytes recommended).

    Raises:
        ValueError: if the secret is empty.
    """

    def __init__(self, secret: bytes) -> None:
        if not secret:
            raise ValueError("the sealing secret is empty; give at least 16 random bytes")
        key = hmac.new(secret, b"president-web seal", hashlib.sha256).digest()
        self._fernet = Fernet(base64.urlsafe_b64encode(key))
        siv = _siv_class()
        self._siv = None if siv is None else siv(
            hmac.new(secret, b"president-web seal s1", hashlib.sha256).digest())

    def seal(self, record: Any) -> str:
        """The record as an opaque URL-safe text (str)."""
        return self.seal_text(json.dumps(record, separators=(",", ":")))

    def seal_text(self, text: str) -> str:
        """:meth:`seal` of a record already encoded as JSON ``text`` (the caller vouches that it
        is valid JSON; :meth:`open` gives back the decoded record)."""
        z = _compressor()
        return self.seal_compressed(z.compress(text.encode()) + z.flush())

    def seal_compressed(self, data: bytes) -> str:
        """:meth:`seal_text` of a record already encoded as JSON and compressed: ``data`` is
        one zlib stream of it (such as :meth:`GrowingText.compressed`)."""
        return self._seal_bytes(data, int(time.time()))

    def _seal_bytes(self, data: bytes, at: int) -> str:
        """``data`` sealed as if at ``at`` (seconds since the epoch)."""
        if self._siv is None:
            return self._fernet.encrypt_at_time(data, at).decode()
        stamp = struct.pack(">Q", at)
        nonce = os.urandom(12)
        sealed = self._siv.encrypt(nonce, data, _SEAL_AAD + stamp)
        return SEAL_PREFIX + base64.urlsafe_b64encode(stamp + nonce + sealed).decode()

    def _open_bytes(self, text: str, max_age: int | None) -> tuple[bytes, int]:
        """The compressed record sealed in ``text`` (either format) and its sealing time
        (seconds since the epoch).

        Raises:
            InvalidToken: not sealed by this server, or changed.
            SealError: authentic, but older than ``max_age`` seconds.
        """
        fernet = not text.startswith(SEAL_PREFIX)
        body = text if fernet else text[len(SEAL_PREFIX):]
        # strict, both formats: only the text this server wrote, character for character.
        # base64 would skip a character outside its alphabet, take "+/" for "-_", ignore an
        # extra "=" and the unused bits of the last character: each a changed text.
        if not _URLSAFE_B64.fullmatch(body):
            raise InvalidToken
        try:
            raw = base64.urlsafe_b64decode(body)
        except (binascii.Error, ValueError):
            raise InvalidToken from None
        if base64.urlsafe_b64encode(raw).decode() != body:
            raise InvalidToken
        if fernet:
            token = body.encode("ascii")
            at = self._fernet.extract_timestamp(token)   # InvalidToken if it is not ours
        else:
            if self._siv is None or len(raw) < 8 + 12 + 16:
                raise InvalidToken
            stamp, nonce, sealed = raw[:8], raw[8:20], raw[20:]
            try:
                data: bytes = self._siv.decrypt(nonce, sealed, _SEAL_AAD + stamp)
            except InvalidTag:
                raise InvalidToken from None
            at = struct.unpack(">Q", stamp)[0]
        now = int(time.time())
        if at > now + _CLOCK_SKEW:
            raise InvalidToken
        if max_age is not None and now - at > max_age:
            raise SealError(f"the saved record is more than {max_age // 86400} days old; "
                            "start a new match")
        return (self._fernet.decrypt(token) if fernet else data), at

    def open(self, text: str, *, max_age: int | None = None) -> Any:
        """The record sealed in ``text``.

        Args:
            text: a sealed text from :meth:`seal`.
            max_age: refuse a record sealed more than this many seconds ago (by the sealing
                time inside it); ``None``: any age.

        Raises:
            SealError: if the text is not a record sealed with this server's secret, was
                changed in any way, or is older than ``max_age``.
        """
        return self.open_dated(text, max_age=max_age)[0]

    def open_dated(self, text: str, *, max_age: int | None = None) -> tuple[Any, int]:
        """:meth:`open`, and when the record was sealed (seconds since the epoch, as the
        sealed text says: only this server could have written it).

        Raises:
            SealError: as :meth:`open`.
        """
        bad = SealError("the saved record is damaged or was not made by this server")
        if not isinstance(text, str) or len(text) > MAX_SEALED_CHARS:
            raise bad
        try:
            unpack = zlib.decompressobj()
            data, at = self._open_bytes(text, max_age)
            plain = unpack.decompress(data, MAX_RECORD_BYTES)
            if unpack.unconsumed_tail or not unpack.eof:
                raise SealError("the saved record is damaged or was not made by this server")
            return json.loads(plain), at
        except SealError:
            raise
        except (InvalidToken, UnicodeError, zlib.error, ValueError):
            raise bad from None


def load_secret(path: str | os.PathLike[str] | None = None) -> bytes:
    """The server secret: ``$PRESIDENT_WEB_SECRET`` if set, else the key file (created with
    32 random bytes and mode 0600 on first use, its folder 0700; looser modes of an existing
    file or folder are tightened) so sealed records survive a restart.

    Args:
        path: the key file; default ``$XDG_STATE_HOME/president/web-secret``
            (``~/.local/state/president/web-secret``, see
            :func:`~president.web.ledger.default_state_dir`).

    Raises:
        StoreError: the key file is damaged (shorter than 16 bytes), cannot be read, or
            cannot be made: a key kept only in memory would make every saved match in the
            players' pages unreadable after the next restart, and a damaged one replaced
            silently would do the same at once.
    """
    env = os.environ.get("PRESIDENT_WEB_SECRET")
    if env:
        return hashlib.sha256(env.encode()).digest()
    if path is None:
        path = default_state_dir() / SECRET_FILE
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = None
    except OSError as e:
        raise StoreError(f"cannot read the key file {path} ({e.strerror or e}), which seals the "
                         "saved matches players keep in their pages; make it a readable file "
                         "of this user, or restore it from a backup") from None
    if data is not None:
        if len(data) >= 16:
            tighten(path.parent, 0o700)
            tighten(path, 0o600)
            return data
        raise StoreError(f"the key file {path} is damaged ({len(data)} bytes; a key has 32): "
                         "restore it from a backup, or move it aside to make a new key (every "
                         "saved match in the players' pages then stops opening; the tables in "
                         "the store are not touched)")
    secret = secrets.token_bytes(32)
    try:
        private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        tighten(path, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secret)
    except OSError as e:
        raise StoreError(f"cannot make the key file {path} ({e.strerror or e}), which seals the "
                         "saved matches players keep in their pages; give the server a folder "
                         "it can write (XDG_STATE_HOME=/some/folder)") from None
    return secret

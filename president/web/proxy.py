"""The reverse proxies ``president serve`` trusts (``--trusted-proxy``,
``$PRESIDENT_TRUSTED_PROXIES``): only a connection whose peer address is one of them has its
``X-Forwarded-For`` and ``X-Forwarded-Proto`` honoured (by uvicorn's own
``ProxyHeadersMiddleware``: ``proxy_headers=True, forwarded_allow_ips=[...]``), so the
per-address limits see the real client behind the proxy and a client connecting directly
cannot name another address. Off by default.

A trusted proxy's connections carry many clients, so the limits counted per connection
before any header is read (HTTP connections per address, the cooldown of an address refused
as busy) do not apply to its address; the app's per-address limits (tables a minute,
sockets per address) count the forwarded client (uvicorn puts it in ``scope["client"]``).

>>> trusted = TrustedProxies(["127.0.0.1", "10.0.0.0/8", "::1"])
>>> [trusted.trusts(a) for a in ("127.0.0.1", "10.2.3.4", "::1", "127.0.0.2", None, "x")]
[True, True, True, False, False, False]
>>> parse_proxies(["127.0.0.1, ::1", "", "172.16.0.1/12"])
['127.0.0.1', '::1', '172.16.0.0/12']
>>> parse_proxies(["proxy.example"])
Traceback (most recent call last):
...
ValueError: --trusted-proxy 'proxy.example' is not an IP address or network (such as 127.0.0.1 or 172.16.0.0/12)
"""

from __future__ import annotations

import ipaddress
import os
from typing import Iterable

__all__ = ["PROXIES_ENV", "TrustedProxies", "parse_proxies", "proxies_from_env"]

PROXIES_ENV = "PRESIDENT_TRUSTED_PROXIES"
"""The environment variable naming trusted proxies (comma-separated) besides
``--trusted-proxy``."""

_Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(values: Iterable[str]) -> list[str]:
    """The proxies named by ``values`` (each one address or network, or several
    comma-separated), in order, without blanks or repeats, each as :mod:`ipaddress` writes
    it (a network by its first address: uvicorn reads only that form as a network).

    Raises:
        ValueError: for anything that is not an IP address or network (a host name: the
            peer address of a connection is compared, never a name).
    """
    out: list[str] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            try:
                item = (str(ipaddress.ip_network(item, strict=False)) if "/" in item
                        else str(ipaddress.ip_address(item)))
            except ValueError:
                raise ValueError(f"--trusted-proxy {item!r} is not an IP address or network "
                                 "(such as 127.0.0.1 or 172.16.0.0/12)") from None
            if item not in out:
                out.append(item)
    return out


def proxies_from_env() -> list[str]:
    """The proxies named in ``$PRESIDENT_TRUSTED_PROXIES`` (comma-separated; none if unset)."""
    return parse_proxies([os.environ.get(PROXIES_ENV, "")])


class TrustedProxies:
    """Whether a connection's peer address is a trusted proxy: the same test uvicorn's
    ``ProxyHeadersMiddleware`` makes with the same list (an address equal to one named, or
    inside a network named), so a peer exempted from the connection limits is exactly one
    whose forwarded headers are honoured."""

    def __init__(self, proxies: Iterable[str]) -> None:
        self.addresses: set[ipaddress.IPv4Address | ipaddress.IPv6Address] = set()
        self.networks: list[_Network] = []
        for item in parse_proxies(proxies):
            if "/" in item:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            else:
                self.addresses.add(ipaddress.ip_address(item))

    def __bool__(self) -> bool:
        return bool(self.addresses or self.networks)

    def trusts(self, host: str | None) -> bool:
        """Whether ``host`` (a peer address as the transport gives it) is a trusted proxy."""
        if not host:
            return False
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return ip in self.addresses or any(ip in net for net in self.networks)

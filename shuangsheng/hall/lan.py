"""This machine's address on the local network: what a TV or a phone on the same network types in, for `show --lan`
and `serve --lan`. Asks the system which interface it would send from (nothing is sent) or what its own name
resolves to."""

from __future__ import annotations

import socket
from collections.abc import Callable


def route_address() -> str | None:
    """The address this machine would send from to a private network address: a UDP socket's `connect` chooses
    the outgoing interface and sends nothing (no network access is needed, nothing leaves the machine)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return None


def hostname_addresses() -> list[str]:
    """The IPv4 addresses this machine's name resolves to (no network access for its own name)."""
    try:
        return socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return []


def lan_address(*, route: Callable[[], str | None] = route_address,
                named: Callable[[], list[str]] = hostname_addresses) -> str | None:
    """This machine's address on the local network (what a TV or a phone on the same network types in), or None.
    `route` and `named` are the two ways of finding it (replaced in tests)."""
    address = route()
    if address and not address.startswith("127.") and address != "0.0.0.0":
        return address
    return next((a for a in named() if not a.startswith("127.")), None)

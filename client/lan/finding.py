"""Finding the table to join, by how it was named: its host's address (with the host's key,
table id and game, nothing to hear), its id or its host's fingerprint, or nothing (the one
open table) — the last three from the beacons heard within `--wait`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from peerboard import engines
from peerboard.client.lan.options import ByAddress, ByName, LanOptions, OnlyTable
from peerboard.client.text import printable
from peerboard.client.usage import UsageError
from peerboard.engines import OptionError
from peerboard.node import discovery
from peerboard.protocol.log import PROTOCOL_VERSION

TABLES_NAMED_AT_MOST = 8  # tables one "several tables" error lists


@dataclass(frozen=True)
class TableAt:
    """Everything joining a table needs."""

    endpoint: str
    key: bytes
    table: bytes
    game: str


def find_table(opts: LanOptions) -> TableAt:
    match opts.table:
        case ByAddress(endpoint, key, table, game) if key is not None:
            return TableAt(endpoint, key, table, game)
        case ByAddress(endpoint):
            return _heard_table(opts, lambda t: t.endpoint == endpoint, f"at {endpoint}",
                                "; give its --key, --table and --game (the host prints them)")
        case ByName(text, host):
            named = f"{text}@{host}" if host else text
            return _heard_table(opts, lambda t: ((t.table_id.startswith(text) or t.fingerprint == text)
                                                 and host in (None, t.fingerprint)), repr(named),
                                " (see: peerboard tables)")
        case OnlyTable():
            return _heard_table(opts, None, "", "")
    raise TypeError(f"{opts.table!r} names no table")


def _heard_table(opts: LanOptions, match: Callable[[discovery.Table], bool] | None, what: str,
                 hint: str) -> TableAt:
    """The one announced table `match` picks (any, without one), heard within --wait. It
    stops listening at the first match only when the host is pinned (by its address, or
    ID@FINGERPRINT): otherwise a second host announcing the same id must have its chance
    to be heard, and to be named beside the first."""
    pinned = isinstance(opts.table, ByAddress) or (isinstance(opts.table, ByName) and opts.table.host is not None)
    heard = discovery.listen(opts.wait, opts.beacon_port,
                             until=(lambda ts: any(match(t) for t in ts)) if match and pinned else None)
    found = [t for t in heard if match(t)] if match else heard
    if not found:
        where = f"{what} " if what else ""
        if isinstance(opts.table, ByAddress):
            raise UsageError(f"no table announced {where}within {opts.wait:g} s{hint}")
        raise UsageError(f"no open table {where}heard on this network within {opts.wait:g} s{hint}")
    if len(found) > 1:
        listed = "; ".join(f"{t.table_id[:8]}@{t.fingerprint} ({printable(t.game, 12)}, host "
                           f"{printable(t.name, 20)}{', private' if t.private else ''})"
                           for t in found[:TABLES_NAMED_AT_MOST])
        more = f"; and {len(found) - TABLES_NAMED_AT_MOST} more" if len(found) > TABLES_NAMED_AT_MOST else ""
        raise UsageError(f"{len(found)} tables fit: {listed}{more}; name one: peerboard join ID@FINGERPRINT "
                         f"(compare the fingerprint with its host's)")
    return _joinable(found[0], opts.watch, opts.code)


def _joinable(t: discovery.Table, watch: bool, code: str | None = None) -> TableAt:
    """The table a beacon announced, if this node can join it."""
    if t.version != PROTOCOL_VERSION:
        raise UsageError(f"the table {t.table_id[:8]} speaks protocol version {t.version}; this peerboard speaks "
                         f"version {PROTOCOL_VERSION}")
    if t.free <= 0 and not watch:
        raise UsageError(f"the table {t.table_id[:8]} is full ({t.players} seats)")
    try:
        engines.get(t.game)
    except OptionError:
        raise UsageError(f"the table {t.table_id[:8]} plays {printable(t.game)!r}, a game this peerboard "
                         f"does not have") from None
    if t.private and code is None:
        raise UsageError(f"the table {t.table_id[:8]} is private: give its code with --code (ask its host)")
    return TableAt(t.endpoint, t.key, t.table, t.game)

"""Why a node is refused a seat, or a view of the game (spec/protocol.md, "Forming a table",
"Private tables", "Spectators"): the reasons a `refuse` message carries, in the words the
joiner is shown. Two are for now — the table full while it forms, codes not checked now —
and a joiner told one asks again for a while (protocol/session/forming.py, `FOR_NOW`).
"""
from __future__ import annotations

#: a private table's hello without a knock
PRIVATE = "this table is private: ask its host for the code"
#: a private table's hello whose knock is not of the table's code
WRONG_CODE = "that is not this private table's code: ask its host for it"
#: the seats are all taken, for now: a joiner asks again until a seat held by a silent node
#: is freed
FULL = "the table is full"
#: the host checks no code now (too many wrong ones): the seconds to wait follow
CODES_WAIT = "too many wrong codes were tried at this table: it checks codes again in"
#: the game has started: no seat will be free again
STARTED = f"{FULL}: its game has started"
#: the host removed this node's seat (and refuses its hellos from now on)
REMOVED = "the host removed this node from the table"
#: a rematch's table takes only the seats of the game before
REMATCH_ONLY = "this table is a rematch: only the seats of the game before play at it"
#: the host left: its table is no more
CLOSED = "the host closed the table"
#: a spectator whose key the seat's node does not admit
NOT_WATCHING = ("this table does not admit this node's key to watch: a player must admit it with "
                "--spectator KEY (`peerboard key` prints it) or --spectators-any")

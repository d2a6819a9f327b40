"""What a node keeps on disk for its game (spec/transport.md, "Files"; spec/log-format.md):
the log and the seat file beside it (node/gamefiles.py), written as the session's effects
say — an entry appended and fsynced, the secret choice committed, the claim signed — and
the table's chat in its own file beside the log (node/chatfile.py). A rematch's game gets
files of its own: the old ones are closed as they are.
"""
from __future__ import annotations

from pathlib import Path

from peerboard.node.chatfile import ChatFile, chat_path
from peerboard.node.gamefiles import GameFiles, SeatFile, new_log_path
from peerboard.protocol.log import Entry, Identity, SeatSecrets, SignedGenesis
from peerboard.protocol.session import Say


class Keeping:
    """One node's game files: none until the genesis is stored (or the game resumed)."""

    def __init__(self, games: Path | None):
        self.games = games  # the folder of the game logs (None: the user's data directory)
        self.files: GameFiles | None = None
        self._chat: ChatFile | None = None  # beside the log, opened with the first line said
        self._chat_failed = False

    @property
    def log_path(self) -> Path | None:
        return None if self.files is None else self.files.path

    @property
    def chat_path(self) -> Path | None:
        return None if self.files is None else chat_path(self.files.path)

    def create(self, genesis: SignedGenesis, identity: Identity, secrets: SeatSecrets | None, name: str,
               addr: str, addrs: tuple[str, ...], extra: dict) -> Path:
        """A new game's log (its genesis stored) and seat file; where the log is."""
        seat = SeatFile(identity.secret, None if secrets is None else secrets.master, name, addr, tuple(addrs), None,
                        extra)
        path = new_log_path(genesis, identity, self.games)
        self.files = GameFiles.create(path, genesis, seat)
        return path

    def resumed(self, files: GameFiles) -> None:
        self.files = files

    def store(self, entry: Entry, sync: bool) -> None:
        self._open().append(entry, sync)  # fsynced before anything after it, unless not `sync`

    def sync(self) -> None:
        self._open().sync()

    def unstore(self, entry: Entry) -> None:
        self._open().remove_last(entry)

    def set_aside(self, entries: tuple[Entry, ...]) -> Path:
        """The last `entries` taken out of the log, kept in a file beside it: that file."""
        return self._open().set_aside_last(entries)

    def store_choice(self, actions: tuple, nonce: bytes) -> None:
        self._open().store_choice(actions, nonce)

    def store_claim(self, gone: int, seq: int, prev: bytes) -> None:
        self._open().update_seat(claim=(gone, seq, prev))

    def store_addrs(self, addrs: tuple[str, ...]) -> None:
        if self.files is not None:
            self.files.update_seat(addrs=addrs)

    def keep_chat(self, line: Say) -> str | None:
        """Append a line said at the table to the chat file beside the log; a file that cannot
        be written is said once (the sentence returned), and the game goes on without keeping
        its chat."""
        if self.files is None or self._chat_failed:
            return None
        try:
            if self._chat is None:
                self._chat = ChatFile(chat_path(self.files.path))
            self._chat.append(line)
        except OSError as exc:
            self._chat_failed = True
            return (f"cannot keep the table's chat in {self._chat.path if self._chat else '?'}: "
                    f"{exc.strerror or exc}; the game goes on, its chat is not kept here")
        return None

    def close(self) -> None:
        """The game's files closed (they stay as they are); the next game gets its own."""
        if self.files is not None:
            self.files.close()
            self.files = None
        if self._chat is not None:
            self._chat.close()
            self._chat = None
        self._chat_failed = False

    def _open(self) -> GameFiles:
        assert self.files is not None, "an effect on the game's files before its genesis was stored"
        return self.files

"""The table's chat beside a game's log (spec/chat-format.md): `<game>.chat`, next to
`<game>.pblog`. Each line the node took (its own too) is appended as it is heard; the log
itself never holds a word of it, so its bytes and `replay --verify` are the same with or
without chat. Chat is not sacred like the log: it is written and flushed, not fsynced (a
crash may lose its last lines), and a chat file that cannot be written costs the table its
chat here, never the game."""
from __future__ import annotations

from pathlib import Path

from peerboard.protocol.session import Say, chat_header_frame, chat_line_frame, read_chat

CHAT_SUFFIX = ".chat"


def chat_path(log_path: Path) -> Path:
    """Where the chat of the game logged at `log_path` is kept."""
    return log_path.with_suffix(CHAT_SUFFIX)


class ChatFile:
    """The open chat file of one game: lines are appended, never rewritten."""

    def __init__(self, path: Path):
        self.path = path
        self._file = None

    def append(self, line: Say) -> None:
        """Keep `line` (OSError if the file cannot be written)."""
        if self._file is None:
            self._file = open(self.path, "ab")
            if self._file.tell() == 0:
                self._file.write(chat_header_frame())
        self._file.write(chat_line_frame(line))
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_chat_file(path: Path, table: bytes | None = None) -> tuple[list[Say], int]:
    """The checked lines of the chat file at `path` ([] when there is none) and how many
    records were left out (protocol/session/chat.py, `read_chat`)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], 0
    return read_chat(data, table)

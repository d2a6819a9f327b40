"""The full-screen terminal client (prompt-toolkit).

Entry points, one call each:

    run_replay(path, view_as=None) -> int        the replay viewer of a saved log
    run_lobby() -> request | None                the lobby: tables on the network, games to
                                                 resume, a table to host (lobby_*.py)
    run_game(node, title="") -> int              the game screen in front of a live node
                                                 (after host/join/resume; see live_run.py)

Layout: each screen is a model (game_model.py: what is shown, the plan), a presenter
(game_presenter.py, replay_presenter.py: what a key, a line, a click or a game event
does; pointing.py: the game presenter's board cursor and mouse) and a view (game_view.py:
prompt-toolkit containers only). A screen reads its game through a GameSource (source.py):
live_source.py over the node, replay.py over a log file, local.py against random players
in this process. Each game's look is its own client/games/NAME/board.py, found by
boards/board_for; any other game gets boards/plain.py.
"""
from __future__ import annotations

from pathlib import Path


def run_replay(path: Path, view_as: int | None = None, input=None, output=None) -> int:
    """The replay viewer; returns 0 for a valid log, 1 for an invalid one (whose readable
    part is still shown), like `replay --verify`."""
    from peerboard.client.tui.app import build, run_screen
    from peerboard.client.tui.replay import load
    from peerboard.client.tui.replay_presenter import ReplayPresenter

    source, verdict = load(path, view_as)
    if source is None:  # nothing to show: not even a genesis
        print(verdict.summary())
        return 1
    presenter = ReplayPresenter(source)
    app, _ = build(presenter, input=input, output=output)
    run_screen(app, presenter)
    return 0 if source.verdict is not None and source.verdict.ok else 1


def run_lobby(source=None, input=None, output=None, code_again=None, name: str = ""):
    """The lobby: open tables refreshed live, unfinished games, a form to host one. Returns
    what the person chose (HostRequest, JoinRequest, ResumeRequest from lobby_source) or
    None when they left; the caller starts that game and then `run_game` in front of it.
    `code_again` (a lobby_source.CodeAgain): the lobby opens asking that table's code
    again, saying why. `name`: the name the forms show first."""
    from peerboard.client.tui.app import build, run_screen
    from peerboard.client.tui.lobby_presenter import LobbyPresenter
    from peerboard.client.tui.lobby_source import NetworkLobby
    from peerboard.client.tui.lobby_view import LobbyView

    presenter = LobbyPresenter(source or NetworkLobby(), code_again=code_again, name=name)
    app, _ = build(presenter, input=input, output=output, view_class=LobbyView)
    run_screen(app, presenter)
    return presenter.request


def run_game(node, title: str = "", input=None, output=None, max_seconds: float | None = None) -> int:
    """The game screen in front of a node that hosted, joined or resumed a table; the node
    runs in a thread of its own until the person quits. Returns the exit status."""
    from peerboard.client.tui.live_run import run_game as run

    return run(node, title, input=input, output=output, max_seconds=max_seconds)

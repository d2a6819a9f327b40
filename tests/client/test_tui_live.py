"""The live adapter (client/tui/live_source.py) in front of a real node: this test's node hosts a
table on loopback (real ZeroMQ sockets, real files), a real bot process takes the other
seat (`peerboard bot`), and the game screen runs headless (prompt-toolkit's pipe input)
in the test's loop while the node runs its loop in a thread of its own, as in
`peerboard play`.

What a person would notice: the forming screen lists the seats as they are taken, with
the line to join; the game starts on screen; a planned turn goes to the node (on the
node's own thread) and the bot's reply is drawn at once, said in the status line; leaving
tells the peer and stops the node; text from a peer is shown escaped."""
import os
import threading

import pytest

from peerboard import engines
from peerboard.client.exitcode import ExitCode
from peerboard.client.tui.game_presenter import GamePresenter
from peerboard.client.tui.live_source import LiveSource
from peerboard.client.tui.screen_player import ScreenPlayer
from support.lanhelp import LOOPBACK, Proc
from peerboard.node.loop import Node
from peerboard.node.transport import Admission, Transport
from peerboard.protocol.session import session as proto
from peerboard.protocol.log.identity import Identity
from peerboard.protocol.log.secrets import SeatSecrets
from support.tui_harness import Screen, run


class Table:
    """A table this test hosts on loopback, seen through a LiveSource, and the bot
    processes it starts."""

    def __init__(self, tmp_path, game: str = "aton", players: int = 2, options: dict | None = None):
        self.tmp_path = tmp_path
        identity = Identity.from_seed(os.urandom(32))
        self.transport = Transport(identity, LOOPBACK, Admission())
        self.node = Node(identity, "ann", self.transport, self.transport.endpoint, on_event=lambda e: None,
                         games=tmp_path / "games")
        self.source = LiveSource(self.node)
        self.table = self.node.host(SeatSecrets.from_master(os.urandom(32)), game, players, options or {}, None)
        self.source.say(f"join it from this network with: peerboard join {self.table.hex()[:8]}")
        self.source.prepare()
        self.game, self.key = game, identity.public_key
        self.bots: list[Proc] = []
        self.submitted_on: set[int] = set()
        submit = self.node.submit

        def recorded(actions, now=None):  # (which thread hands decisions to the node)
            self.submitted_on.add(threading.get_ident())
            return submit(actions, now)

        self.node.submit = recorded
        self.thread = threading.Thread(target=self.source.run_node, args=(60,), daemon=True)

    def bot(self, name: str, *more: str) -> Proc:
        args = ["bot", self.transport.endpoint, "--key", self.key.hex(), "--table", self.table.hex(), "--game",
                self.game, "--name", name, "--bind", LOOPBACK, "--max-seconds", "60", *more]
        self.bots.append(Proc(args, self.tmp_path / name, self.tmp_path / f"{name}.out"))
        return self.bots[-1]

    def close(self) -> None:
        self.source.close()
        self.thread.join(10)
        self.node.close(linger=0)
        for bot in self.bots:
            bot.close()


@pytest.fixture
def table_of(tmp_path):
    made: list[Table] = []

    def make(**kw) -> Table:
        made.append(Table(tmp_path, **kw))
        return made[-1]

    yield make
    for t in made:
        t.close()


@pytest.mark.processes
def test_the_forming_screen_lists_the_seats_then_the_game_starts_and_a_turn_goes_to_the_node(table_of):
    t = table_of()

    async def body():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            text = screen.text()
            assert "Aton · table " + t.table.hex()[:8] + " · 2 seats · open table" in text
            assert "Waiting for players: 1 of 2 seats taken." in text and "seat 1  (free)" in text
            assert f"peerboard join {t.table.hex()[:8]}" in text
            assert "you (host)" in text
            t.bot("bot-1")
            await screen.until(lambda: "Your turn:" in screen.text(), 30)  # the game began: seat 0 first
            text = screen.text()
            assert "Aton · you are seat 0" in text and "1 bot-1" in text
            await screen.type("keep")
            await screen.until(lambda: "Planned: keep. The turn is whole: Enter (or F3) sends it" in screen.text())
            await screen.press("enter")
            # the bot's reply, drawn as soon as it came: in the move list and the status line
            await screen.until(lambda: "seat 1 (bot-1) played:" in screen.text(), 20)
            lines = screen.presenter.model.snapshot.moves
            moves = [m for m in lines if " -> " not in m.text]
            assert [m.seat for m in moves[:2]] == [0, 1] and moves[0].text == "keep"
            # the draws that dealt the hands, where they came about: the other seat's hidden
            draws = [m.text for m in lines if m.text.startswith("reveals -> draw ")]
            assert draws and "draw ?" in draws[0] and any(d.isdigit() for d in draws[0])
            assert t.submitted_on and threading.get_ident() not in t.submitted_on  # the node's own thread
            screen.input.send_text("\x1b[21~")  # F10 (the screen closes: no key after it is read)
            await screen.until(lambda: screen.task.done())
        t.thread.join(10)
        assert not t.thread.is_alive() and t.source.exit_status is ExitCode.DONE
        t.bots[0].wait_for(r"seat 0 \(ann\) left the table; the game waits until it resumes", 10)

    run(body())


@pytest.mark.processes
def test_a_seat_freed_and_removed_on_the_forming_screen(table_of):
    t = table_of(game="athos", players=3)

    async def body():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            t.bot("bot-1")
            await screen.until(lambda: "Seat 1 taken by bot-1" in screen.text(), 20)
            assert "F5 Remove seat" in screen.text()
            await screen.type("remove 1")
            await screen.until(lambda: "Seat 1 (bot-1, " in screen.text(), 10)
            text = screen.text()
            assert "is free again: the host removed it." in text and "seat 1  (free)" in text
            t.bots[0].wait_for(r"refused", 10)  # (that node is told, and refused from now on)
            await screen.type("remove 1")  # (nobody holds it now)
            await screen.until(lambda: screen.presenter.model.alert.kind == "warn", 10)

    run(body())


def test_what_a_peer_says_reaches_the_screen_escaped_and_a_refusal_ends_it(table_of):
    t = table_of()

    async def body():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            # (events reach the adapter as the node's loop calls it: from the node's thread)
            t.node.call_later(0, lambda: t.node.on_event(proto.Refused("go away\x1b[2J\x07")))
            await screen.until(lambda: "The table refused this node" in screen.text(), 10)
            text = screen.text()
            assert "go away\\x1b[2J\\x07" in text and "\x1b" not in text and "\x07" not in text
        t.thread.join(10)
        assert t.source.exit_status is ExitCode.REFUSED and not t.thread.is_alive()

    run(body())


@pytest.mark.processes
def test_our_own_fault_halts_the_game_in_one_line_that_names_the_file_with_the_details(table_of, monkeypatch):
    t = table_of()
    game = engines.get("aton")

    def broken(state):
        raise RuntimeError("a bug of ours")

    async def body():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            t.bot("bot-1")
            await screen.until(lambda: "Your turn:" in screen.text(), 30)
            monkeypatch.setattr(game, "state_hash", broken)  # the next entry stored here fails: ours
            await screen.type("keep")
            await screen.press("enter")
            await screen.until(lambda: "The game is paused here: internal error" in screen.text(), 20)
            said = screen.presenter.model.alert  # (on the status line, wrapped to the lines it needs)
            assert said.kind == "error" and "RuntimeError: a bug of ours" in said.text
            assert "our own fault, not a peer's; details in" in said.text and said.text.endswith(".errors.txt.")
            assert "Traceback" not in screen.text()
            await screen.until(lambda: not t.thread.is_alive(), 10)  # the node stopped; the screen stays
            assert "The game is paused here" in screen.text()
        assert t.source.exit_status is ExitCode.HALTED
        errors = list((t.tmp_path / "games").glob("*.errors.txt"))
        assert errors and "RuntimeError: a bug of ours" in errors[0].read_text()

    run(body())


def test_the_lines_left_on_the_terminal_say_how_to_come_back(tmp_path):
    identity = Identity.from_seed(bytes(32))
    transport = Transport(identity, LOOPBACK, Admission())
    node = Node(identity, "ann", transport, transport.endpoint, on_event=lambda e: None, games=tmp_path)
    try:
        seat = ScreenPlayer(node)
        node.host(SeatSecrets.from_master(bytes(32)), "aton", 2, {}, None)
        assert seat.ending_lines(ExitCode.DONE) == ["You left the table before the game started."]
        assert seat.ending_lines(ExitCode.GAVE_UP) == ["Gave up (--max-seconds); the game is not over."]
    finally:
        node.close(linger=0)


@pytest.mark.processes
def test_a_line_said_on_the_input_line_reaches_the_bot_and_what_is_said_shows_above_it(table_of):
    t = table_of()

    async def body():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            t.bot("bot-1")
            await screen.until(lambda: "Your turn:" in screen.text(), 30)
            await screen.type("say good luck, bot")  # (escapes a peer says: tests/lan/test_lan_chat.py)
            await screen.until(lambda: "You said: good luck, bot" in screen.text(), 10)
            assert "\nchat" in screen.text().replace("│", "\n")  # (the chat, above the input line)
            t.bots[0].wait_for(r"seat 0 \(ann\) says: good luck, bot", 10)
            await screen.type("say")
            await screen.until(lambda: "Say what?" in screen.text(), 10)

    run(body())


@pytest.mark.processes
def test_f7_at_the_end_plays_the_table_again_with_the_first_seat_moved_on(table_of):
    t = table_of(options={"win_points": 1})

    async def body():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            t.bot("bot-1")
            for _ in range(200):  # (the person plays its first legal action, through the source)
                snap = t.source.snapshot()
                if snap.over:
                    break
                if snap.decision and snap.legal:
                    try:
                        t.source.submit([snap.legal[0]])
                    except Exception:
                        pass
                await screen.until(lambda: t.source.snapshot() is not snap, 20)
            await screen.until(lambda: "F7 Again" in screen.text(), 30)
            first = t.node.session.genesis_hash
            screen.input.send_text("\x1b[18~")  # F7
            await screen.until(lambda: "Aton · you are seat 1" in screen.text(), 30)
            # (the new table's seats are known before its genesis is signed)
            await screen.until(lambda: t.node.session.genesis_hash not in (None, first), 30)
            assert t.node.session.seats[0].name == "bot-1"

    run(body())


@pytest.mark.processes
def test_f6_asks_once_then_resigns_and_the_game_ends_on_both_sides(table_of):
    t = table_of()

    async def body():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            t.bot("bot-1")
            await screen.until(lambda: "Your turn:" in screen.text(), 30)
            assert "F6 Resign" in screen.text()
            await screen.press("f6")
            await screen.until(lambda: "Resign the game?" in screen.text(), 10)
            await screen.type("no")  # any other answer: not resigned
            await screen.until(lambda: "Not resigned; the game goes on." in screen.text(), 10)
            assert t.node.session.ending is None
            await screen.press("f6")
            await screen.press("f6")
            await screen.until(lambda: t.node.session.result is not None, 30)
            assert t.node.session.ending.seats == (0,)
            assert t.node.session.result.winners == (1,)
            # the line over the board says how the game ended, not whose turn it was
            await screen.until(lambda: screen.presenter.model.situation().startswith("Game over: you resigned"), 10)
            top = " ".join(line.strip() for line in screen.text().split("\n")[: len(screen.view.situation_lines)])
            assert top.startswith("Game over: you resigned at entry"), top
        t.thread.join(10)
        t.bots[0].wait_for(r"Game over: seat 0 \(ann\) resigned at entry \d+; won by seat 1 \(bot-1\)", 20)

    run(body())



@pytest.mark.processes
def test_a_draw_offered_is_declined_by_a_bot_and_accepted_by_one_whose_hook_says_so(table_of):
    """A bot declines every offer unless its strategy's `on_offer` accepts: the screen hears
    the decline; then, against a bot that accepts, the game ends drawn on both sides."""
    t = table_of()

    async def declined():
        screen = Screen(GamePresenter(t.source), 120, 32)
        async with screen:
            t.thread.start()
            t.bot("bot-1", "--strategy", "random", "--think", "5")
            await screen.until(lambda: "Your turn:" in screen.text(), 30)
            await screen.type("offer draw")
            await screen.until(lambda: "declined a draw; the game goes on." in screen.text(), 20)
            assert t.node.session.ending is None
            screen.input.send_text("\x1b[21~")  # F10
            await screen.until(lambda: screen.task.done())

    run(declined())
    t.thread.join(10)

    u = table_of()

    async def accepted():
        screen = Screen(GamePresenter(u.source), 120, 32)
        async with screen:
            u.thread.start()
            u.bot("bot-2", "--strategy", "tests.programs.accepting_bot:AcceptingBot")
            await screen.until(lambda: "Your turn:" in screen.text(), 30)
            await screen.type("offer draw")
            await screen.until(lambda: u.node.session.result is not None, 30)
            assert u.node.session.ending.how == "drawn" and u.node.session.result.winners == ()
        u.thread.join(10)
        u.bots[0].wait_for(r"Game over: every seat agreed to a draw at entry \d+; won by nobody", 20)

    run(accepted())


@pytest.mark.processes
def test_a_secret_choice_is_made_while_the_seat_ahead_still_chooses_and_committed_in_its_turn(tmp_path):
    """Aton's cartouches are chosen at the same time (issue 24, 4): seat 1 plans and sends
    its `assign` while seat 0 (a bot that thinks 2 s) has not committed; its node holds the
    choice, tells seat 0 it has chosen (`chosen`: seat 0's output says so) and commits it the
    moment seat 0's commitment is in; the log is as ever (it verifies, seat 0's commit before
    seat 1's)."""
    import re
    import subprocess
    import sys

    host = Proc(["host", "aton", "--headless", "--think", "2", "--name", "hosty", "--bind", LOOPBACK, "--no-beacon",
                 "--max-seconds", "90"], tmp_path / "host", tmp_path / "host.out")
    try:
        m = host.wait_for(r"peerboard join (tcp://\S+) --key (\w+) --table (\w+) --game aton", 20)
        identity = Identity.from_seed(os.urandom(32))
        transport = Transport(identity, LOOPBACK, Admission())
        node = Node(identity, "bea", transport, transport.endpoint, on_event=lambda e: None, games=tmp_path / "games")
        source = LiveSource(node)
        node.join(SeatSecrets.from_master(os.urandom(32)), bytes.fromhex(m.group(2)), m.group(1),
                  bytes.fromhex(m.group(3)), "aton")
        source.prepare()
        thread = threading.Thread(target=source.run_node, args=(80,), daemon=True)

        async def body():
            screen = Screen(GamePresenter(source), 120, 32)
            async with screen:
                thread.start()
                model = screen.presenter.model
                for _ in range(200):  # (keep or exchange, as a person would, until the cartouches)
                    await screen.until(lambda: model.plan is not None and model.plan.open, 40)
                    snap = model.snapshot
                    if snap.decision == "commit":
                        break
                    await screen.type(model.legal_texts()[0])
                    await screen.press("enter")
                assert snap.decision == "commit" and snap.to_act == (0, "commit"), snap  # seat 0 still chooses
                assert snap.status == "Your secret choice (seat 0 (hosty) chooses too)."
                assert "Your secret choice: type it" in screen.text()
                choice = model.plan.legal_now()[0]
                await screen.type(model.plan.text_of(choice))
                await screen.press("enter")
                assert "It is not your turn" not in screen.text()
                await screen.until(lambda: "Your choice is made: it goes in once seat 0 (hosty) has committed."
                                   in screen.text(), 10)
                # the seat still choosing is told that this one has chosen and waits (nothing of what)
                host.wait_for(r"Seat 1 \(bea\) has made its secret choice and waits for yours", 10)
                # committed in its turn, then revealed with seat 0's: the cartouches are the ones chosen
                await screen.until(lambda: getattr(model.snapshot.state.seats[1], "cartouches", None) is not None, 30)
                assert tuple(model.snapshot.state.seats[1].cartouches) == tuple(choice[1:])
                screen.input.send_text("\x1b[21~")  # F10
                await screen.until(lambda: screen.task.done())

        run(body())
        thread.join(10)
        log = next((tmp_path / "games").glob("*.pblog"))
        out = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "replay", str(log), "--verify", "--plain"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and "valid: aton" in out.stdout, out.stdout + out.stderr
        kinds = re.findall(r"^\s*(\d+)\s+seat (\d)\s+commit", subprocess.run(
            [sys.executable, "-m", "peerboard.client.cli", "replay", str(log), "--export", "text"],
            capture_output=True, text=True, timeout=60).stdout, re.M)
        assert [seat for _, seat in kinds][:2] == ["0", "1"], kinds
    finally:
        if "node" in locals():
            source.close()
            if thread.is_alive():
                thread.join(10)
            node.close(linger=0)
        host.close()

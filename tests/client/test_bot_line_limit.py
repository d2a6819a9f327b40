"""The longest line of the bot protocol (spec/bot-protocol.md, "Lines"): 1 MiB before its
newline, exactly, however a real child process cuts its reply into writes."""
import sys
import textwrap

import pytest

from peerboard.client.bots.guard import BotFault
from peerboard.client.bots.program import MAX_LINE, ProgramBot

# A program that answers the hello with one JSON line of `size` bytes, written as a first
# part of `first` bytes, a pause, then the rest and its newline (so the limit falls inside
# one read or across two).
CHILD = textwrap.dedent("""
    import sys, time
    size, first = int(sys.argv[1]), int(sys.argv[2])
    sys.stdin.readline()
    head = '{"protocol":1,"games":"*","pad":"'
    line = (head + "x" * (size - len(head) - 2) + '"}').encode()
    assert len(line) == size
    out = sys.stdout.buffer
    out.write(line[:first]); out.flush(); time.sleep(0.1)
    out.write(line[first:] + b"\\n"); out.flush()
    for _ in sys.stdin:  # the start, then whatever comes
        out.write(b'{"ok":true}\\n'); out.flush()
""")


def _hello(tmp_path, size, first):
    program = tmp_path / "long.py"
    program.write_text(CHILD)
    bot = ProgramBot(f"{sys.executable} {program} {size} {first}")
    try:
        bot.on_start("aton", 0, 2, {})
    finally:
        if bot.proc is not None:
            bot.proc.kill()
            bot.proc.wait()


@pytest.mark.processes
@pytest.mark.parametrize("first", [MAX_LINE - 40, 65536])
def test_a_reply_of_exactly_the_longest_line_is_read(tmp_path, first):
    _hello(tmp_path, MAX_LINE, first)


@pytest.mark.processes
@pytest.mark.parametrize("size, first", [(MAX_LINE + 1, MAX_LINE - 40), (MAX_LINE + 24, MAX_LINE - 16),
                                         (MAX_LINE + 1, MAX_LINE)])
def test_a_reply_one_byte_or_more_over_the_longest_line_dismisses_the_bot(tmp_path, size, first):
    with pytest.raises(BotFault, match=f"longer than {MAX_LINE} bytes"):
        _hello(tmp_path, size, first)


def test_peerboard_never_sends_a_line_over_the_limit():
    bot = ProgramBot("true")
    with pytest.raises(RuntimeError, match="line limit"):
        bot._send({"pad": "x" * MAX_LINE})

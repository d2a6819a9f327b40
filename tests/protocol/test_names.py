"""A name is printable text (spec/log-format.md, "Names"): nothing that moves the cursor,
talks to the terminal, reorders text or hides itself; untrusted text shown anyway is
escaped visibly."""
import pytest

from peerboard.protocol.log.names import name_problem, shown


@pytest.mark.parametrize("name", ["alice", "Zoë", "李小龍", "bot-1", "", "a b", "🎲 dice"])
def test_printable_names_are_names(name):
    assert name_problem(name, 40) is None


@pytest.mark.parametrize("name, code", [
    ("\x1b[2J", "U+001B"), ("bell\x07", "U+0007"), ("back\rline", "U+000D"), ("\x9b31m", "U+009B"),
    ("evil\u202eevil", "U+202E"), ("iso\u2066late", "U+2066"), ("zero\u200bwidth", "U+200B"),
    ("line\u2028sep", "U+2028"), ("tag\U000e0041", "U+E0041"), ("del\x7f", "U+007F"),
])
def test_control_escape_and_bidirectional_characters_are_refused_with_the_character_named(name, code):
    problem = name_problem(name, 40)
    assert problem is not None and code in problem


def test_a_name_has_a_length_limit():
    assert "at most 40" in name_problem("x" * 41, 40)


def test_untrusted_text_is_shown_with_every_dangerous_character_escaped():
    text = shown("\x1b]0;pwned\x07\u202eab\U000e0041")
    assert text == "\\x1b]0;pwned\\x07\\u202eab\\U000e0041"
    assert all(c.isprintable() for c in text)
    assert shown("x" * 200, limit=10) == "x" * 9 + "…"

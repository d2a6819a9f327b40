"""Text from other players reaches the screen without anything that could steer a terminal."""
from client.text import printable


def test_a_name_keeps_its_letters_accents_and_spaces():
    assert printable("Zoë Ørsted-Łukasz 42") == "Zoë Ørsted-Łukasz 42"


def test_escape_sequences_and_newlines_are_replaced():
    assert printable("bob\x1b[2J\x1b]0;pwned\x07\nseat 0 won") == "bob?[2J?]0;pwned??seat 0 won"


def test_bidirectional_overrides_and_other_format_characters_are_replaced():
    assert printable("abc\u202edef\u200b") == "abc?def?"


def test_a_long_name_is_cut_with_an_ellipsis():
    assert printable("x" * 50, limit=10) == "x" * 9 + "…"


def test_a_value_that_is_not_text_is_shown_by_its_printable_repr():
    assert printable(b"\x1b") == "b'\\x1b'"

"""Text from other players reaches the screen without anything that could steer a terminal."""
from peerboard.client.text import printable


def test_a_name_keeps_its_letters_accents_and_spaces():
    assert printable("Zoë Ørsted-Łukasz 42") == "Zoë Ørsted-Łukasz 42"


def test_escape_sequences_and_newlines_are_written_as_visible_escapes():
    shown = printable("bob\x1b[2J\x1b]0;pwned\x07\nseat 0 won")
    assert shown == "bob\\x1b[2J\\x1b]0;pwned\\x07\\x0aseat 0 won"
    assert all(c.isprintable() for c in shown)


def test_bidirectional_overrides_and_invisible_characters_are_written_as_escapes():
    assert printable("abc\u202edef\u200b") == "abc\\u202edef\\u200b"


def test_a_long_name_is_cut_with_an_ellipsis():
    assert printable("x" * 50, limit=10) == "x" * 9 + "…"


def test_a_value_that_is_not_text_is_shown_by_its_printable_repr():
    assert printable(b"\x1b") == repr(b"\x1b") == "b'\\x1b'"


def test_a_long_line_is_shortened_at_a_word_with_an_ellipsis():
    from peerboard.client.text import shorten

    assert shorten("place 3.2; place 3.4; end turn", 15) == "place 3.2…"
    assert shorten("F10 leaves (its log stays; peerboard replay shows it again).", 40) == \
        "F10 leaves (its log stays; peerboard…"
    assert shorten("fits as it is", 13) == "fits as it is"
    assert shorten("a0b1c2d3e4f5a6b7c8d9", 8) == "a0b1c2d…"  # (one word longer than the room: cut within it)


def test_a_long_text_wraps_at_words_and_only_its_last_line_is_shortened():
    from peerboard.client.text import within

    text = "Round 3 of 4. seat 2 (random-2) moves the pawn: 2 potions, 5 moves left this turn."
    assert within(text, 40, 3) == ["Round 3 of 4. seat 2 (random-2) moves", "the pawn: 2 potions, 5 moves left this", "turn."]
    assert within(text, 40, 2) == ["Round 3 of 4. seat 2 (random-2) moves", "the pawn: 2 potions, 5 moves left…"]


def test_the_other_seats_moves_too_long_for_the_line_lose_their_oldest_not_the_newest():
    from peerboard.client.text import shorten_start

    said = "seat 1 (bot-1) played: move c3; steal menhir from seat 2; seat 2 (bot-2) played: die 5; move c3"
    assert shorten_start(said, 50) == "…seat 2 (bot-2) played: die 5; move c3"
    assert shorten_start(said, 200) == said

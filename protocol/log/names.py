"""Text from strangers: what a player's name may hold, and how untrusted text is shown.

A name travels in hellos, beacons and the signed genesis, and ends up on every peer's
terminal and in every verdict `replay --verify` prints. A name is *printable text*: no code
point that moves the cursor, talks to the terminal, reorders the text around it or hides
itself. The rule is a fixed list of code-point ranges, not a Unicode database lookup, so
every implementation and every Python version agrees on which names are valid
(spec/log-format.md, "Names").
"""
from __future__ import annotations

#: (first, last) code points a name may not hold, and why they are dangerous
FORBIDDEN: tuple[tuple[int, int, str], ...] = (
    (0x0000, 0x001F, "C0 control (escape, bell, carriage return, ...)"),
    (0x007F, 0x009F, "delete or C1 control (CSI, OSC, ...)"),
    (0x061C, 0x061C, "Arabic letter mark (bidirectional)"),
    (0x180E, 0x180E, "Mongolian vowel separator (invisible)"),
    (0x200B, 0x200F, "zero-width space, joiner or direction mark"),
    (0x2028, 0x202E, "line or paragraph separator, or bidirectional embedding/override"),
    (0x2060, 0x206F, "invisible operator or bidirectional isolate"),
    (0xD800, 0xDFFF, "surrogate"),
    (0xFEFF, 0xFEFF, "zero-width no-break space"),
    (0xFFF9, 0xFFFB, "interlinear annotation"),
    (0xE0000, 0xE007F, "tag character (invisible)"),
)


def _forbidden(c: str) -> str | None:
    o = ord(c)
    if o < 0x20 or 0x7F <= o <= 0x9F:  # the common case, without the walk
        return FORBIDDEN[0][2] if o < 0x20 else FORBIDDEN[1][2]
    if o < 0x061C:
        return None
    for first, last, why in FORBIDDEN:
        if first <= o <= last:
            return why
    return None


def name_problem(text: str, limit: int) -> str | None:
    """Why `text` is not a valid name of at most `limit` characters, or None if it is one."""
    if not isinstance(text, str):
        return "a name is text"
    if len(text) > limit:
        return f"a name has at most {limit} characters, not {len(text)}"
    for i, c in enumerate(text):
        why = _forbidden(c)
        if why is not None:
            return f"a name is printable text; character {i + 1} (U+{ord(c):04X}) is a {why}"
    return None


def shown(text: str, limit: int = 80) -> str:
    """`text` safe to print on a terminal: every forbidden code point written as a visible
    escape (`\\x1b`, `\\u202e`), cut to about `limit` characters with an ellipsis."""
    if not isinstance(text, str):
        text = repr(text)
    out = []
    for c in text:
        if _forbidden(c) is None:
            out.append(c)
        elif ord(c) <= 0xFF:
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) <= 0xFFFF:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    result = "".join(out)
    return result if len(result) <= limit else result[: max(1, limit - 1)] + "…"

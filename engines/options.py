"""Game options: their defaults, their checks, and the one-line errors for bad values."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Option:
    default: Any
    #: returns None when the value is fine, else the sentence saying what is allowed
    check: Callable[[Any], str | None]
    doc: str

    def parse_text(self, text: str) -> Any:
        """A value typed on a command line: JSON (true, 40, "ACD", {"0": 2}) or a bare word;
        Python's spellings True, False and None are taken for true, false and null."""
        if text in _PYTHON_WORDS:
            return _PYTHON_WORDS[text]
        try:
            return json.loads(text)
        except ValueError:
            return text

    def text(self, value: Any) -> str:
        """`value` written as `parse_text` takes it back: JSON, a text as a bare word when
        that reads back the same (`peerboard games` shows the defaults this way)."""
        if isinstance(value, str) and value and " " not in value and self.parse_text(value) == value:
            return value
        return json.dumps(value, ensure_ascii=False, sort_keys=True)


_PYTHON_WORDS = {"True": True, "False": False, "None": None}


def whole_text(text: str) -> int | None:
    """The number `text` writes, when it is written the one way a genesis allows: ASCII
    digits only, no sign, no space, no leading zero ("0" itself is fine); None for anything
    else (" 0", "1 ", "+0", "01", "٠", "1_0"). Python's int() takes all of those, so two
    logs could name one seat differently; every textual number a game reads goes through
    here (spec/log-format.md, "Numbers written as text")."""
    if 0 < len(text) and text.isascii() and text.isdigit() and (text == "0" or text[0] != "0"):
        return int(text)
    return None


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def int_between(low: int, high: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return None
        return f"must be a whole number from {low} to {high}"

    return check


def one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value in choices:
            return None
        return "must be one of " + ", ".join(repr(c) for c in choices)

    return check


def resolve_options(
    title: str,
    schema: Mapping[str, Option],
    given: Mapping[str, Any],
    error: type[Exception],
) -> dict[str, Any]:
    if not isinstance(given, Mapping):
        raise error(f"{title} options must be a mapping of name to value.")
    unknown = sorted(str(k) for k in given if k not in schema)
    if unknown:
        known = ", ".join(sorted(schema)) or "none"
        raise error(f"{title} has no option {unknown[0]!r} (its options: {known}).")
    resolved: dict[str, Any] = {}
    for name in sorted(schema):
        option = schema[name]
        value = given.get(name, option.default)
        problem = option.check(value)
        if problem:
            raise error(f"{title} option {name}={value!r} {problem}.")
        resolved[name] = value
    return resolved

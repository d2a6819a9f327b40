"""A screen drawn to text without a terminal: for the screen snapshot tests and the
README's screenshots. The whole layout (floats too) is written to a prompt-toolkit
Screen of a fixed size, exactly as the renderer would, and read back cell by cell."""
from __future__ import annotations

import asyncio

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput


class FixedSizeOutput(DummyOutput):
    """An output that writes nothing and says the terminal is `columns` x `rows`."""

    def __init__(self, columns: int = 120, rows: int = 32):
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def screen_text(app: Application) -> str:
    """What the application shows now on a terminal of its output's size, as text."""
    # (drawing an input line starts a background task, so it needs a running loop)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_in_loop(app))
    return _draw(app)


async def _in_loop(app: Application) -> str:
    return _draw(app)


def _draw(app: Application) -> str:
    size = app.output.get_size()
    # controls cache their text per render: count this drawing as a render of its own
    app.render_counter += 1
    screen = Screen(initial_width=size.columns)
    with set_app(app):
        app.layout.container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, size.columns, size.rows),
            parent_style="", erase_bg=False, z_index=None,
        )
        screen.draw_all_floats()
    lines = []
    for y in range(size.rows):
        row = screen.data_buffer[y]
        lines.append("".join(row[x].char for x in range(size.columns)).rstrip())
    return "\n".join(lines).rstrip("\n") + "\n"

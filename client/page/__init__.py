"""A saved game as one self-contained HTML page (builder.py), and its pieces: the pool of
picture parts, the graph of the analysis, the inline script and style."""
from peerboard.client.page.builder import Page, build

__all__ = ["Page", "build"]

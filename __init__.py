"""peerboard: board games on a local network with no server.

The distribution installs this one import package. Its layers are the repository's top-level
folders, installed beneath it (setup.py maps them), imports pointing down only:

    peerboard.client    the command line, the terminal client, the bot SDK and bots
    peerboard.node      ZeroMQ, discovery, durable storage: the I/O shell
    peerboard.protocol  sans-IO: messages, the signed hash-chained log, the consensus session
    peerboard.engines   pure rules, one sub-package per game

The short public surface for bot authors and log readers is two modules:

    from peerboard.bots import Bot, Decision          # write a bot (spec/bot-protocol.md)
    from peerboard.logs import verify_file            # read and check a saved game
"""
try:
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("peerboard")
except PackageNotFoundError:  # pragma: no cover - a checkout that was never installed
    __version__ = "0+unknown"

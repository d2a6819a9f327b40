#!/usr/bin/env python3
"""A peerboard bot in Python: spec/bot-protocol.md on stdin/stdout, a random legal action.
Play it: peerboard selfplay aton --players exec,greedy --exec "python3 examples/random_bot.py"
It plays any game it is offered (it chooses among `legal` alone), in protocol version 2 when
peerboard offers it (only a decision is answered) and version 1 otherwise."""
import json
import random
import sys

extra = sys.argv[1] if len(sys.argv) > 1 else ""  # a number on the command line varies the games
rng = random.Random(extra)
version = 1
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        version = 2 if 2 in message.get("protocols", []) else 1
        # any game offered; no board drawn as text in its views: it reads `legal` alone
        reply = {"protocol": version, "name": "example-python", "games": "*", "text": False}
    elif kind == "decide":
        reply = {"action": rng.choice(message["legal"])}
    elif kind == "start":
        rng = random.Random(f"{message.get('seed')}:{extra}")  # each game its own moves
        reply = {"ok": True}
    elif kind in ("action", "end"):
        reply = {"ok": True}
    elif kind == "error":
        print(f"peerboard says: {message['error']}", file=sys.stderr)
        continue  # an error message gets no reply
    else:
        reply = {"error": f"unknown message type {kind!r}"}
    if version == 1 or kind in ("hello", "decide"):  # version 2: only a decision is answered
        print(json.dumps(reply), flush=True)

#!/usr/bin/env python3
"""A peerboard bot in Python: spec/bot-protocol.md on stdin/stdout, a random legal action.
Play it: peerboard selfplay aton --players exec,greedy --exec "python3 examples/random_bot.py" """
import json
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        reply = {"protocol": 1, "name": "example-python", "games": "*"}  # any game offered
    elif kind == "decide":
        reply = {"action": rng.choice(message["legal"])}
    elif kind in ("start", "action", "end"):
        reply = {"ok": True}
    elif kind == "error":
        print(f"peerboard says: {message['error']}", file=sys.stderr)
        continue  # an error message gets no reply
    else:
        reply = {"error": f"unknown message type {kind!r}"}
    print(json.dumps(reply), flush=True)

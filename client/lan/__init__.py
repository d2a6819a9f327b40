"""LAN play from the command line: `host`, `join`, `bot`, `tables`, `play`, `resume`, `key`.

One module a job:
- options.py      `LanOptions`, the one checked value a command runs with, and the ways a
                  table to join is named (by address, by id or fingerprint, or not at all);
- reading.py      the command line read into it once (the lobby builds it directly);
- parser.py       the sub-parsers, each running its command with the options read;
- commands.py     `host`, `play`, `join`/`bot`, `tables`, `key`;
- resume.py       `resume`, and the offer of the unfinished games at start-up;
- finding.py      the table to join, from how it was named and the beacons heard;
- node_parts.py   this user's identity, the transport, and who sits at the node;
- running.py      the node's loop, with the signals and the exit status;
- bot_processes.py  the bots of `play` and `host --bots`, each a process of its own;
- addresses.py    endpoints, and the address peers are told.
A name with a leading underscore is used by these modules only, never from outside.
"""

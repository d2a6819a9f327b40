"""Sans-IO protocol, in two halves, imports pointing from the second to the first:

    peerboard.protocol.log      the log: the canonical codec, identities, the signed records,
                                the hash chain and its ledger, fair chance and hidden
                                information (secrets, reveals, the audit), the file format and
                                replay verification. All that `replay --verify` or a second
                                implementation needs (spec/log-format.md).
    peerboard.protocol.session  the live session: one node's side of the consensus between
                                nodes — forming a table, the messages, acks and confirmation,
                                catch-up, liveness, endings, chat and rematch (spec/protocol.md).

Each half has a small public face (its `__init__`'s `__all__`); node/, client/, bench/ and
the other half import that face, never a module inside the half, and no module imports
another in a cycle, type hints included (tests/protocol/test_layering.py). In the log, who
writes each entry is one table (log/writers.py); in the session, the game under way is
`Play` on its `Table`, with a part for each concern — acks, catch-up, liveness, endings,
claims, authors, takeovers, forks (spec/protocol.md, "The modules"). No sockets, threads,
files or clocks.
"""

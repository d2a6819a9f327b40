"""Sans-IO protocol, in two halves, imports pointing from the second to the first:

    peerboard.protocol.log      the log: the canonical codec, identities, the signed records,
                                the hash chain and its ledger, fair chance and hidden
                                information (secrets, reveals, the audit), the file format and
                                replay verification. All that `replay --verify` or a second
                                implementation needs (spec/log-format.md).
    peerboard.protocol.session  the live session: one node's side of the consensus between
                                nodes — forming a table, the messages, acks and confirmation,
                                catch-up, liveness, endings, chat and rematch (spec/protocol.md).

Each half has a small public face (its `__init__`'s `__all__`); node/, client/ and the other
half import that face, never a module inside the half. No sockets, threads, files or clocks.
"""

"""Sans-IO protocol: the canonical codec, identities, the signed hash-chained game log and
its file format, fair chance and hidden information (secrets, the audit), the consensus
session and its messages, and replay verification. No sockets, threads, files or clocks."""

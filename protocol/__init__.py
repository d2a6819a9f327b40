"""Sans-IO protocol: the canonical codec, identities, the signed hash-chained game log,
the log file format and replay verification. No sockets, threads, files or clocks."""

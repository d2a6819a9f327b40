"""The I/O shell: keys on disk, CurveZMQ transport, UDP discovery, durable game files, and
the event loop that drives one consensus session."""

"""The I/O shell: durable storage now; ZeroMQ sockets, discovery and timers later."""

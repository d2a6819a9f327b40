"""Addresses: the host and port of a `tcp://` endpoint, and the address peers should be told
to connect to (a wildcard bind made concrete)."""
from __future__ import annotations

import socket

PROBE = "203.0.113.1"  # TEST-NET-3: only asks the routing table which interface is the default


def _host_of(endpoint: str) -> tuple[str, int]:
    host, _, port = endpoint.removeprefix("tcp://").rpartition(":")
    return host.strip("[]"), int(port)


def _local_ip_toward(ip: str) -> str | None:
    """This machine's address on the way to `ip` (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((ip, 9))
            return s.getsockname()[0]
    except OSError:
        return None


def _advertised(endpoint: str, toward: str | None, advertise: str | None) -> str:
    """Where peers should connect: the bound address, with a wildcard made concrete."""
    host, port = _host_of(endpoint)
    if advertise:
        return f"tcp://{advertise}:{port}"
    if host not in ("0.0.0.0", "*"):
        return endpoint
    ip = _local_ip_toward(toward or PROBE)
    if ip is None:
        print("no network: only this machine can reach this node (listening on loopback)", flush=True)
        ip = "127.0.0.1"
    return f"tcp://{ip}:{port}"

import os
import sys

import pytest


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", help="run the long property/simulation sets")
    parser.addoption("--sim-seed", type=int, default=None,
                     help="the seed that picks this run's slice of the long simulation set "
                          "(default: $PEERBOARD_SIM_SEED, else a fresh one, printed)")


def pytest_configure(config):
    seed = config.getoption("--sim-seed")
    if seed is None and os.environ.get("PEERBOARD_SIM_SEED", "").isdigit():
        seed = int(os.environ["PEERBOARD_SIM_SEED"])
    if seed is None:
        seed = int.from_bytes(os.urandom(3), "big")
    config.sim_seed = seed
    # the workers of a parallel run (pytest -n N) must pick the same slice as this process
    os.environ["PEERBOARD_SIM_SEED"] = str(seed)


def pytest_report_header(config):
    return (f"simulation seed {config.sim_seed}: the slice of the long simulation set this run plays "
            f"(replay it with PEERBOARD_SIM_SEED={config.sim_seed})")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long set: run with --long")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

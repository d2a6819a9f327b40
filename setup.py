"""The package list of the one import package, `peerboard` (pyproject.toml holds the rest).

The repository's top level is the package: its `__init__.py`, `bots.py` and `logs.py` are
`peerboard`, `peerboard.bots` and `peerboard.logs`, and each layer's folder is installed
beneath it (`engines/` as `peerboard.engines`, ...). The layers are named here; their
sub-packages (a new game's `engines/<name>/` among them) are found, so adding a game
never touches this file. This script sits in the package's folder but is no part of it.
"""
from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

LAYERS = ("engines", "protocol", "node", "client")
# The faces to the research frameworks live in research/, mapped to their names beneath
# peerboard: a file at the top level named `pettingzoo.py` would shadow the real library
# for every program run from the repository's root (where Python puts the cwd first on
# sys.path), so no file or folder there bears a library's name (docs/research.md).
FACES = {"peerboard.openspiel": "research/openspiel", "peerboard.pettingzoo": "research/pettingzoo"}



class BuildPy(build_py):
    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir) if m[:2] != ("peerboard", "setup")]


setup(
    cmdclass={"build_py": BuildPy},
    package_dir={"peerboard": ".", **FACES},
    packages=["peerboard", *FACES] + [f"peerboard.{name}"
                              for name in find_packages(include=[f"{layer}{tail}" for layer in LAYERS
                                                                 for tail in ("", ".*")])],
)

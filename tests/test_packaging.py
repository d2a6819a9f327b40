"""What gets installed: one import package, `peerboard`, and bot modules found as `python -m` finds them."""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PEERBOARD = shutil.which("peerboard", path=os.path.dirname(sys.executable))


@pytest.mark.processes
def test_the_wheel_installs_one_top_level_name_peerboard(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=300)
    if built.returncode != 0 and "No matching distribution" in built.stderr + built.stdout:
        pytest.skip("building the wheel needs setuptools from the package index, which is not reachable")
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = tmp_path.glob("peerboard-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = sorted({n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")})
    print("top-level names in", wheel.name, ":", top)
    assert top == ["peerboard"]
    modules = {n for n in names if n.endswith(".py")}
    # every layer and every game is in it, and the build script is not
    for name in ("peerboard/__init__.py", "peerboard/bots.py", "peerboard/logs.py", "peerboard/client/cli.py",
                 "peerboard/node/storage.py", "peerboard/protocol/session/session.py", "peerboard/engines/athos/rules.py"):
        assert name in modules
    assert "peerboard/setup.py" not in modules
    assert not any(n.startswith(("peerboard/tests/", "peerboard/bench/")) for n in names)
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "peerboard = peerboard.client.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_the_public_surface_for_bots_and_logs():
    from peerboard.bots import Bot, Decision
    from peerboard.logs import verify_file

    verdict = verify_file(ROOT / "spec" / "vectors" / "aton.pblog")
    assert verdict.ok and verdict.summary().startswith("valid: aton")
    assert issubclass(Bot, object) and Decision.__dataclass_fields__["legal"]


@pytest.mark.processes
def test_a_bot_module_in_the_current_directory_plays_from_the_console_script(tmp_path):
    if PEERBOARD is None:
        pytest.skip(f"no peerboard console script beside {sys.executable}: peerboard is not installed there")
    shutil.copy(ROOT / "examples" / "first_bot.py", tmp_path / "first_bot.py")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([PEERBOARD, "selfplay", "aton", "--players", "first_bot:FirstBot,random", "--games", "2",
                          "--seed", "3"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "first" in out.stdout and "No module named" not in out.stderr


@pytest.mark.processes
def test_a_bot_module_that_is_nowhere_is_one_line():
    if PEERBOARD is None:
        pytest.skip(f"no peerboard console script beside {sys.executable}: peerboard is not installed there")
    out = subprocess.run([PEERBOARD, "selfplay", "aton", "--players", "nowhere_bot:Bot,random"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "cannot import 'nowhere_bot'" in out.stderr

"""bench/run.py keeps what a benchmark printed in bench/RESULTS.md with what a figure means
nothing without (the machine, the date, the commit), rewrites only the sections it ran, and
says which failed."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[2] / "bench" / "run.py"


@pytest.fixture
def runner(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("bench_run", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fast = tmp_path / "fast.py"
    fast.write_text("print('fast: 4.0 runs a second, 2.00x its baseline of 2.0 measured in this run')\n")
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nprint('measured nothing')\nsys.exit(1)\n")
    monkeypatch.setattr(module, "BENCHES", {"fast": ([str(fast)], "a quick one"),
                                            "broken": ([str(broken)], "one that fails"),
                                            "slow": (["slow.py"], "one not run")})
    monkeypatch.setattr(module, "RESULTS", tmp_path / "RESULTS.md")
    return module


@pytest.mark.processes
def test_a_run_writes_its_section_with_machine_date_and_commit_and_keeps_the_others(runner):
    assert runner.main(["fast"]) == 0
    text = runner.RESULTS.read_text()
    fast = runner.sections(text)["fast"]
    assert "2.00x its baseline of 2.0 measured in this run" in fast
    assert "- machine: " in fast and " cores, " in fast and "load average" in fast
    assert "- date: " in fast and "UTC; commit " in fast
    assert re.search(r"workload .* took \d+ ms of CPU right before the run and \d+ ms right after", fast)
    assert "Not measured yet" in runner.sections(text)["slow"]
    runner.RESULTS.write_text(text.replace("2.00x", "EDITED"))
    assert runner.main(["broken"]) == 1  # (a failed run says so in its section and its status)
    after = runner.sections(runner.RESULTS.read_text())
    assert "EDITED" in after["fast"], "a section not run was rewritten"
    assert "failed (exit status 1)" in after["broken"] and "measured nothing" in after["broken"]


def test_an_unknown_name_is_one_line_naming_the_benchmarks(runner, capsys):
    with pytest.raises(SystemExit) as stop:
        runner.main(["fastest"])
    assert stop.value.code == 2
    assert "no benchmark fastest (the names: fast, broken, slow)" in capsys.readouterr().err

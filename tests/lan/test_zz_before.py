import subprocess, sys, json
from support.lanhelp import LOOPBACK, Procs, entries_in, join_args, logs, verify, wait_until, ROOT

def test_before(tmp_path):
    procs = Procs(tmp_path)
    try:
        honest = procs.start("honest", "host", "aton", "--players", "2", "--no-beacon", "--bind", LOOPBACK,
                             "--patience", "300", "--headless", "--think", "1")
        cheat = procs.start("cheat", "4", "join", *join_args(honest), "--bind", LOOPBACK, "--headless", "--think", "0.02",
                            entry=["tests/programs/cheating_claimer.py"])
        honest.wait(90); cheat.wait(90)
        print(honest.text()[-1500:])
        print("----")
        print(cheat.text()[-800:])
        for p in (honest, cheat):
            print(verify(logs(p.home)[0]))
        out = subprocess.run([sys.executable, "-m", "peerboard.client.cli", "ratings", str(honest.home / "games"), "--json"],
                             capture_output=True, text=True, env={"PEERBOARD_HOME": str(tmp_path / "x"), "PATH": "/usr/bin"}, cwd=str(ROOT))
        print(out.stdout[-1500:], out.stderr[-500:])
    finally:
        procs.close()

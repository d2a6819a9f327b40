"""Tournaments: seats rotated fairly, results with error bars, logs that verify, any
concurrent.futures.Executor (a process pool; a Dask cluster on loopback)."""
import os
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from peerboard.client.bots import tournament
from peerboard.client.bots.stats import elo_interval, wilson

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def peerboard(*args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "peerboard.client.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=240)


def test_every_player_gets_every_seat_equally_often():
    players = tournament.parse_players("mcts,greedy,random", 2)
    matches = tournament.schedule("asterix", {}, players, 6, seed=1)
    for p in range(3):
        seats = [m.seating.index(p) for m in matches]
        assert sorted(seats) == [0, 0, 1, 1, 2, 2]


def test_players_parse_with_budgets_numbers_and_exec_commands():
    ps = tournament.parse_players("mcts@2000,mcts@0.5s,exec", 2, ["./bot --fast"])
    assert [p.label for p in ps] == ["mcts", "mcts#2", "exec:bot --fast"]
    assert ps[0].budget.playouts == 2000 and ps[1].budget.seconds == 0.5 and ps[2].command == "./bot --fast"
    assert [p.kind for p in tournament.parse_players("3", 2)] == ["random"] * 3
    assert [p.kind for p in tournament.parse_players(None, 2)] == ["random"] * 2


def test_wilson_and_elo_intervals():
    low, high = wilson(90, 100)
    assert round(low, 3) == 0.826 and round(high, 3) == 0.945
    diff, low, high = elo_interval(50, 0, 50)
    assert diff == 0 and low < 0 < high
    diff, low, high = elo_interval(10, 0, 0)  # a clean sweep still has a finite lower bound
    assert diff == float("inf") and 0 < low < float("inf")


@pytest.mark.processes
def test_a_tournament_on_a_process_pool_equals_the_same_one_in_process():
    players = tournament.parse_players("greedy,random", 2)
    matches = tournament.schedule("aton", {"win_points": 10}, players, 4, seed=9)
    here = tournament.run(matches, tournament.InProcess(), progress=False)
    with ProcessPoolExecutor(max_workers=2) as pool:
        there = tournament.run(matches, pool, progress=False)
    assert [(o.winners, o.scores, o.moves) for o in here] == [(o.winners, o.scores, o.moves) for o in there]


@pytest.mark.processes
def test_selfplay_table_and_saved_logs_that_verify(tmp_path):
    out = peerboard("selfplay", "aton", "--players", "greedy,random", "--games", "4", "--jobs", "2",
                    "--seed", "3", "--save", str(tmp_path), "--option", "win_points=15")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Aton: 4 game(s), 2 players, seed 3"
    assert lines[1].split()[:6] == ["player", "games", "wins", "draws", "losses", "win"]
    assert lines[2].startswith("greedy") and lines[3].startswith("random")
    assert lines[4].startswith("Elo difference, greedy - random: ")
    logs = sorted(tmp_path.glob("*.pblog"))
    assert len(logs) == 4
    journal = (tmp_path / "selfplay.log").read_text().splitlines()
    assert len(journal) == 4 and all(" seats 0:" in line for line in journal)
    for log in logs:
        check = peerboard("replay", str(log), "--verify")
        assert check.returncode == 0 and check.stdout.startswith("valid: aton"), check.stdout


@pytest.mark.processes
def test_a_game_past_the_move_limit_stops_unfinished_a_draw_whose_log_verifies(tmp_path):
    out = peerboard("selfplay", "athos", "--players", "random,random", "--games", "2", "--seed", "5",
                    "--max-moves", "40", "--save", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("stopped unfinished after") == 2, out.stderr
    table = out.stdout
    assert "unfinished: 2 of the draws stopped at the move limit" in table
    rows = {line.split()[0]: line.split() for line in table.splitlines()[2:4]}
    assert rows["random"][1:5] == ["2", "0", "2", "0"] and rows["random#2"][1:5] == ["2", "0", "2", "0"]
    journal = (tmp_path / "selfplay.log").read_text()
    assert journal.count("won by nobody: stopped unfinished at the move limit") == 2
    for log in sorted(tmp_path.glob("*.pblog")):
        check = peerboard("replay", str(log), "--verify")
        assert check.returncode == 0 and "unfinished, next: seat" in check.stdout, check.stdout


def test_a_game_that_ends_at_the_move_limit_still_finishes():
    players = tournament.parse_players("random,random", 2)
    whole = tournament.play_match(tournament.schedule("aton", {"win_points": 10}, players, 1, seed=4)[0])
    limited = tournament.play_match(tournament.schedule("aton", {"win_points": 10}, players, 1, seed=4,
                                                        max_moves=whole.moves)[0])
    assert whole.finished and limited.finished
    assert (limited.winners, limited.scores, limited.moves) == (whole.winners, whole.scores, whole.moves)


@pytest.mark.processes
@pytest.mark.parametrize("args, says", [
    (["--players", "mcts,alphazero"], "there is no bot 'alphazero'"),
    (["--players", "mcts@fast,random"], "mcts@fast: a budget is a number of playouts"),
    (["--players", "exec,random"], 'an exec player needs --exec "COMMAND"'),
    (["--budget", "0"], "a budget in playouts is a whole number of at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--max-moves", "-1"], "--max-moves must be 0 (no limit) or more"),
    (["--players", "random,random,random"], "Aton is played by exactly 2 players, not 3."),
])
def test_selfplay_mistakes_are_one_line_and_exit_2(args, says):
    out = peerboard("selfplay", "aton", *args)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and says in out.stderr, out.stderr


@pytest.mark.processes
def test_a_tournament_runs_on_a_local_dask_cluster():
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        pytest.skip("Dask is not installed (pip install 'peerboard[cluster]'); the cluster test needs it")
    players = tournament.parse_players("greedy,random", 2)
    matches = tournament.schedule("aton", {"win_points": 10}, players, 4, seed=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        outcomes = tournament.run(matches, client.get_executor(), progress=False)
    here = tournament.run(matches, tournament.InProcess(), progress=False)
    assert [o.index for o in outcomes] == [0, 1, 2, 3]
    assert [(o.winners, o.moves) for o in outcomes] == [(o.winners, o.moves) for o in here]
    assert all(o.genesis is not None and o.entries for o in outcomes)


def _outcome(index, seating, winners, sides, never_played=(), forfeits=()):
    return tournament.Outcome(index, seating, winners, (0,) * len(seating), 10, forfeits, [], None, [], None,
                              True, never_played, ("",) * len(seating), sides)


def test_a_team_game_won_by_a_team_is_a_win_for_each_of_its_players_not_a_draw():
    players = tournament.parse_players("4", 4)
    teams = ((0, 2), (1, 3))
    results = tournament.results_of(players, 4, [
        _outcome(0, (0, 1, 2, 3), (0, 2), teams),   # players 0 and 2 won together
        _outcome(1, (1, 2, 3, 0), (1, 3), teams),   # seats 1 and 3: players 2 and 0 again
    ])
    assert [(s.wins, s.draws, s.losses, s.team_wins) for s in results.standings] == [
        (2, 0, 0, 2), (0, 0, 2, 0), (2, 0, 0, 2), (0, 0, 2, 0)]
    assert results.undecided == 0 and results.team_wins == {(0, 2): 1, (1, 3): 1}
    table = results.table()
    rows = [line.split() for line in table.splitlines()]
    assert ["team", "0+2", "1", "50.0%"] in rows and ["team", "1+3", "1", "50.0%"] in rows
    assert ["draws", "0", "0.0%"] in rows
    # without teams, the same two winners shared the win: a draw for both
    alone = tuple((s,) for s in range(4))
    shared = tournament.results_of(players, 4, [_outcome(0, (0, 1, 2, 3), (0, 2), alone)])
    assert [(s.wins, s.draws) for s in shared.standings] == [(0, 1), (0, 0), (0, 1), (0, 0)]


def test_a_game_a_player_never_chose_a_move_in_is_not_its_game():
    players = tournament.parse_players("random,greedy", 2)
    results = tournament.results_of(players, 2, [
        _outcome(0, (0, 1), (0,), ((0,), (1,)), never_played=(0,)),  # the stand-in won for it
        _outcome(1, (1, 0), (0,), ((0,), (1,)), never_played=(1,)),
    ])
    first, second = results.standings
    assert (first.games, first.wins, first.stood_in) == (0, 0, 2) and first.never_played
    assert (second.games, second.wins, second.losses) == (2, 1, 1)
    assert [s.player.label for s in results.failed_players()] == ["random"]
    row = results.table().splitlines()[1].split()
    assert row[:7] == ["random", "0", "0", "0", "0", "-", "-"]


def test_without_a_terminal_a_long_tournament_prints_progress_lines(capsys, monkeypatch):
    monkeypatch.setattr(tournament, "PROGRESS_SECONDS", 0.0)  # a line after every game here
    players = tournament.parse_players("random,random", 2)
    matches = tournament.schedule("aton", {"win_points": 5}, players, 3, seed=1)
    tournament.run(matches, tournament.InProcess(), label="Aton selfplay")
    lines = capsys.readouterr().out.splitlines()
    assert [re.sub(r", \d+ s$", "", line) for line in lines] == [
        "Aton selfplay: 1 of 3 games done", "Aton selfplay: 2 of 3 games done"]
    tournament.run(matches, tournament.InProcess(), progress=False)
    assert capsys.readouterr().out == ""

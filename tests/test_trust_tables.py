"""Issue 32: a table kept on the server's disk is not trusted. `store.load_table` reads the table's log
as `replay` reads it and plays it back with `replay`'s own checker (replay.play_back): a tampered
log is refused at its line, the table dropped with a message saying why, and its files left as they
were; nothing in the files raises a bot's budget."""
from __future__ import annotations

import json

import pytest

from interpreter.core.model import Action
from interpreter.serve import store
from interpreter.serve.lobby import Games
from interpreter.serve.table import Seat, Table, new_token


@pytest.fixture(scope="module")
def games():
    return Games()


def kept(folder, games, *, moves=3, kinds=("human", "bot:easy")) -> str:
    """A tic-tac-toe table kept in `folder` after `moves` moves (the first legal one each time): its id."""
    game = games.load("tic-tac-toe", players=2, options={}, variants=[], lang="en")
    table = Table(tid="table-one", game=game, ref="tic-tac-toe", variants=[], options={}, seed=3,
                  seats=[Seat(k, new_token()) for k in kinds], timer=None, lang="en")
    store.start_log(folder, table)
    for _ in range(moves):
        table.play(game.legal_actions(table.st)[0])
    table.log.close()
    return table.tid


def restart(folder, games):
    """The store read again, as a restarted server reads it: the tables and the messages of those skipped."""
    said = []
    tables = store.load_all(folder, games.load, said.append)
    return tables, said


def lines_of(path):
    return path.read_text(encoding="utf-8").splitlines()


def test_an_untouched_table_comes_back_with_its_moves(tmp_path, games):
    tid = kept(tmp_path, games)
    tables, said = restart(tmp_path, games)
    assert said == [] and tables[tid].n == 3


def tamper_seat(lines):
    entry = json.loads(lines[2])
    entry["player"] = "p1"  # the second move is p2's
    lines[2] = json.dumps(entry)


def tamper_illegal(lines):
    first = json.loads(lines[1])["action"]
    entry = json.loads(lines[3])
    entry["action"] = first  # the cell the first move took
    lines[3] = json.dumps(entry)


def tamper_not_an_action(lines):
    entry = json.loads(lines[2])
    entry["action"] = " "
    lines[2] = json.dumps(entry)


def tamper_over(lines):
    lines.insert(2, json.dumps({"result": {"decisions": 1, "rounds": 1, "scores": [1, 0], "ranking": ["p1", "p2"],
                                           "winners": ["p1"]}}))


@pytest.mark.parametrize("tamper, line, says", [
    (tamper_seat, 3, "is recorded for p1, but p2 decides here"),
    (tamper_illegal, 4, "is refused"),
    (tamper_not_an_action, 3, "not an action"),
    (tamper_over, None, "records a result, but its moves do not end the game"),
])
def test_a_tampered_table_log_is_refused_as_replay_refuses_it(tmp_path, games, capsys, tamper, line, says):
    from tests.hardening import interpret
    tid = kept(tmp_path, games)
    log = tmp_path / f"{tid}.jsonl"
    lines = lines_of(log)
    tamper(lines)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = log.read_bytes()
    tables, said = restart(tmp_path, games)
    assert tables == {} and len(said) == 1, said
    assert "skipped, cannot resume this table" in said[0] and says in said[0], said
    if line is not None:  # `replay` refuses the same line for the same reason
        assert f"{log.name}:{line}:1:" in said[0], said
        code, out, err = interpret(capsys, "replay", log, "-q", seconds=60)
        assert code == 1 and f"{log}:{line}:1:" in err and says in err, err
    assert log.read_bytes() == before  # refused: the file is as it was


def test_a_huge_budget_in_a_tables_files_never_reaches_a_bot(tmp_path, games):
    """The bots' kinds come from the table's settings, checked (a budget there is refused); the
    `seats` of its log (which `play --resume` reads, cut to its limits) are not the server's to use."""
    tid = kept(tmp_path, games)
    log = tmp_path / f"{tid}.jsonl"
    lines = lines_of(log)
    head = json.loads(lines[0])
    head["seats"] = ["mcts:100000000000@100000", "mcts:100000000000"]
    lines[0] = json.dumps(head)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tables, said = restart(tmp_path, games)
    assert said == [] and [s.kind for s in tables[tid].seats] == ["human", "bot:easy"]
    tables[tid].log.close()
    settings = tmp_path / f"{tid}.table.json"
    s = json.loads(settings.read_text(encoding="utf-8"))
    s["seats"][1]["kind"] = "bot:mcts:100000000000"
    settings.write_text(json.dumps(s), encoding="utf-8")
    tables, said = restart(tmp_path, games)
    assert tables == {} and "not 'bot:mcts:100000000000'" in said[0], said


def test_a_line_cut_off_by_a_crash_goes_only_once_the_table_is_accepted(tmp_path, games):
    tid = kept(tmp_path, games)
    log = tmp_path / f"{tid}.jsonl"
    whole = log.read_bytes()
    log.write_bytes(whole + b'{"n": 4, "player": "p2", "act')
    tables, said = restart(tmp_path, games)
    assert said == [] and tables[tid].n == 3
    tables[tid].log.close()
    assert log.read_bytes() == whole
    lines = lines_of(log)
    tamper_seat(lines)
    torn = ("\n".join(lines) + "\n").encode() + b'{"n": 4, "player": "p2", "act'
    log.write_bytes(torn)
    tables, said = restart(tmp_path, games)
    assert tables == {} and log.read_bytes() == torn  # refused: not even the torn line was cut


def test_a_resumed_table_writes_on_after_its_last_move(tmp_path, games):
    tid = kept(tmp_path, games)
    tables, said = restart(tmp_path, games)
    table = tables[tid]
    table.play(Action.parse(str(table.game.legal_actions(table.st)[0])))
    table.log.close()
    tables, said = restart(tmp_path, games)
    assert said == [] and tables[tid].n == 4

"""Issue 12, item 6: command lines and files. Disk and path errors are clear messages with exit 1,
option values are checked, a log is not overwritten without --force, and it is synced at the end."""
from __future__ import annotations

import os

import pytest

from tests.hardening import interpret


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_log_on_a_full_disk(capsys):
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--seed", "1", "--log", "/dev/full")
    assert code == 1 and "/dev/full: cannot write the log: No space left on device" in err, err


def test_a_second_game_does_not_overwrite_a_log_without_force(tmp_path, capsys):
    log = tmp_path / "game.log"
    assert interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--seed", "1", "--log", log)[0] == 0
    first = log.read_text()
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--seed", "2", "--log", log)
    assert code == 1 and "a log is there already" in err and "--force" in err, err
    assert log.read_text() == first
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--seed", "2", "--log", log, "--force")
    assert code == 0 and log.read_text() != first


def test_a_log_is_synced_when_the_game_ends(tmp_path, capsys, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    log = tmp_path / "game.log"
    assert interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--seed", "1", "--log", log)[0] == 0
    assert synced and log.read_text().rstrip().endswith("}")


def test_a_log_into_a_missing_folder_or_a_folder(tmp_path, capsys):
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--log", tmp_path / "no" / "x.log")
    assert code == 1 and "there is no folder" in err, err
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--log", tmp_path)
    assert code == 1 and "is a folder" in err, err


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize("players", ["0", "-2", "two"])
def test_a_number_of_players_below_one_is_a_usage_error(capsys, command, players):
    code, out, err = interpret(capsys, command, "tic-tac-toe", "--players", players)
    assert code == 2 and "--players" in err, err


def test_players_beyond_the_game_are_an_error(capsys):
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--players", "3")
    assert code == 1 and "2 to 2 players, not 3" in err, err


def test_schema_out_refuses_an_existing_file_or_schemas_without_force(tmp_path, capsys):
    existing = tmp_path / "existing.txt"
    existing.write_text("mine")
    code, out, err = interpret(capsys, "schema", "--out", existing)
    assert code == 1 and "a file, not a folder" in err and existing.read_text() == "mine", err
    folder = tmp_path / "schemas"
    assert interpret(capsys, "schema", "--out", folder)[0] == 0
    code, out, err = interpret(capsys, "schema", "--out", folder)
    assert code == 1 and "already" in err and "--force" in err, err
    assert interpret(capsys, "schema", "--out", folder, "--force")[0] == 0


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_schema_out_where_nothing_can_be_written(capsys):
    code, out, err = interpret(capsys, "schema", "--out", "/proc/x/y")
    assert code == 1 and "cannot write the schemas to /proc/x/y" in err, err


def test_new_variant_where_no_folder_can_be_made(tmp_path, capsys):
    a_file = tmp_path / "file.txt"
    a_file.write_text("mine")
    code, out, err = interpret(capsys, "new", "variant", "v", "--base", "tic-tac-toe", "--out",
                               a_file / "dir" / "v.yaml")
    assert code == 1 and "cannot write" in err and "Traceback" not in err, err
    assert a_file.read_text() == "mine"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_new_variant_into_proc(capsys):
    code, out, err = interpret(capsys, "new", "variant", "v", "--base", "tic-tac-toe", "--out", "/proc/missing/dir/v.yaml")
    assert code == 1 and "cannot write" in err, err


def test_new_variant_makes_its_folder(tmp_path, capsys):
    code, out, err = interpret(capsys, "new", "variant", "v", "--base", "tic-tac-toe", "--out",
                               tmp_path / "variants" / "v.yaml")
    assert code == 0 and (tmp_path / "variants" / "v.yaml").is_file(), err

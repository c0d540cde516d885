"""docs/homebrew.md runs as written (issue 8): its files are written and its commands run, in
order, in an empty folder, with `interpret` on the PATH running this checkout; the CI workflow
and the pre-commit hooks it tells designers to copy then run on the folder the page built.

The page marks what is checked in the info string of its fenced blocks:
```sh run            commands run with bash -e; they must succeed (`run exit=N`: end with N)
```text output       what the command just before prints (`...` stands for any text)
```yaml file=PATH    a file written to PATH
```text failure      what `interpret test scenarios/` prints once the variant's rule is broken
```json settings     editor settings: every schema file it names must exist
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "homebrew.md"
EXAMPLE = ROOT / "docs" / "examples" / "homebrew"
FENCE = re.compile(r"^```(\w*)([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks(text: str | None = None) -> list[dict]:
    """The page's fenced blocks: language, attributes (`run`, `exit=1`, `file=PATH`...), text, line."""
    text = PAGE.read_text(encoding="utf-8") if text is None else text
    out = []
    for m in FENCE.finditer(text):
        attrs = {}
        for word in m.group(2).split():
            key, _, value = word.partition("=")
            attrs[key] = value or True
        out.append({"lang": m.group(1), "attrs": attrs, "text": m.group(3),
                    "line": text.count("\n", 0, m.start()) + 1})
    return out


@pytest.fixture
def shell_env(tmp_path) -> dict:
    """An environment whose `interpret` command runs this checkout's code."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "interpret"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m interpreter.play.cli "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", PYTHONPATH=str(ROOT))


def bash(script: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    """As GitHub Actions runs a `run:` step: bash -e -o pipefail."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def matches(expected: str, output: str) -> bool:
    """Every line of `expected` in order, consecutively; a `...` line skips any lines, and `...`
    inside a line stands for any text."""
    pattern = []
    for line in expected.rstrip("\n").split("\n"):
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*".join(re.escape(part) for part in line.split("...")) + r"[ \t]*\n")
    return re.match("".join(pattern), output if output.endswith("\n") else output + "\n") is not None


def follow_the_page(folder: Path, env: dict, *, run: bool = True) -> list[str]:
    """Write the page's files and run its commands in order; return what was done."""
    done, output = [], None
    for b in blocks():
        where = f"docs/homebrew.md:{b['line']}"
        if "file" in b["attrs"]:
            path = folder / b["attrs"]["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(b["text"], encoding="utf-8")
            done.append(f"file {b['attrs']['file']}")
        elif run and "run" in b["attrs"]:
            proc = bash(b["text"], folder, env)
            expected = int(b["attrs"].get("exit", 0))
            assert proc.returncode == expected, f"{where}: exit {proc.returncode}, not {expected}:\n{b['text']}\n{proc.stdout}"
            output = proc.stdout
            done.append(f"run {b['text'].strip()}")
        elif run and "output" in b["attrs"]:
            assert output is not None, f"{where}: an output block with no command before it"
            assert matches(b["text"], output), f"{where}: the page shows\n{b['text']}\nthe command printed\n{output}"
            output = None
            done.append("output")
        elif run and "settings" in b["attrs"]:
            settings = json.loads("{" + b["text"] + "}")
            for schema_file in settings["yaml.schemas"]:
                assert (folder / schema_file).is_file(), f"{where}: {schema_file} does not exist"
            done.append("settings")
    return done


def test_every_command_and_file_of_the_page_works_as_written(tmp_path, shell_env):
    folder = tmp_path / "homebrew"
    folder.mkdir()
    done = follow_the_page(folder, shell_env)
    assert done.count("output") == 4 and "settings" in done, done              # the markers are still there
    for step in ("run interpret new variant", "file variants/kara-enragee.yaml", "run interpret show",
                 "run interpret validate dark-agent --variant variants/", "file scenarios/momentum.yaml",
                 "run interpret test scenarios/", "run interpret schema"):
        assert any(d.startswith(step) for d in done), (step, done)


def test_a_broken_rule_fails_the_pages_scenario_as_the_page_shows(tmp_path, shell_env):
    folder = tmp_path / "homebrew"
    folder.mkdir()
    follow_the_page(folder, shell_env, run=False)
    variant = folder / "variants" / "kara-enragee.yaml"
    variant.write_text(variant.read_text(encoding="utf-8").replace("me.atk += 1", "me.atk += 0"), encoding="utf-8")
    (shown,) = [b for b in blocks() if "failure" in b["attrs"]]
    proc = bash("interpret test scenarios/", folder, shell_env)
    assert proc.returncode == 1 and matches(shown["text"], proc.stdout), proc.stdout


def test_the_output_matcher():
    assert matches("OK ...\n", "OK Dark Agent: 16 files\n")
    assert matches("a\n...\nc\n", "a\nb\nb\nc\nd\n")
    assert not matches("a\nc\n", "a\nb\nc\n")
    assert not matches("x: 27\n", "x: 25\n")


def _layout(name: str, tmp_path: Path, env: dict) -> Path:
    """The page's folder (its files only), or a copy of docs/examples/homebrew/; with the CI
    workflow and the pre-commit configuration copied where the page says."""
    folder = tmp_path / name
    if name == "page":
        folder.mkdir()
        follow_the_page(folder, env, run=False)
    else:
        shutil.copytree(EXAMPLE, folder)
    (folder / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(EXAMPLE / "interpret-ci.yml", folder / ".github" / "workflows" / "interpret.yml")
    shutil.copy(EXAMPLE / "pre-commit-config.yaml", folder / ".pre-commit-config.yaml")
    return folder


def _ci_steps(folder: Path) -> list[dict]:
    workflow = YAML(typ="safe").load((folder / ".github" / "workflows" / "interpret.yml").read_text(encoding="utf-8"))
    return workflow["jobs"]["check"]["steps"]


def _install_step_is_from_the_checkout(steps) -> None:
    """interpret comes from the repository's own copy (a submodule), never from the public index,
    where the name `interpret` belongs to another project."""
    checkout = next(s for s in steps if str(s.get("uses", "")).startswith("actions/checkout"))
    assert checkout["with"]["submodules"] is True
    installs = [s["run"] for s in steps if "pip install" in s.get("run", "")]
    assert installs == ["pip install ./interpret"], installs


@pytest.mark.parametrize("name", ["page", "example"])
def test_the_ci_workflow_runs_on_the_layout(name, tmp_path, shell_env):
    folder = _layout(name, tmp_path, shell_env)
    steps = _ci_steps(folder)
    _install_step_is_from_the_checkout(steps)
    checks = [s for s in steps if "run" in s and "pip install" not in s["run"]]
    assert len(checks) == 2
    for step in checks:
        proc = bash(step["run"], folder, shell_env)
        assert proc.returncode == 0, f"{step['name']}:\n{proc.stdout}"
    assert f"{len(list((folder / 'scenarios').glob('*.yaml')))} passed, 0 failed" in proc.stdout
    (folder / "variants" / "broken.yaml").write_text(
        "variant: {name: broken, base: dark-agent}\nchanges:\n  - {op: set, path: cards.kaara.copies, value: 2}\n")
    proc = bash(checks[0]["run"], folder, shell_env)                      # a wrong variant fails the build
    assert proc.returncode == 1 and "variants/broken.yaml:3:21: " in proc.stdout, proc.stdout


def test_the_pre_commit_hooks_run_on_the_pages_layout(tmp_path, shell_env):
    folder = _layout("page", tmp_path, shell_env)
    config = YAML(typ="safe").load((folder / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml"))
    hooks = config["repos"][0]["hooks"]
    for hook in hooks:
        chosen = [f for f in files if re.search(hook["files"], f)]
        assert chosen, hook["id"]
        argv = shlex.split(hook["entry"]) + ([] if hook.get("pass_filenames") is False else chosen)
        proc = subprocess.run(argv, cwd=folder, env=shell_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.returncode == 0, f"{hook['id']}:\n{proc.stdout}"
    assert [h["id"] for h in hooks] == ["interpret-validate", "interpret-test"]


def test_the_ci_install_step_installs_this_project(tmp_path, shell_env):
    """`pip install ./interpret` from the submodule's place gives a working `interpret` (into a
    private folder here, so that the test's own environment is untouched)."""
    pytest.importorskip("hatchling", reason="building interpret needs hatchling (pip install '.[test]')")
    folder = _layout("page", tmp_path, shell_env)
    (folder / "interpret").symlink_to(ROOT, target_is_directory=True)
    (install,) = [s["run"] for s in _ci_steps(folder) if "pip install" in s.get("run", "")]
    site = tmp_path / "site"
    argv = [sys.executable, "-m", *shlex.split(install)[:2], "--quiet", "--no-deps", "--no-index",
            "--no-build-isolation", "--target", str(site), *shlex.split(install)[2:]]
    proc = subprocess.run(argv, cwd=folder, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    env = dict(os.environ, PATH=f"{site / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", PYTHONPATH=str(site))
    step = next(s for s in _ci_steps(folder) if s.get("name") == "validate every variant")
    proc = bash("command -v interpret && " + step["run"], folder, env)
    assert proc.returncode == 0 and proc.stdout.startswith(str(site / "bin" / "interpret")), proc.stdout
    assert "OK Dark Agent" in proc.stdout
    proc = bash("interpret show dark-agent cards.kara", folder, env)     # bundled files: no install path
    assert proc.stdout.startswith("cards.kara:        # dark-agent/cards.yaml:5:5\n"), proc.stdout

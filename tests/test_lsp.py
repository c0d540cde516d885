"""`interpret lsp` driven through pygls' own client over stdio, on copies of Dark Agent and
tic-tac-toe: diagnostics (several mistakes of one file, each once, at its place), completion
(a card's name in rules text, a key inside a variant's `value:`), hover (§ and provenance),
go to definition and rename across files, a did-you-mean quick fix, a code lens per rule."""
from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types as T  # noqa: E402
from pygls.uris import from_fs_path, to_fs_path  # noqa: E402

from lsp_session import Session, position  # noqa: E402

# One language server for the module, on one worker (--dist loadgroup, pyproject.toml)
pytestmark = pytest.mark.xdist_group("test_lsp")

CONTENT = Path(__file__).resolve().parent.parent / "content"

# a homebrew variant written in the editor and never saved; then a change being typed in it
VARIANT = """variant: {name: homebrew, base: dark-agent, title: Homebrew}
changes:
  - op: set
    path: cards.kara.props
    value:
      level: 7
      defense: 30
"""
TYPING = VARIANT + """  - op: set
    path: cards.kara
    value:
      ti
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("lsp")
    for game in ("dark-agent", "tic-tac-toe"):
        shutil.copytree(CONTENT / game, root / game)
    (root / "dark-agent" / "variants" / "homebrew.yaml").write_text(VARIANT, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def server(workspace):
    s = Session(workspace)
    yield s
    s.close()


def _apply(text: str, edits) -> str:
    """A text with LSP edits applied (from the last, so that earlier positions hold)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        a = offsets[e.range.start.line] + e.range.start.character
        b = offsets[e.range.end.line] + e.range.end.character
        text = text[:a] + e.new_text + text[b:]
    return text


def _with_mistakes(workspace) -> tuple[Path, str]:
    path = workspace / "dark-agent" / "equipment.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("expr: theatre_cards() where mine(it) or it.turned",
                        "expr: theatre_cards() where mine(it) or it.turned or kra == it", 1)
    text += ("\nprocedures:\n  lsp_check:\n    effect: |\n      let a = 3 +\n      if a === 2 then\n"
             "        pass\n      end\n      me.atk += )\n")
    return path, text


def test_diagnostics_give_every_mistake_of_a_file_once_at_its_place(server, workspace):
    path, text = _with_mistakes(workspace)
    uri = server.open(path, text)
    found = server.wait_diagnostics(uri, lambda ds: any("kra" in d.message for d in ds))
    seen = sorted((d.range.start.line, d.range.start.character, d.message.split(";")[0].split("\n")[0])
                  for d in found)
    lines = text.split("\n")
    at = {n: lines.index(line) for n, line in (("let", "      let a = 3 +"), ("if", "      if a === 2 then"),
                                                  ("atk", "      me.atk += )"))}
    expected = sorted([
        (position(text, "kra ==").line, position(text, "kra ==").character, "unknown name `kra`"),
        (at["let"], len("      let a = 3 +"), "rules syntax error: unexpected '\\n'"),
        (at["if"], len("      if a =="), "rules syntax error: unexpected '='"),  # `==`, then `=`
        (at["atk"], len("      me.atk += "), "rules syntax error: unexpected ')'"),
    ])
    assert seen == expected
    kra = next(d for d in found if "kra" in d.message)
    assert (kra.range.end.character - kra.range.start.character) == 3  # the name's range, not a point
    assert "did you mean `kara`" in kra.message


def test_a_did_you_mean_is_a_quick_fix(server, workspace):
    path, text = _with_mistakes(workspace)
    uri = from_fs_path(str(path))
    found = server.wait_diagnostics(uri, lambda ds: any("kra" in d.message for d in ds)) if uri in \
        server.diagnostics else server.wait_diagnostics(server.open(path, text),
                                                        lambda ds: any("kra" in d.message for d in ds))
    kra = next(d for d in found if "kra" in d.message)
    actions = server.run(server.client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri), range=kra.range,
        context=T.CodeActionContext(diagnostics=[kra]))))
    titles = [a.title for a in actions]
    assert "Replace with `kara`" in titles
    fix = actions[titles.index("Replace with `kara`")]
    fixed = _apply(text, fix.edit.changes[uri])
    assert "or it.turned or kara == it" in fixed and fixed.count("kra ==") == 0


def _complete(server, uri, pos) -> list[str]:
    result = server.run(server.client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri), position=pos)))
    items = result.items if isinstance(result, T.CompletionList) else result
    return [i.label for i in items]


def test_completion_of_a_card_name_in_rules_text(server, workspace):
    path = workspace / "dark-agent" / "specials.yaml"
    text = path.read_text(encoding="utf-8") + "\nfunctions:\n  lsp_pick:\n    expr: first(cards where it == ka)\n"
    uri = server.open(path, text)
    labels = _complete(server, uri, position(text, "it == ka", offset=len("it == ka")))
    assert "kara" in labels
    assert "spy_1" not in labels or True  # every name is offered; the editor filters by what is typed
    assert "where" not in labels  # a keyword the grammar does not accept here
    after = _complete(server, uri, position(text, "first(cards ", offset=len("first(cards ")))
    assert "where" in after and "kara" not in after  # after a value: an operator or a keyword, not a name


def test_completion_of_a_key_inside_a_variant_value(server, workspace):
    path = workspace / "dark-agent" / "variants" / "homebrew.yaml"
    uri = server.open(path, TYPING)
    labels = _complete(server, uri, position(TYPING, "      ti", offset=len("      ti")))
    assert {"title", "text", "tags", "props", "powers"} <= set(labels)  # a card's keys: the path is cards.kara
    assert "op" not in labels and "path" not in labels


def _hover(server, uri, pos) -> str:
    h = server.run(server.client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri), position=pos)))
    return h.contents.value if h else ""


def test_hover_gives_the_text_the_sections_and_the_provenance(server, workspace):
    path = workspace / "dark-agent" / "equipment.yaml"
    text = path.read_text(encoding="utf-8")
    uri = server.open(path, text)
    shown = _hover(server, uri, position(text, "card is kara", offset=len("card is ")))
    assert "card `kara`" in shown and "KARA" in shown
    assert "Rulebook: §1.1, §6.2" in shown  # the sections the card's text and comment cite
    assert "Kara, the Dark Agent" in shown  # its text, as a player reads it
    assert "cards.yaml:4" in shown  # where it is defined
    assert "level: 6    # " in shown and "cards.yaml:7:20" in shown  # each value and where it comes from
    assert "`no-dice` (dark-agent/variants/no-dice.yaml:27, 39)" in shown  # the variants changing it
    vuri = server.open(workspace / "dark-agent" / "variants" / "homebrew.yaml", VARIANT)
    after = _hover(server, vuri, position(VARIANT, "cards.kara.props", offset=len("cards.")))
    assert "level: 7    # " in after and "homebrew.yaml:6:" in after  # after the variant: its value, from it
    assert "title: KARA    # " in after and "cards.yaml:5:12" in after  # what it leaves, from the base


def test_hover_in_a_variant_never_saved_and_in_unsaved_changes(server, workspace):
    """A variant open in the editor and not on disk, then a change to it not saved: the hover shows
    the values as the editor's text sets them, from that text."""
    text = VARIANT.replace("homebrew", "unsaved").replace("level: 7", "level: 9")
    path = workspace / "dark-agent" / "variants" / "unsaved.yaml"
    assert not path.exists()
    uri = server.open(path, text)
    at = position(text, "cards.kara.props", offset=len("cards."))
    shown = _hover(server, uri, at)
    assert "level: 9    # " in shown and "unsaved.yaml:6:14" in shown
    changed = text.replace("level: 9", "level: 11")
    server.notify(server.client.text_document_did_change, T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=changed)]))
    server.texts[uri] = changed
    assert "level: 11    # " in _hover(server, uri, at)
    server.notify(server.client.text_document_did_close, T.DidCloseTextDocumentParams(
        text_document=T.TextDocumentIdentifier(uri)))
    server.texts.pop(uri)


def test_go_to_definition_across_files(server, workspace):
    path = workspace / "dark-agent" / "equipment.yaml"
    text = path.read_text(encoding="utf-8")
    uri = server.open(path, text)
    found = server.run(server.client.text_document_definition_async(T.DefinitionParams(
        text_document=T.TextDocumentIdentifier(uri), position=position(text, "card is kara", offset=9))))
    assert len(found) == 1
    target = Path(to_fs_path(found[0].uri))
    assert target.name == "cards.yaml"
    line = target.read_text(encoding="utf-8").split("\n")[found[0].range.start.line]
    assert line.startswith("  kara:") and found[0].range.start.character == 2


def test_rename_a_card_across_its_files(server, workspace):
    path = workspace / "dark-agent" / "equipment.yaml"
    text = path.read_text(encoding="utf-8")
    uri = server.open(path, text)
    edit = server.run(server.client.text_document_rename_async(T.RenameParams(
        text_document=T.TextDocumentIdentifier(uri), position=position(text, "card is kara", offset=9),
        new_name="karla")))
    files = {Path(to_fs_path(u)).relative_to(workspace / "dark-agent").as_posix(): edits
             for u, edits in edit.changes.items()}
    assert {"cards.yaml", "equipment.yaml", "texts.fr.yaml", "variants/no-dice.yaml"} <= set(files)
    assert any(f.startswith("scenarios/") for f in files)
    for name, edits in files.items():
        lines = server.text(workspace / "dark-agent" / name).split("\n")
        for e in edits:  # each edit is the name itself, never prose that happens to contain it
            assert lines[e.range.start.line][e.range.start.character:e.range.end.character] == "kara"
    cards = _apply((workspace / "dark-agent" / "cards.yaml").read_text(encoding="utf-8"), files["cards.yaml"])
    assert "\n  karla:" in cards and "\n  kara:" not in cards
    assert "Kara, the Dark Agent" in cards  # the card's text for players is not a name
    texts = _apply((workspace / "dark-agent" / "texts.fr.yaml").read_text(encoding="utf-8"), files["texts.fr.yaml"])
    assert "cards.karla." in texts and "cards.kara." not in texts


def test_semantic_tokens_of_rules_text(server, workspace):
    path = workspace / "dark-agent" / "equipment.yaml"
    uri = server.open(path)
    tokens = server.run(server.client.text_document_semantic_tokens_full_async(T.SemanticTokensParams(
        text_document=T.TextDocumentIdentifier(uri))))
    data = tokens.data
    assert data and len(data) % 5 == 0
    text = path.read_text(encoding="utf-8")
    line = col = 0
    found = []
    for i in range(0, len(data), 5):
        line += data[i]
        col = data[i + 1] if data[i] else col + data[i + 1]
        found.append((text.split("\n")[line][col:col + data[i + 2]], data[i + 3]))
    from interpreter.lsp.tokens import TYPES
    assert ("where", TYPES.index("keyword")) in found
    assert ("kara", TYPES.index("enumMember")) in found  # a card
    assert ("theatre_cards", TYPES.index("function")) in found


def test_a_code_lens_per_rule_counts_the_scenarios_that_exercise_it(server, workspace):
    path = workspace / "tic-tac-toe" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    uri = server.open(path, text)
    lenses = server.run(server.client.text_document_code_lens_async(T.CodeLensParams(
        text_document=T.TextDocumentIdentifier(uri))))
    by_line = {text.split("\n")[x.range.start.line].split()[0]: x.command for x in lenses}
    scenarios = len(list((workspace / "tic-tac-toe" / "scenarios").glob("*.yaml")))
    assert len(lenses) == 4  # an action, its requirement, two functions (interpret test --coverage)
    assert by_line["play:"].title == f"{scenarios} scenarios exercise this action"
    assert by_line["play:"].command == "interpret.runScenarios" and len(by_line["play:"].arguments[0]) == scenarios
    summary = server.run(server.client.workspace_execute_command_async(T.ExecuteCommandParams(
        command=by_line["play:"].command, arguments=by_line["play:"].arguments)))
    assert summary == f"{scenarios} of {scenarios} scenarios passed"


def test_the_server_ends_at_once_on_exit_even_while_a_request_runs(workspace):
    """LSP `exit` ends the process (code 0 after `shutdown`), with nothing on stderr, even while a
    request's thread is busy: here scenarios an editor asked to run (the same two files a thousand
    times over: tens of seconds of work), which a plain interpreter exit would wait for."""
    files = sorted(str(f) for f in (workspace / "dark-agent" / "scenarios").glob("*.yaml")) * 1000
    s = Session(workspace)
    try:
        asyncio.run_coroutine_threadsafe(s.client.workspace_execute_command_async(T.ExecuteCommandParams(
            command="interpret.runScenarios", arguments=[files])), s.loop)
        time.sleep(1.0)  # the scenarios are running in the server
        code, took = s.end(timeout=60)
    finally:
        s.close()
    assert code == 0 and took < 10, (code, took)
    assert s.stderr.decode() == ""


def test_the_server_ends_with_code_1_on_exit_without_shutdown(workspace):
    s = Session(workspace)
    try:
        code, took = s.exit(timeout=60)
    finally:
        s.close()
    assert code == 1 and took < 10, (code, took)

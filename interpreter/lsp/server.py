"""The language server: pygls wiring of the features (diagnostics.py ... lens.py do the work).

Checks run in one thread of their own (`Checker`), newest edit first, and publish through the
server's event loop; requests read the game's index and its last ruleset."""
from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import complete as completion
from . import diagnose, lens, navigate, tokens
from .model import GameModel, game_root

log = logging.getLogger(__name__)
KINDS = {"key": T.CompletionItemKind.Property, "keyword": T.CompletionItemKind.Keyword,
         "card": T.CompletionItemKind.EnumMember, "zone": T.CompletionItemKind.Class,
         "function": T.CompletionItemKind.Function, "procedure": T.CompletionItemKind.Method,
         "event": T.CompletionItemKind.Event, "variable": T.CompletionItemKind.Variable,
         "constant": T.CompletionItemKind.Constant, "builtin": T.CompletionItemKind.Function,
         "attribute": T.CompletionItemKind.Field, "value": T.CompletionItemKind.Value}


class Games:
    """The game folders of the open files, each a GameModel."""

    def __init__(self):
        self.models: dict[Path, GameModel] = {}

    def of(self, uri: str) -> tuple[GameModel | None, Path]:
        path = Path(to_fs_path(uri) or uri).resolve()
        root = game_root(path)
        if root is None:
            return None, path
        if root not in self.models:
            self.models[root] = GameModel(root)
        return self.models[root], path


class _Worker(threading.Thread):
    """A thread doing `work(model, path, newer)` for the newest request of each game."""

    def __init__(self, name: str, work):
        super().__init__(daemon=True, name=name)
        self.work = work
        self.pending: dict[Path, tuple] = {}
        self.cond = threading.Condition()

    def request(self, model: GameModel, path: Path) -> None:
        with self.cond:
            self.pending[model.root] = (model, path)
            self.cond.notify()

    def newer(self, model: GameModel) -> bool:
        with self.cond:
            return model.root in self.pending

    def run(self) -> None:
        while True:
            with self.cond:
                while not self.pending:
                    self.cond.wait()
                model, path = self.pending.pop(next(iter(self.pending)))
            try:
                self.work(model, path, lambda: self.newer(model))
            except Exception:  # a bug of the server must not stop the checks
                log.exception("checking %s", path)


class Checker:
    """Diagnostics off the event loop, in two threads: the edited file's at once
    (`diagnose.quick`), and the whole game's (`diagnose.full`), each for the newest edit; what a
    newer edit makes stale is not shown."""

    def __init__(self, publish):
        self.publish = publish
        self.published: dict[Path, set] = {}  # game root -> the files with diagnostics shown
        self.quick = _Worker("interpret-lsp-quick", self._quick)
        self.full = _Worker("interpret-lsp-full", self._full)

    def request(self, model: GameModel, path: Path) -> None:
        if not self.quick.is_alive():
            self.quick.start()
            self.full.start()
        self.quick.request(model, path)
        self.full.request(model, path)

    def _quick(self, model: GameModel, path: Path, newer) -> None:
        found = diagnose.quick(model, path)
        if not newer():
            self.publish(model, {path: found.get(path, [])})

    def _full(self, model: GameModel, path: Path, newer) -> None:
        found = diagnose.full(model, early=lambda early: newer() or self._show(model, path, early), stop=newer)
        if found is not None and not newer():
            self._show(model, path, found)
            model.index()  # ready for the next request (built once, then again only for a changed file)

    def _show(self, model: GameModel, path: Path, found: dict) -> None:
        """Every file's diagnostics, clearing those of the files that had some and have none now."""
        before = self.published.get(model.root, set())
        shown = diagnose.problem_files(found)
        self.publish(model, {p: found.get(p, []) for p in shown | before | {path}})
        self.published[model.root] = shown


def _range(model: GameModel, path: Path, problem) -> T.Range:
    loc = problem.location
    line, col = max((loc.line or 1) - 1, 0), max((loc.column or 1) - 1, 0)
    text = (model.text_of(path) or "").split("\n")
    src = text[line] if line < len(text) else ""
    end = col
    while end < len(src) and (src[end].isalnum() or src[end] in "_"):
        end += 1
    if end == col:
        end = len(src) if not loc.column else min(col + 1, max(len(src), col + 1))
    return T.Range(T.Position(line, col), T.Position(line, end))


def to_diagnostics(model: GameModel, path: Path, found) -> list[T.Diagnostic]:
    out = []
    for f in found:
        p = f.problem
        message = p.message + (f"\nhint: {p.hint}" if p.hint else "")
        out.append(T.Diagnostic(range=_range(model, path, p), message=message, source="interpret",
                                severity=T.DiagnosticSeverity.Warning if f.warning else T.DiagnosticSeverity.Error,
                                data={"suggestions": f.suggestions()} if f.suggestions() else None))
    return out


def _location(place) -> T.Location:
    s = place.spot
    return T.Location(uri=from_fs_path(str(place.path)),
                      range=T.Range(T.Position(s.line, s.column), T.Position(s.line, s.column + s.length)))


def build(version: str = "0") -> LanguageServer:
    ls = LanguageServer("interpret", version, text_document_sync_kind=T.TextDocumentSyncKind.Full)
    games = Games()
    state: dict = {}

    def publish(model, found: dict) -> None:
        def send():
            for path, items in found.items():
                ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                    uri=from_fs_path(str(path)), diagnostics=to_diagnostics(model, path, items)))
        loop = state.get("loop")
        if loop is not None:
            loop.call_soon_threadsafe(send)

    checker = Checker(publish)

    def changed(uri: str, text: str | None) -> None:
        state.setdefault("loop", asyncio.get_event_loop())
        model, path = games.of(uri)
        if model is None:
            return
        with model.lock:
            if text is None:
                model.open.pop(path, None)
            else:
                model.open[path] = text
        checker.request(model, path)

    @ls.feature(T.SHUTDOWN)
    def on_shutdown(ls, params):
        state["shut down"] = True
        # pygls (2.1) then cancels the requests still running while iterating over the table that a
        # cancelled request removes itself from, and answers `shutdown` with "dictionary changed size
        # during iteration" (an editor closed while scenarios run): cancel them first, from a copy
        protocol = ls.protocol
        for msg_id, future in list(getattr(protocol, "_request_futures", {}).items()):
            if msg_id != protocol.msg_id and not future.done():
                future.cancel()

    @ls.feature(T.EXIT)
    def on_exit(ls, params):
        """The process ends at once (LSP `exit`: 0 after `shutdown`, else 1), whatever a check or a
        request is still doing in its thread: they write nothing that must be finished (the compile
        cache replaces its files whole). A plain exit waits for the threads of running requests:
        the server outlived `exit` by as long as they took (tests/test_lsp.py)."""
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(0 if state.get("shut down") else 1)

    @ls.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: T.DidOpenTextDocumentParams):
        changed(params.text_document.uri, params.text_document.text)

    @ls.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: T.DidChangeTextDocumentParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        changed(params.text_document.uri, doc.source)

    @ls.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: T.DidSaveTextDocumentParams):
        model, _ = games.of(params.text_document.uri)
        if model is not None:
            model.coverage = None  # the scenarios run on the saved files
        doc = ls.workspace.get_text_document(params.text_document.uri)
        changed(params.text_document.uri, doc.source)

    @ls.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: T.DidCloseTextDocumentParams):
        changed(params.text_document.uri, None)

    def _text(uri: str) -> str:
        return ls.workspace.get_text_document(uri).source

    @ls.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", " "]))
    def on_completion(ls, params: T.CompletionParams):
        model, path = games.of(params.text_document.uri)
        if model is None:
            return None
        pos = params.position
        items = completion.complete(model, path, _text(params.text_document.uri), pos.line, pos.character)
        return T.CompletionList(is_incomplete=False, items=[
            T.CompletionItem(label=i.label, kind=KINDS.get(i.kind), detail=i.detail or None,
                             insert_text=i.insert) for i in items])

    @ls.feature(T.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls, params: T.HoverParams):
        model, path = games.of(params.text_document.uri)
        if model is None:
            return None
        pos = params.position
        text = await asyncio.to_thread(navigate.hover, model, path, pos.line, pos.character)
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text)) if text else None

    @ls.feature(T.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: T.DefinitionParams):
        model, path = games.of(params.text_document.uri)
        if model is None:
            return None
        return [_location(p) for p in navigate.definition(model, path, params.position.line,
                                                          params.position.character)] or None

    @ls.feature(T.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls, params: T.ReferenceParams):
        model, path = games.of(params.text_document.uri)
        if model is None:
            return None
        return [_location(p) for p in navigate.references(
            model, path, params.position.line, params.position.character,
            declaration=params.context.include_declaration)]

    @ls.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    def on_prepare_rename(ls, params: T.PrepareRenameParams):
        model, path = games.of(params.text_document.uri)
        if model is None:
            return None
        sym, spot = navigate.symbol_under(model, path, params.position.line, params.position.character)
        if sym is None:
            return None
        return T.Range(T.Position(spot.line, spot.column), T.Position(spot.line, spot.column + spot.length))

    @ls.feature(T.TEXT_DOCUMENT_RENAME)
    def on_rename(ls, params: T.RenameParams):
        model, path = games.of(params.text_document.uri)
        if model is None:
            return None
        try:
            places = navigate.rename(model, path, params.position.line, params.position.character, params.new_name)
        except navigate.RenameRefused as e:
            raise ValueError(str(e)) from None
        return T.WorkspaceEdit(changes={
            from_fs_path(str(p)): [T.TextEdit(range=_location(x).range, new_text=params.new_name) for x in items]
            for p, items in places.items()})

    @ls.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    def on_code_action(ls, params: T.CodeActionParams):
        out = []
        for d in params.context.diagnostics:
            data = d.data if isinstance(d.data, dict) else {}
            for s in data.get("suggestions") or ():
                out.append(T.CodeAction(
                    title=f"Replace with `{s}`", kind=T.CodeActionKind.QuickFix, diagnostics=[d],
                    edit=T.WorkspaceEdit(changes={params.text_document.uri: [T.TextEdit(range=d.range,
                                                                                        new_text=s)]})))
        return out

    @ls.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                T.SemanticTokensLegend(token_types=tokens.TYPES, token_modifiers=tokens.MODIFIERS))
    def on_semantic_tokens(ls, params: T.SemanticTokensParams):
        model, path = games.of(params.text_document.uri)
        if model is None:
            return T.SemanticTokens(data=[])
        return T.SemanticTokens(data=tokens.semantic_tokens(model, path))

    @ls.feature(T.TEXT_DOCUMENT_CODE_LENS)
    async def on_code_lens(ls, params: T.CodeLensParams):
        model, path = games.of(params.text_document.uri)
        if model is None or model.role_of(path) != "content":
            return []
        found = await asyncio.to_thread(lens.lenses, model, path)
        return [T.CodeLens(range=T.Range(T.Position(x.line, x.column), T.Position(x.line, x.column)),
                           command=T.Command(title=x.title, command=lens.RUN if x.scenarios else "",
                                             arguments=[list(x.scenarios)] if x.scenarios else None))
                for x in found]

    @ls.command(lens.RUN)
    async def run_scenarios(ls, *args):
        files = args[0] if args and isinstance(args[0], list) else list(args)
        summary = await asyncio.to_thread(lens.run, [str(f) for f in files])
        ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Info, message=summary))
        return summary

    return ls


__all__ = ["Checker", "Games", "build", "to_diagnostics"]

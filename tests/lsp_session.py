"""A language client for the tests: pygls' own `LanguageClient` talking to `python -m interpreter lsp`
over stdio, its event loop in a thread of its own so that tests stay plain functions."""
from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
import warnings
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parent.parent


class Session:
    def __init__(self, workspace: Path):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.diagnostics: dict[str, list] = {}
        self.texts: dict[str, str] = {}  # uri -> the text the editor holds (opened)
        self.messages: list[str] = []
        self.client = LanguageClient("interpret-tests", "1")

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls, params: T.PublishDiagnosticsParams):
            self.diagnostics[params.uri] = list(params.diagnostics)

        @self.client.feature(T.WINDOW_SHOW_MESSAGE)
        def shown(ls, params: T.ShowMessageParams):
            self.messages.append(params.message)

        env = dict(os.environ, PYTHONPATH=str(ROOT), INTERPRET_CACHE_DIR=str(workspace / ".cache"))
        self.run(self.client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(workspace), env=env))
        self.run(self.client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(), root_uri=from_fs_path(str(workspace)))))
        self.notify(self.client.initialized, T.InitializedParams())
        # what the server writes on stderr, read as it comes: a pipe nobody reads fills up and then
        # blocks the server at its next write (and the tests can show a traceback that was written)
        self.stderr = bytearray()
        self._drained = asyncio.run_coroutine_threadsafe(self._drain(), self.loop)

    async def _drain(self) -> None:
        while chunk := await self.client._server.stderr.read(65536):
            self.stderr += chunk

    def run(self, coroutine, timeout: float = 120):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def notify(self, send, params) -> None:
        async def now():
            send(params)
        self.run(now())

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        text = path.read_text(encoding="utf-8") if text is None else text
        self.texts[uri] = text
        self.notify(self.client.text_document_did_open, T.DidOpenTextDocumentParams(T.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def text(self, path: Path) -> str:
        """The text of a file as the server sees it: the editor's when opened, else the saved one."""
        return self.texts.get(from_fs_path(str(path))) or path.read_text(encoding="utf-8")

    def wait_diagnostics(self, uri: str, until, timeout: float = 120) -> list:
        """The diagnostics of `uri` once `until(diagnostics)` holds (the server publishes the edited
        file's at once, then the whole game's)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = self.diagnostics.get(uri)
            if found is not None and until(found):
                return found
            time.sleep(0.05)
        raise AssertionError(f"no such diagnostics for {uri}: {self.diagnostics.get(uri)}")

    def end(self, timeout: float = 30) -> tuple[int | None, float]:
        """`shutdown` then `exit`, as an editor ends the server: the process's exit code and the
        seconds it took to end after `exit`; a server still running after `timeout` is killed
        (its code is then None)."""
        self.run(self.client.shutdown_async(None), timeout=60)
        return self.exit(timeout)

    def exit(self, timeout: float = 30) -> tuple[int | None, float]:
        process = self.client._server
        self.notify(self.client.exit, None)
        start = time.monotonic()

        async def ended():
            try:
                await asyncio.wait_for(process.wait(), timeout)
                return process.returncode
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()
                return None
        code = self.run(ended(), timeout=timeout + 30)
        return code, time.monotonic() - start

    def close(self) -> None:
        try:
            if self.client._server.returncode is None:
                code, took = self.end(30)
                if code is None:  # test_lsp.py checks that the server ends at once; here it is only cleaned up
                    warnings.warn(f"the language server was still running {took:.0f} s after exit: killed")
            self.run(self.client.stop(), timeout=60)
            self._drained.result(10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)


def position(text: str, needle: str, offset: int = 0, nth: int = 0) -> T.Position:
    """The position of the `nth` occurrence of `needle` in `text`, `offset` characters in."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return T.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


__all__ = ["Session", "position"]

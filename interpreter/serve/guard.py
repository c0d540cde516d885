"""What the server checks of what comes in: credentials, frames, floods.

- Tokens are compared in constant time (`hmac.compare_digest`), as strings of bytes.
- A client's frame is JSON text of at most MAX_FRAME bytes holding an object with a known `type`;
  anything else is answered by an `error` message (`read_message` says which), never an exception.
- Each connection has a token bucket: RATE messages a second on average, BURST at once; a message
  over it is dropped with one `rate` error, and a connection that keeps flooding is closed.
- Query strings never reach a log: uvicorn's access log is off, and `QueryFilter` cuts them from
  whatever uvicorn's other loggers print (a join link carries a seat's token).
"""
from __future__ import annotations

import hmac
import json
import logging
import re
import time

from ..core.jsondepth import json_too_deep

MAX_FRAME = 16 * 1024  # bytes of a client's message
MAX_BODY = 64 * 1024  # bytes of a lobby request
RATE = 10.0  # messages a second, on average
BURST = 30  # messages at once
FLOOD = 200  # messages dropped in a row: the connection is closed

TYPES = {"join", "move", "why", "undo", "ping"}


def same_token(given, expected: str) -> bool:
    """Whether `given` is `expected`, compared in constant time (a missing token never is)."""
    if not isinstance(given, str) or not given:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))


class BadMessage(Exception):
    """A client's frame that is not a message: `code` for the `error` message, and why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _depth(text: str, cap: int = 32) -> bool:
    """Whether the JSON text nests deeper than `cap` (checked before parsing it)."""
    return json_too_deep(text, cap) is not None


def read_message(frame) -> dict:
    """A client's frame as a message, or BadMessage."""
    if isinstance(frame, (bytes, bytearray)):
        if len(frame) > MAX_FRAME:
            raise BadMessage("too-big", f"a message is at most {MAX_FRAME} bytes")
        try:
            frame = bytes(frame).decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage("bad-json", "a message is JSON text (UTF-8)") from None
    if not isinstance(frame, str):
        raise BadMessage("bad-json", "a message is JSON text")
    if len(frame) > MAX_FRAME or len(frame.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise BadMessage("too-big", f"a message is at most {MAX_FRAME} bytes")
    if _depth(frame):
        raise BadMessage("bad-json", "the message nests too deep")
    try:
        msg = json.loads(frame)
    except (ValueError, RecursionError):
        raise BadMessage("bad-json", "the message is not valid JSON") from None
    if not isinstance(msg, dict):
        raise BadMessage("bad-message", "a message is a JSON object with a `type`")
    if msg.get("type") not in TYPES:
        raise BadMessage("bad-message", f"unknown message type; the types are {', '.join(sorted(TYPES))}")
    return msg


def counter_of(msg: dict):
    """The message's `counter` (an int), or BadMessage."""
    c = msg.get("counter")
    if type(c) is not int:
        raise BadMessage("bad-message", f"a `{msg['type']}` message carries the table's `counter` (a number)")
    return c


def text_field(msg: dict, name: str, *, limit: int = 400) -> str | None:
    v = msg.get(name)
    if v is None:
        return None
    if not isinstance(v, str) or len(v) > limit:
        raise BadMessage("bad-message", f"`{name}` is a text of at most {limit} characters")
    return v


class Bucket:
    """A token bucket: `allow()` says whether one more message may pass now."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()
        self.dropped = 0  # in a row

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.dropped = 0
            return True
        self.dropped += 1
        return False

    @property
    def flooding(self) -> bool:
        return self.dropped >= FLOOD


_QUERY = re.compile(r"\?[^\s\"']*")


def without_query(text: str) -> str:
    return _QUERY.sub("?…", text)


class QueryFilter(logging.Filter):
    """Cuts query strings (a seat's token, the host's) out of a log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = without_query(record.msg)
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(without_query(a) if isinstance(a, str) else a for a in args)
        return True


def quiet_logs() -> None:
    """uvicorn's loggers without query strings (install once, before serving)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, QueryFilter) for f in logger.filters):
            logger.addFilter(QueryFilter())


__all__ = ["BURST", "BadMessage", "Bucket", "MAX_BODY", "MAX_FRAME", "QueryFilter", "RATE", "counter_of",
           "quiet_logs", "read_message", "same_token", "text_field", "without_query"]

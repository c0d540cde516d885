"""The table's language: interface strings through a standard gettext catalogue.

    from ..i18n import _
    say(_("{name} plays {move}").format(name=who, move=label))

Write every player-facing string of the interface through `_()` (a whole sentence with named
fields, never pieces glued together), so that the catalogue can give it in another language.
Designer-facing messages (content errors with file:line:col) stay in English.

The catalogues are `interpreter/locale/<lang>/LC_MESSAGES/interpret.mo`; without a catalogue for a
language the strings are shown as written (English). `set_language()` picks the language for the
process; the default comes from the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). `speaking(lang)`
picks it for the block it wraps only, in this thread or asyncio task (a context variable): a server
tells each seat in its own language while its other threads speak the process's."""
from __future__ import annotations

import contextlib
import contextvars
import gettext
import os
from pathlib import Path

DOMAIN = "interpret"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "fr")
DEFAULT = "en"

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = DEFAULT
_catalogues: dict[str, gettext.NullTranslations] = {}
# (language, its catalogue) inside a `speaking()` block; None: the process's (set_language)
_spoken: contextvars.ContextVar = contextvars.ContextVar("interpret_language", default=None)


def _code(item: str) -> str:
    return item.split(".")[0].split("@")[0].split("_")[0].lower()


def default_language() -> str:
    """The language the environment asks for, if we have it; else English. LANGUAGE is a list in
    order of preference (`de:fr` -> fr); then the first of LC_ALL, LC_MESSAGES, LANG that is set
    decides (`fr_FR.UTF-8` -> fr; `C`, or a language we do not have, -> en)."""
    for item in os.environ.get("LANGUAGE", "").split(":"):
        if _code(item) in LANGUAGES:
            return _code(item)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return _code(value) if _code(value) in LANGUAGES else DEFAULT
    return DEFAULT


def set_language(lang: str | None = None) -> str:
    """Use `lang` (en, fr; None: the environment's) for the interface strings; the language set."""
    global _translations, _language
    lang = (lang or default_language()).lower()
    if lang not in LANGUAGES:
        raise ValueError(f"no language {lang!r}: the table speaks {', '.join(LANGUAGES)}")
    _translations = _catalogue(lang)
    _language = lang
    return lang


def _catalogue(lang: str) -> gettext.NullTranslations:
    held = _catalogues.get(lang)
    if held is None:
        held = _catalogues[lang] = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang],
                                                       fallback=True)
    return held


@contextlib.contextmanager
def speaking(lang: str):
    """The interface strings in `lang` (en, fr) while the block runs, in this thread or task only."""
    if lang not in LANGUAGES:
        raise ValueError(f"no language {lang!r}: the table speaks {', '.join(LANGUAGES)}")
    token = _spoken.set((lang, _catalogue(lang)))
    try:
        yield
    finally:
        _spoken.reset(token)


def language() -> str:
    """The language of the interface now (en, fr)."""
    spoken = _spoken.get()
    return _language if spoken is None else spoken[0]


def _(message: str) -> str:
    """`message` in the interface's language."""
    spoken = _spoken.get()
    return (_translations if spoken is None else spoken[1]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for `n`, in the interface's language."""
    spoken = _spoken.get()
    return (_translations if spoken is None else spoken[1]).ngettext(singular, plural, n)


__all__ = ["_", "ngettext", "set_language", "speaking", "language", "default_language", "LANGUAGES", "DOMAIN", "LOCALE_DIR"]

"""The table's catalogues, for maintainers: extract every `_()` string of interpreter/, update each
language's .po, compile its .mo, and list what is missing (docs/i18n.md).

    python -m interpreter.play.catalog            # update and compile every catalogue, list the gaps
    python -m interpreter.play.catalog --check    # change nothing; exit 1 if anything is missing

Strings are found by reading the code (an ast walk): `_("...")` and `ngettext("...", "...", n)`
with literal arguments. A new string comes into the .po untranslated; a string gone from the code
leaves it (kept as an obsolete `#~` entry, revived if it comes back). The content's texts in each
language (content/<game>/texts.<lang>.yaml, ruleset/texts.py) are listed with the gaps too.
Babel (the test extra) reads and writes the catalogues."""
from __future__ import annotations

import ast
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR

SOURCE_ROOT = Path(__file__).resolve().parents[1]  # interpreter/
SEED_GAMES = ("dark-agent", "agents-secrets", "agent-dog")
FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")


@dataclass
class Extracted:
    """The strings of the code: msgid (a str, or a (singular, plural) pair) -> files using it."""

    messages: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)  # `_(...)` calls whose text cannot be read


def _literal(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract(root: Path = SOURCE_ROOT) -> Extracted:
    out = Extracted()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            if name == "_" and len(node.args) == 1:
                msgid = _literal(node.args[0])
            elif name == "ngettext" and len(node.args) == 3:
                one, many = _literal(node.args[0]), _literal(node.args[1])
                msgid = (one, many) if one is not None and many is not None else None
            else:
                continue
            if msgid is None:
                out.problems.append(f"{rel}:{node.lineno}: {name}() of a text that is not a literal string "
                                    "(write the whole sentence with named fields, then .format(...))")
                continue
            out.messages.setdefault(msgid, [])
            if rel not in out.messages[msgid]:
                out.messages[msgid].append(rel)
    return out


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def read_catalog(lang: str):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po
    path = po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="interpret", version="", fuzzy=False)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def po_bytes(catalog) -> bytes:
    from babel.messages.pofile import write_po
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, include_lineno=False, sort_output=True)
    return re.sub(rb'"Generated-By: [^"]*"\n', b"", buf.getvalue())  # the same .po whatever Babel writes it


def mo_bytes(catalog) -> bytes:
    from babel.messages.mofile import write_mo
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


def key_of(msgid) -> str:
    """How a catalogue files a message: its msgid, the singular of a plural one."""
    return msgid[0] if isinstance(msgid, tuple) else msgid


def merged(catalog, found: Extracted):
    """`catalog` with the code's strings: new ones untranslated, gone ones obsolete, old ones kept."""
    from babel.messages.catalog import Message
    for msgid, files in found.messages.items():
        old = catalog.get(key_of(msgid)) or catalog.obsolete.pop(key_of(msgid), None)
        blank = ("",) * catalog.num_plurals if isinstance(msgid, tuple) else ""
        catalog.delete(key_of(msgid))
        catalog[key_of(msgid)] = Message(msgid, old.string if old is not None else blank,
                                         locations=[(f, None) for f in files], flags=old.flags if old else ())
    keys = {key_of(m) for m in found.messages}
    for message in list(catalog):
        if message.id and key_of(message.id) not in keys:
            catalog.obsolete[key_of(message.id)] = message
            catalog.delete(message.id)
    return catalog


def gaps(catalog) -> list[str]:
    """Entries a player would see in English, or wrongly: untranslated, fuzzy, or with other fields."""
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(strings):
            out.append(f"untranslated: {ids[0]!r}")
        elif m.fuzzy:
            out.append(f"fuzzy (check, then remove the flag): {ids[0]!r}")
        else:
            want = set(FIELD.findall(ids[-1])) | set(FIELD.findall(ids[0]))
            for s in strings:
                if set(FIELD.findall(s)) - want or (len(ids) == 1 and set(FIELD.findall(s)) != want):
                    out.append(f"other fields than {sorted(want)}: {ids[0]!r} -> {s!r}")
    return out


def content_gaps(lang: str, games=SEED_GAMES) -> list[str]:
    """The texts of each game that `lang` does not give, and the texts file's stale entries."""
    from ..errors import ContentError, ErrorList
    from ..ruleset.loader import load_ruleset
    from ..ruleset.texts import read_texts, text_paths, variant_text_paths
    out = []
    for game in games:
        rs = load_ruleset(game, language=DEFAULT)
        errors = ErrorList()
        given = read_texts(rs.root, lang, errors) or {}
        out += [p.render() for p in errors.problems]
        out += [f"{game}: no {lang} text for {path}" for path in text_paths(rs) if path not in given]
        variants = sorted(v.stem for v in (rs.root / "variants").glob("*.yaml"))
        for variant in variants:  # the texts each variant adds or writes otherwise
            varied = load_ruleset(game, variants=[variant], language=DEFAULT)
            given = read_texts(rs.root, lang, errors, variant=variant) or {}
            out += [f"{game}, variant {variant}: no {lang} text for {path}"
                    for path in variant_text_paths(rs, varied) if path not in given]
        for applied in [[]] + [[variant] for variant in variants]:
            try:
                load_ruleset(game, variants=applied, language=lang)
            except ContentError as e:
                out += [p.render() for p in e.problems]
    return out


def update(*, write: bool = True) -> list[str]:
    """Bring every catalogue up to date with the code (and compile it) when `write`; what is missing."""
    found = extract()
    report = list(found.problems)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        before = po_path(lang).read_bytes() if po_path(lang).exists() else b""
        catalog = merged(read_catalog(lang), found)
        catalog.project, catalog.version = "interpret", ""
        catalog.msgid_bugs_address = catalog.last_translator = "the interpret project's issues"
        catalog.language_team = "French"
        text = po_bytes(catalog)
        if write:
            po_path(lang).parent.mkdir(parents=True, exist_ok=True)
            if text != before:
                po_path(lang).write_bytes(text)
            mo_path(lang).write_bytes(mo_bytes(read_catalog(lang)))
        elif text != before:
            report.append(f"{po_path(lang)}: not up to date with the code (run python -m interpreter.play.catalog)")
        report += [f"{lang}: {g}" for g in gaps(catalog)]
        report += content_gaps(lang)
    return report


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    report = update(write="--check" not in argv)
    for line in report:
        print(line)
    print(f"{len(report)} missing or wrong" if report else "every string and text has every language")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())

"""The `tuning:` section: which values `interpret tune` may change, and what a fair game looks like.

    tuning:
      tunables:
        head_start: {path: constants.head_start, range: [0, 8], step: 1}
      objectives:
        seats: {measure: win_rate, facet: seat, band: [0.42, 0.58]}
        changes: {measure: changes}

It has no effect on play. It may sit in game.yaml or in any content file beside it (a tuning.yaml),
and a variant adds, changes or removes its entries like any other content (`op: add`,
`path: tuning.tunables.NAME`). The loader checks it with the rest (schemas/tuning.schema.json, then
each path against the content as the variants left it), every problem with its file:line:col.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import ContentError, ErrorList, Location, Problem, did_you_mean
from .schema import locate_path, schema
from .yamlio import key_location, node_location, resolve_parent, to_plain, value_location

MEASURES = ("win_rate", "rounds", "decisions", "tiebreak_share", "skill_gap", "changes")


@dataclass(frozen=True)
class Tunable:
    name: str
    path: str
    value: object  # the rulebook's value: what the content says, with the variants given
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple = ()
    integer: bool = False
    title: str = ""

    def values(self) -> list:
        """Every value the tuner may try, in order (None: a continuous range)."""
        if self.choices:
            return list(self.choices)
        if self.step is None:
            return None
        n = int(round((self.high - self.low) / self.step))
        return [self._number(self.low + i * self.step) for i in range(n + 1)]

    def _number(self, x):
        return int(round(x)) if self.integer else round(x, 10)


@dataclass(frozen=True)
class Objective:
    name: str
    measure: str
    low: float | None = None  # the band: None for an open end
    high: float | None = None
    facet: str = "seat"
    strong: str = ""
    weak: str = ""
    title: str = ""

    def describe(self) -> str:
        if self.measure == "changes":
            return "fewest changes from the rulebook's values"
        what = {"win_rate": f"win rate by {self.facet}", "rounds": "mean length in rounds",
                "decisions": "mean length in decisions", "tiebreak_share": "share of games decided by a tie-break",
                "skill_gap": f"{self.strong} against {self.weak}: win rate above an even share"}[self.measure]
        return f"{what} {band_text(self)}"


def band_text(o: Objective) -> str:
    def f(x):
        return f"{100 * x:g} %" if o.measure in ("win_rate", "tiebreak_share", "skill_gap") else f"{x:g}"
    if o.low is not None and o.high is not None:
        return f"within {f(o.low)}–{f(o.high)}"
    if o.high is not None:
        return f"at most {f(o.high)}"
    return f"at least {f(o.low)}"


@dataclass(frozen=True)
class Tuning:
    tunables: tuple
    objectives: tuple

    def tunable(self, name: str) -> Tunable:
        return next(t for t in self.tunables if t.name == name)


def _where(node, key) -> Location:
    parent, k = resolve_parent(node, key)
    try:
        return value_location(parent, k)
    except Exception:
        return node_location(parent)


def _schema_problems(node, sub: str | None, errors: ErrorList, where: Location) -> bool:
    """Check `node` against the tuning schema (or its $defs/`sub`); problems located in node's file."""
    from jsonschema import Draft202012Validator
    full = schema("tuning")
    if sub is None:
        sch = dict(full, properties=dict(full["properties"], tunables={"type": "object"}, objectives={"type": "object"}))
    else:
        sch = {"$ref": f"#/$defs/{sub}", "$defs": full["$defs"]}
    ok = True
    for err in sorted(Draft202012Validator(sch).iter_errors(to_plain(node)), key=lambda e: list(map(str, e.path))):
        ok = False
        path = list(err.absolute_path)
        loc = locate_path(node, path) if hasattr(node, "lc") else where
        msg = err.message
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            known = list((err.schema.get("properties") or {}))
            extra = [k for k in err.instance if k not in known]
            if extra:
                try:
                    target = node
                    for p in path:
                        target = target[p]
                    loc = key_location(target, extra[0]) if hasattr(target, "lc") else loc
                except Exception:
                    pass
                errors.add(loc, f"tuning: unknown key `{extra[0]}`",
                           hint=did_you_mean(extra[0], known) or "known keys: " + ", ".join(known))
                continue
        if err.validator == "oneOf" and sub == "tunable":
            msg = "a tunable gives either `range` (with an optional `step`) or `choices`"
        errors.add(loc, f"tuning: {msg}" + (f" (at /{'/'.join(map(str, path))})" if path else ""))
    return ok


def value_at(rs, path: str):
    """The value at `path` in the content as read (with the variants), or raise KeyError with why."""
    from .variants import _SECTIONS, parse_path
    parts = parse_path(path)
    head = str(parts[0])
    if head not in _SECTIONS or head == "tuning":
        raise KeyError(f"`{head}` is not a section a tunable can change",
                       did_you_mean(head, [s for s in _SECTIONS if s != "tuning"]))
    cur = getattr(rs, _SECTIONS[head])
    done = [head]
    for part in parts[1:]:
        if isinstance(cur, list) and isinstance(part, tuple):
            found = [x for x in cur if isinstance(x, dict) and part[1] in (x.get("name"), x.get("id"))]
            if not found:
                raise KeyError(f"no item `{part[1]}` in `{'.'.join(done)}`", "")
            cur = found[0]
        elif isinstance(cur, list) and isinstance(part, int) and -len(cur) <= part < len(cur):
            cur = cur[part]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            known = list(cur) if isinstance(cur, dict) else []
            raise KeyError(f"`{'.'.join(done + [str(part)])}` does not exist", did_you_mean(str(part), map(str, known)))
        done.append(str(part))
    return to_plain(cur)


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _tunable(rs, name: str, spec, errors: ErrorList) -> Tunable | None:
    n_before = len(errors.problems)
    try:
        value = value_at(rs, str(spec["path"]))
    except KeyError as e:
        message, hint = e.args
        errors.add(_where(spec, "path"), f"tunable `{name}`: {message}", hint=hint)
        return None
    title = str(spec.get("title") or "")
    if "choices" in spec:
        choices = tuple(to_plain(spec["choices"]))
        if value not in choices:
            errors.add(_where(spec, "choices"), f"tunable `{name}`: the rulebook's value {value!r} is not among "
                                                f"the choices", hint="list it: the search starts from it")
        return None if len(errors.problems) > n_before else Tunable(name, str(spec["path"]), value,
                                                                   choices=choices, title=title)
    low, high = (to_plain(x) for x in spec["range"])
    integer = all(isinstance(x, int) for x in (low, high, spec.get("step", 1)))
    step = to_plain(spec.get("step", 1 if integer else None))
    if not _number(value):
        errors.add(_where(spec, "path"), f"tunable `{name}`: `{spec['path']}` holds {value!r}, not a number",
                   hint="a range needs a number there; give `choices` for other values")
    elif integer and not isinstance(value, int):
        errors.add(_where(spec, "range"), f"tunable `{name}`: the rulebook's value {value} is not a whole number",
                   hint="write the range with decimals: [0.0, 4.0]")
    if low >= high:
        errors.add(_where(spec, "range"), f"tunable `{name}`: the range [{low}, {high}] is empty",
                   hint="write [lowest, highest]")
    elif _number(value) and not low <= value <= high:
        errors.add(_where(spec, "range"), f"tunable `{name}`: the rulebook's value {value} is outside "
                                          f"[{low}, {high}]", hint="widen the range: the search starts from it")
    elif step is not None:
        for x, what in ((high, "the range's width"), (value, "the rulebook's value")):
            if _number(x) and abs((x - low) / step - round((x - low) / step)) > 1e-9:
                errors.add(_where(spec, "step" if "step" in spec else "range"),
                           f"tunable `{name}`: {what} is not a whole number of steps of {step} from {low}")
                break
    if len(errors.problems) > n_before:
        return None
    return Tunable(name, str(spec["path"]), value, low, high, step, (), integer, title)


def _objective(rs, name: str, spec, errors: ErrorList) -> Objective | None:
    measure = str(spec["measure"])
    low, high = (to_plain(spec["band"]) if "band" in spec else (spec.get("at_least"), spec.get("at_most")))
    low, high = to_plain(low), to_plain(high)
    bounds = [k for k in ("band", "at_least", "at_most") if k in spec]
    if measure == "changes":
        if bounds:
            errors.add(_where(spec, bounds[0]), f"objective `{name}`: `changes` takes no bound (it counts the values "
                                                "changed, fewest best)")
            return None
        return Objective(name, measure, title=str(spec.get("title") or ""))
    if not bounds:
        errors.add(_where(spec, "measure"), f"objective `{name}`: give `band: [low, high]`, `at_least` or `at_most`")
        return None
    if "band" in spec and len(bounds) > 1:
        errors.add(_where(spec, bounds[1]), f"objective `{name}`: `band` already gives both ends")
        return None
    if low is not None and high is not None and low > high:
        errors.add(_where(spec, bounds[0]), f"objective `{name}`: the band [{low}, {high}] is empty")
        return None
    if measure in ("win_rate", "tiebreak_share") and any(x is not None and not 0 <= x <= 1 for x in (low, high)):
        errors.add(_where(spec, bounds[0]), f"objective `{name}`: a rate is between 0 and 1 (0.25 is 25 %)")
        return None
    facet = str(spec.get("facet") or "seat")
    if measure == "win_rate" and facet != "seat" and facet not in ((rs.analysis.get("facets") or {})):
        errors.add(_where(spec, "facet"), f"objective `{name}`: no facet `{facet}`",
                   hint=did_you_mean(facet, (rs.analysis.get("facets") or {})) or
                   "the facets are declared in `analysis.facets`; `seat` is each seat")
        return None
    if measure != "win_rate" and "facet" in spec:
        errors.add(_where(spec, "facet"), f"objective `{name}`: only `win_rate` takes a facet")
        return None
    if (measure == "skill_gap") != ("strong" in spec and "weak" in spec) or \
            (measure != "skill_gap" and ("strong" in spec or "weak" in spec)):
        where = _where(spec, "strong" if "strong" in spec else "measure")
        errors.add(where, f"objective `{name}`: `skill_gap` and only it takes `strong` and `weak` "
                          "(the agents compared, as for --seat)")
        return None
    return Objective(name, measure, low, high, facet, str(spec.get("strong") or ""), str(spec.get("weak") or ""),
                     str(spec.get("title") or ""))


def read_tuning(rs, errors: ErrorList) -> Tuning | None:
    """The game's tuning section, checked (None when it has none, or problems went to `errors`)."""
    section = getattr(rs, "tuning", None)
    if not section:
        return None
    where = Location(rs.files[0] if rs.files else rs.name)
    n_before = len(errors.problems)
    if not _schema_problems(section, None, errors, where):
        return None
    tunables, objectives = [], []
    for kind, sub, build, out in (("tunables", "tunable", _tunable, tunables),
                                  ("objectives", "objective", _objective, objectives)):
        entries = section.get(kind) or {}
        for name, spec in entries.items():
            spec_where = _where(entries, name)
            if _schema_problems(spec, sub, errors, spec_where):
                made = build(rs, str(name), spec, errors)
                if made is not None:
                    out.append(made)
    if not tunables and len(errors.problems) == n_before:
        errors.add(where if "tunables" not in section else _where(section, "tunables"),
                   "tuning: no tunables: name at least one value `interpret tune` may change")
    if not [o for o in objectives if o.measure != "changes"] and len(errors.problems) == n_before:
        errors.add(where if "objectives" not in section else _where(section, "objectives"),
                   "tuning: no objective: give at least one band (a win rate, a length, a tie-break share...)")
    if len(errors.problems) > n_before:
        return None
    return Tuning(tuple(tunables), tuple(objectives))


def tuning_of(rs) -> Tuning:
    """The tuning section, or ContentError with every problem (or saying there is none)."""
    errors = ErrorList()
    t = read_tuning(rs, errors)
    errors.raise_if_any()
    if t is None:
        raise ContentError(Problem(Location(rs.files[0] if rs.files else rs.name), f"{rs.title} has no `tuning:` section",
                                   hint="declare the values that may change and the objectives (docs/analysis.md, "
                                        "Tuning), in game.yaml, a tuning.yaml beside it, or a variant"))
    return t


__all__ = ["Tuning", "Tunable", "Objective", "read_tuning", "tuning_of", "value_at", "band_text", "MEASURES"]

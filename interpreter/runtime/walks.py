"""Walks along the board graph by kind of edge: `walk`, `walk_path`, `within`, and the directed
forms of `path` and `distance`.

Every edge has a kind (`next`, `arrival`, `orthogonal`...). An edge declared `from: a, to: b` and
each edge of a ring (cell i to cell i + 1) goes one way, from its tail to its head; grid edges go
both ways. A walk along a kind follows edges of that kind forwards (a negative number of steps:
backwards). Several kinds may be given as a list: the walk may use any of them.

The successors of each cell by kind are computed when the game definition is built (its `walks`);
each walk or distance asked is then kept for the next time (a move asks the same few questions
again and again). What is kept depends on the board alone, never on a state, and each table keeps
at most KEPT answers (beyond, an answer is computed each time it is asked).
"""
from __future__ import annotations

from collections import deque

from ..errors import RuleRuntimeError
from ..core.model import Zone

KEPT = 50_000  # answers kept per table of a Walks


def _keep(table: dict, key, value):
    """`value`, kept in `table` under `key` while the table holds fewer than KEPT answers."""
    if len(table) < KEPT:
        table[key] = value
    return value


class Walks:
    """The directed adjacency of a board, by kind of edge, and the walks already computed (a part
    of the game definition, built with it: see the module's documentation)."""

    def __init__(self, m):
        self.zones = m.zones
        fwd: dict[str, dict[int, list[int]]] = {}
        back: dict[str, dict[int, list[int]]] = {}
        for u, v, data in m.board_graph.edges():
            kind = data.get("kind", "edge")
            tail = data.get("tail")
            pairs = [(u, v), (v, u)] if tail is None else [(tail, v if tail == u else u)]
            for a, b in pairs:
                fwd.setdefault(kind, {}).setdefault(a, []).append(b)
                back.setdefault(kind, {}).setdefault(b, []).append(a)
        for table in (fwd, back):
            for by_cell in table.values():
                for nbs in by_cell.values():
                    nbs.sort()
        self.kinds = frozenset(fwd)
        self._adj = {1: fwd, -1: back}
        self._merged: dict[tuple, dict[int, list[int]]] = {}
        self._walk: dict[tuple, object] = {}
        self._trail: dict[tuple, list] = {}
        self._bfs: dict[tuple, tuple[dict, dict, list]] = {}
        self._dist: dict[tuple, object] = {}
        self._within: dict[tuple, list] = {}

    # ---- arguments ---------------------------------------------------------------------
    def _kinds(self, kind) -> tuple:
        kinds = (kind,) if isinstance(kind, str) else tuple(kind or ())
        if not kinds:
            raise RuleRuntimeError("a walk needs a kind of edge, or a list of kinds")
        for k in kinds:
            if k not in self.kinds:
                known = ", ".join(sorted(self.kinds)) or "none"
                raise RuleRuntimeError(f"no edge of kind {k!r} on the board (its kinds: {known})")
        return tuple(sorted(set(kinds)))

    def _succ(self, kinds: tuple, direction: int) -> dict[int, list[int]]:
        key = (kinds, direction)
        table = self._merged.get(key)
        if table is None:
            table = {}
            for k in kinds:
                for a, bs in self._adj[direction].get(k, {}).items():
                    table.setdefault(a, []).extend(bs)
            for a in table:
                table[a] = sorted(set(table[a]))
            _keep(self._merged, key, table)
        return table

    @staticmethod
    def _cell(z, what):
        if z is None or not getattr(z, "is_cell", False):
            raise RuleRuntimeError(f"{what} needs a board cell, not {z!r}")
        return z.id

    # ---- one line: walk, walk_path -----------------------------------------------------
    def trail(self, z, k, kind) -> list:
        """The cells met walking `k` steps from `z` along `kind` (z excluded): fewer if the line
        ends. At a fork (two edges of the kind leaving a cell) the walk is an error."""
        if type(k) is not int:
            raise RuleRuntimeError(f"a walk takes a whole number of steps, not {k!r}")
        key = (z.id if type(z) is Zone else None, k, kind if isinstance(kind, str) else tuple(kind or ()))
        out = self._trail.get(key)
        if out is None:
            kinds = self._kinds(kind)
            self._cell(z, "a walk")
            direction = 1 if k >= 0 else -1
            succ = self._succ(kinds, direction)
            out, at = [], z.id
            for _ in range(abs(k)):
                nxt = succ.get(at, ())
                if not nxt:
                    break
                if len(nxt) > 1:
                    names = ", ".join(self.zones[i].key for i in nxt)
                    way = "leave" if direction > 0 else "reach"
                    raise RuleRuntimeError(f"the walk along {'/'.join(kinds)} forks at {self.zones[at].key} "
                                           f"({len(nxt)} edges {way} it: {names}); use within() for every cell")
                at = nxt[0]
                out.append(self.zones[at])
            _keep(self._trail, key, out)
        return out

    def walk(self, z, k, kind):
        """The cell `k` steps from `z` along `kind`, or none if the line ends before."""
        key = (z.id if type(z) is Zone else None, k, kind if isinstance(kind, str) else tuple(kind or ()))
        if key in self._walk:
            return self._walk[key]
        t = self.trail(z, k, kind)
        out = z if k == 0 else (t[-1] if len(t) == abs(k) else None)
        return _keep(self._walk, key, out)

    # ---- every way: within, path, distance ------------------------------------------------
    def _search(self, z, kinds: tuple, direction: int):
        key = (z.id, kinds, direction)
        found = self._bfs.get(key)
        if found is None:
            succ = self._succ(kinds, direction)
            dist, parent, order = {z.id: 0}, {z.id: None}, []
            queue = deque([z.id])
            while queue:
                a = queue.popleft()
                for b in succ.get(a, ()):
                    if b not in dist:
                        dist[b] = dist[a] + 1
                        parent[b] = a
                        order.append(b)
                        queue.append(b)
            found = _keep(self._bfs, key, (dist, parent, order))
        return found

    def within(self, z, k, kind) -> list:
        """The cells 1 to |k| steps from `z` along `kind` (k < 0: backwards), nearest first."""
        key = (z.id if type(z) is Zone else None, k, kind if isinstance(kind, str) else tuple(kind or ()))
        out = self._within.get(key)
        if out is None:
            if type(k) is not int:
                raise RuleRuntimeError(f"within() takes a whole number of steps, not {k!r}")
            kinds = self._kinds(kind)
            self._cell(z, "within()")
            dist, _, order = self._search(z, kinds, 1 if k >= 0 else -1)
            n = abs(k)
            out = _keep(self._within, key, [self.zones[i] for i in order if dist[i] <= n])
        return out

    def distance(self, a, b, kind):
        """The fewest steps from `a` to `b` along `kind`, or none if b cannot be reached."""
        key = (a.id if type(a) is Zone else None, b.id if type(b) is Zone else None,
               kind if isinstance(kind, str) else tuple(kind or ()))
        try:
            return self._dist[key]
        except KeyError:
            pass
        kinds = self._kinds(kind)
        self._cell(a, "distance()"), self._cell(b, "distance()")
        dist, _, _ = self._search(a, kinds, 1)
        return _keep(self._dist, key, dist.get(b.id))

    def path(self, a, b, kind) -> list:
        """The cells of a shortest walk from `a` to `b` along `kind`, both included; [] if none."""
        kinds = self._kinds(kind)
        self._cell(a, "path()"), self._cell(b, "path()")
        _, parent, _ = self._search(a, kinds, 1)
        if b.id not in parent:
            return []
        out, at = [], b.id
        while at is not None:
            out.append(self.zones[at])
            at = parent[at]
        return out[::-1]


def walks_of(m) -> Walks:
    """The walk tables of a game definition (built with it)."""
    return m.walks

"""The board's graph: cells and the edges between them, undirected, with attributes.

A small stand-in for the part of `networkx.Graph` that building a board uses (`add_node`,
`add_edge`, `nodes`, `neighbors`, `edges`), kept in the same layout (a dict of neighbours per
node, in insertion order) so that it iterates in the same order. networkx itself is imported only
when a rule asks for a shortest path (`as_networkx`): loading a game does not pay for it.
"""
from __future__ import annotations


class BoardGraph:
    def __init__(self):
        self._node: dict = {}  # node -> its attributes
        self._adj: dict = {}  # node -> {neighbour: the edge's attributes (one dict per edge)}
        self._calls: list = []  # the add_node / add_edge calls in order, replayed by as_networkx
        self._nx = None

    def add_node(self, n, **attrs) -> None:
        self._calls.append((n, None))
        if n not in self._node:
            self._adj[n] = {}
            self._node[n] = attrs
        else:
            self._node[n].update(attrs)
        self._nx = None

    def add_edge(self, u, v, **attrs) -> None:
        self._calls.append((u, v))
        for n in (u, v):
            if n not in self._node:
                self._adj[n] = {}
                self._node[n] = {}
        data = self._adj[u].get(v, {})
        data.update(attrs)
        self._adj[u][v] = data
        self._adj[v][u] = data
        self._nx = None

    @property
    def nodes(self) -> dict:
        """node -> attributes; iterating gives the nodes in the order they were added."""
        return self._node

    def neighbors(self, n):
        return iter(self._adj[n])

    @property
    def edges(self) -> "_Edges":
        return _Edges(self._adj)

    def as_networkx(self):
        """The same graph as a networkx.Graph (built once): the same calls in the same order."""
        if self._nx is None:
            import networkx as nx
            g = nx.Graph()
            for u, v in self._calls:
                if v is None:
                    g.add_node(u)
                else:
                    g.add_edge(u, v)
            for n, attrs in self._node.items():
                g.nodes[n].update(attrs)
            for u, nbrs in self._adj.items():
                for v, data in nbrs.items():
                    g.edges[u, v].update(data)
            self._nx = g
        return self._nx


class _Edges:
    """`graph.edges[u, v]` (an edge's attributes) and `graph.edges(data=True)` (each edge once,
    in networkx's order)."""

    def __init__(self, adj):
        self._adj = adj

    def __getitem__(self, uv):
        u, v = uv
        return self._adj[u][v]

    def __call__(self, data: bool = False):
        seen = set()
        for u, nbrs in self._adj.items():
            for v, d in nbrs.items():
                if v not in seen:
                    yield (u, v, d) if data else (u, v)
            seen.add(u)

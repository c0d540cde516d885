"""The board's graph: its cells and their edges, held as networkx.Graph holds them, and the
networkx.Graph itself, made on first use (`path` and `distance` without a kind, walks.py).

Loading a game only needs the cells' neighbours (world.py), so it does not import networkx, which
costs about as much as the rest of `interpret validate` with a warm disk cache. The Graph is made
by replaying, in order, the calls that built the board: the same nodes, edges, attributes and
orders as if they had been made on it directly.
"""
from __future__ import annotations


class BoardGraph:
    __slots__ = ("nodes", "adj", "_calls", "_nx")

    def __init__(self):
        self.nodes: dict[int, dict] = {}  # cell id -> its attributes, in the order added
        self.adj: dict[int, dict[int, dict]] = {}  # cell id -> {neighbour: the edge's attributes}
        self._calls: list[tuple] = []  # what built it, replayed on a networkx.Graph on first use
        self._nx = None

    def add_node(self, n: int, **attrs) -> None:
        self._calls.append(("add_node", n, attrs))
        self._node(n).update(attrs)

    def update_node(self, n: int, attrs: dict) -> None:
        """More attributes for a cell made already (`graph.nodes[n].update(attrs)`)."""
        self._calls.append(("update_node", n, dict(attrs)))
        self.nodes[n].update(attrs)

    def add_edge(self, u: int, v: int, **attrs) -> None:
        """As networkx.Graph.add_edge: one edge between two cells, its attributes updated when it
        exists (one dict for both ends)."""
        self._calls.append(("add_edge", (u, v), attrs))
        self._node(u)
        self._node(v)
        data = self.adj[u].get(v, {})
        data.update(attrs)
        self.adj[u][v] = self.adj[v][u] = data

    def _node(self, n: int) -> dict:
        if n not in self.nodes:
            self.nodes[n] = {}
            self.adj[n] = {}
        return self.nodes[n]

    def edges(self):
        """(u, v, attributes) of each edge once, in networkx.Graph.edges(data=True)'s order."""
        seen = set()
        for n, nbrs in self.adj.items():
            for nb, data in nbrs.items():
                if nb not in seen:
                    yield n, nb, data
            seen.add(n)

    def networkx(self):
        """The board as a networkx.Graph (made once)."""
        if self._nx is None:
            import networkx as nx
            g = nx.Graph()
            for call, arg, attrs in self._calls:
                if call == "add_node":
                    g.add_node(arg, **attrs)
                elif call == "add_edge":
                    g.add_edge(*arg, **attrs)
                else:
                    g.nodes[arg].update(attrs)
            self._nx = g
        return self._nx

"""Boards built from content: the `ring` builder, and explicit cells that add to generated ones."""
from __future__ import annotations

import pytest

from interpreter.errors import ContentError

RING = """
game: {name: ring, players: {min: 1, max: 2}}
constants: {size: 8}
board:
  ring: {length: "size", name: "s{index}", columns: 4, tags: [track], attrs: {kind: plain}}
  cells:
    - {name: s0, tags: [gate], attrs: {kind: gate, colour: 1}}
    - {name: home1, tags: [home], attrs: {row: 1, column: 6}}
  edges:
    - {from: s0, to: home1, kind: branch}
flow: {turn: {steps: [{name: play}]}}
actions:
  pass: {effect: finish game}
"""


def test_a_ring_is_a_closed_track_of_indexed_cells(make_game):
    g = make_game(RING)
    m = g.m
    track = m.tagged_cells("track")
    assert [z.key for z in track] == [f"s{i}" for i in range(8)]
    assert [z.attrs["index"] for z in track] == list(range(8))
    st = g.new_game(seed=1)
    assert g.evaluate(st, 'neighbors(zone_named("s0"), "next")') == [track[1], track[7]]  # each joined to the next, the last to the first
    assert g.evaluate(st, 'neighbors(zone_named("s3"), "next")') == [track[2], track[4]]
    assert g.evaluate(st, 'distance(zone_named("s0"), zone_named("s4"))') == 4


def test_a_ring_with_columns_is_drawn_and_found_as_rows(make_game):
    g = make_game(RING)
    st = g.new_game(seed=1)
    assert g.evaluate(st, "cell(2, 1).key") == "s4"  # 4 cells per row: s4 starts row 2
    assert g.evaluate(st, 'zone_named("s7").row') == 2 and g.evaluate(st, 'zone_named("s7").column') == 4
    assert g.evaluate(st, "cell(1, 6).key") == "home1"  # an explicit cell with row and column is found too
    from interpreter.play.render import Renderer
    board = Renderer(g).screen(st, None).split("\n\n")[1].splitlines()
    assert board[0].split() == ["│", "1", "2", "3", "4", "5", "6"]  # no number skipped (issue 15: DOG column 17)


def test_explicit_cells_add_attrs_and_tags_to_ring_cells(make_game):
    g = make_game(RING)
    st = g.new_game(seed=1)
    assert g.evaluate(st, 'zone_named("s0") is gate and zone_named("s0") is track')
    assert g.evaluate(st, 'zone_named("s0").kind') == "gate"  # the explicit entry wins
    assert g.evaluate(st, 'zone_named("s1").kind') == "plain"
    assert g.evaluate(st, 'zone_named("s0").colour') == 1
    assert len(g.m.cells) == 9  # s0 is not made twice
    assert g.evaluate(st, 'neighbors(zone_named("s0"), "branch")[0].key') == "home1"


@pytest.mark.parametrize("ring,message", [
    ('{length: 1}', "not valid"),  # the schema
    ('{length: "size - 7"}', "at least 2 cells"),  # the builder, from a constant expression
    ('{length: 3, name: "same"}', "defined twice"),
])
def test_a_wrong_ring_is_reported(make_game, ring, message):
    text = RING.replace('{length: "size", name: "s{index}", columns: 4, tags: [track], attrs: {kind: plain}}', ring)
    text = text.split("  cells:")[0] + "flow: {turn: {steps: [{name: play}]}}\nactions:\n  pass: {effect: finish game}\n"
    with pytest.raises(ContentError, match=message):
        make_game(text)


def test_the_schema_refuses_an_unknown_ring_key(make_game):
    with pytest.raises(ContentError, match="ring"):
        make_game(RING.replace("columns: 4", "colums: 4"))


@pytest.mark.parametrize("join,expected", [
    ("", ["r1c1", "r2c2"]),                   # every neighbour, whatever its kind
    ("join_same: kind", ["r1c1"]),            # only neighbours of the same kind
])
def test_grid_edges_join_cells_of_different_kinds_unless_join_same(make_game, join, expected):
    g = make_game(f"""
game: {{name: kinds, players: {{min: 1, max: 2}}}}
board:
  grid:
    columns: 2
    {join}
    rows:
      - {{row: 1, attrs: {{kind: top}}}}
      - {{row: 2, attrs: {{kind: bottom}}}}
flow: {{turn: {{steps: [{{name: play}}]}}}}
actions:
  pass: {{effect: finish game}}
""")
    st = g.new_game(seed=1)
    assert [z.key for z in g.evaluate(st, "neighbors(cell(1, 2))")] == expected


def _neighbours_by_networkx(G) -> dict:
    """The neighbour lists that world.py used to compute from a networkx.Graph."""
    out: dict = {}
    for zid in G.nodes:
        for nb in sorted(G.neighbors(zid)):
            out.setdefault((zid, None), []).append(nb)
            out.setdefault((zid, G.edges[zid, nb].get("kind", "edge")), []).append(nb)
    return out


@pytest.mark.parametrize("extra", ["", "    - {from: s1, to: s2, kind: bridge}\n    - {from: home1, to: s1}\n"])
def test_the_board_as_a_networkx_graph_gives_the_neighbours_the_game_uses(make_game, extra):
    """The board is held as networkx.Graph holds it (definition/graph.py) and made a networkx.Graph
    on first use: nodes, edges, their attributes and orders, and the neighbours per kind, are
    those networkx gives (an edge added again, here `bridge` over a ring edge, updates it)."""
    import networkx as nx
    g = make_game(RING + extra if not extra else RING.replace("kind: branch}\n", "kind: branch}\n" + extra))
    m = g.m
    G = m.graph
    assert type(G) is nx.Graph and G is m.graph
    assert list(G.nodes(data=True)) == list(m.board_graph.nodes.items())
    assert list(G.edges(data=True)) == list(m.board_graph.edges())
    assert {k: [z.id for z in v] for k, v in m.neighbors.items()} == _neighbours_by_networkx(G)
    if extra:
        s1, s2 = m.zone_by_name["s1"], m.zone_by_name["s2"]
        assert G.edges[s1.id, s2.id] == {"kind": "bridge", "tail": s1.id}
        assert m.neighbors.get((s1.id, "next"), []) == [m.zone_by_name["s0"]]


def test_loading_and_playing_a_game_does_not_import_networkx():
    """Only `path` and `distance` without a kind of edge need the networkx.Graph: loading a game
    (and `interpret validate`) does not pay for importing networkx."""
    import subprocess
    import sys
    code = ("import sys\nfrom interpreter.engine.game import Game\ng = Game.load('dark-agent')\n"
            "st = g.new_game(1)\nprint('networkx' in sys.modules)\n"
            "print(g.evaluate(st, 'distance(cell(1, 1), cell(3, 2))'), 'networkx' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "3", "True"], out

// The board as SVG, drawn from the layout (static: the grid, the zones, the seats) and the
// picture (what this seat sees now). Every place and card that a legal move names can be clicked:
// `onPick(moves, event)` gets the moves it selects. Nothing here knows a game.
import {S, el, fill, svg} from "./common.js";

const GAP = 4;
const CARD_W = 92;
const CARD_H = 58;
const NEUTRAL = "#7d8590";

export function seatColour(layout, seat) {
  const s = (layout.seats || []).find(x => x.seat === seat);
  return s ? s.colour : NEUTRAL;
}

function faceOf(layout, picture, entry) {
  if (!entry || !entry.face) return null;
  return (picture.faces || {})[entry.face] || (layout.faces || {})[entry.face] || {title: "?"};
}

function backTitle(layout, entry) {
  return (layout.backs || {})[entry.back] || entry.back || "?";
}

// the moves a click on a place (a cell or zone id) or on cards selects
export function movesAt(moves, {place = null, cards = []} = {}) {
  const ids = new Set(cards);
  return (moves || []).filter(m => (place !== null && (m.places || []).includes(place)) ||
                                   (m.cards || []).some(c => ids.has(c)));
}

// text cut to fit about `chars` characters (the whole text stays in the tooltip)
function fit(text, chars) {
  text = String(text || "");
  return text.length <= chars ? text : text.slice(0, Math.max(chars - 1, 1)) + "…";
}

function cardTip(layout, picture, entry) {
  const face = faceOf(layout, picture, entry);
  if (!face) return backTitle(layout, entry);
  return face.text ? `${face.title}: ${face.text}` : face.title;
}

function clickable(g, selected, onPick, label) {
  if (!selected.length) return;
  g.classList.add("playable");
  g.setAttribute("role", "button");
  g.setAttribute("tabindex", "0");
  g.setAttribute("aria-label", label);
  g.addEventListener("click", ev => { ev.stopPropagation(); onPick(selected, ev); });
  g.addEventListener("keydown", ev => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onPick(selected, ev); }
  });
}

// ---- the grid -----------------------------------------------------------------------------

// where each cell is drawn: by row and column (a table), or, for a grid declared as a closed track
// (`render.grid.loop: N`), the first N columns of the rows one after the other around a circle,
// clockwise from the top, and a row's further columns as a lane going inward from its first square
function positions(grid, cw, ch) {
  const rows = grid.rows, cols = grid.columns;
  const pos = new Map();
  if (!grid.loop) {
    const left = 26, top = 20;
    for (const cell of grid.cells) {
      pos.set(cell.id, {x: left + cols.indexOf(cell.column) * (cw + GAP), y: top + rows.indexOf(cell.row) * (ch + GAP)});
    }
    return {pos, width: left + cols.length * (cw + GAP), height: top + rows.length * (ch + GAP), labels: []};
  }
  const first = Math.min(...cols);
  const ring = [], lanes = new Map(), starts = new Map();
  for (const r of rows) {
    const row = grid.cells.filter(c => c.row === r).sort((p, q) => p.column - q.column);
    row.filter(c => c.column < first + grid.loop).forEach((c, i) => { if (i === 0) starts.set(r, ring.length); ring.push(c); });
    lanes.set(r, row.filter(c => c.column >= first + grid.loop));
  }
  const step = cw + GAP;
  const radius = Math.max(ring.length * step / (2 * Math.PI), 3 * step);
  const centre = radius + cw / 2 + 24;
  const at = (angle, dist) => ({x: centre + dist * Math.sin(angle) - cw / 2, y: centre - dist * Math.cos(angle) - ch / 2});
  const angleOf = i => 2 * Math.PI * i / ring.length;
  ring.forEach((c, i) => pos.set(c.id, at(angleOf(i), radius)));
  const labels = [];
  for (const r of rows) {
    if (!starts.has(r)) continue;
    const angle = angleOf(starts.get(r));
    lanes.get(r).forEach((c, k) => pos.set(c.id, at(angle, radius - (k + 1) * step)));
    const p = at(angle, radius + step * 0.75);
    labels.push({x: p.x + cw / 2, y: p.y + ch / 2 + 4, text: String(r)});
  }
  return {pos, width: 2 * centre, height: 2 * centre, labels};
}

export function drawGrid(layout, picture, moves, last, onPick, pointed = []) {
  const grid = layout.grid;
  if (!grid || !grid.cells || !grid.cells.length) return null;
  const chars = Math.max(grid.width || 4, 1);
  const cw = grid.loop ? Math.max(chars * 8 + 16, 32) : Math.min(Math.max(chars * 8 + 14, 56), 180);
  const ch = grid.loop ? cw : 52;
  const big = chars <= 3;  // a mark or a letter: drawn large
  const {pos, width, height, labels} = positions(grid, cw, ch);
  const root = svg("svg", {id: "board", class: grid.loop ? "board loop" : "board", viewBox: `0 0 ${width} ${height}`,
                           width, height, role: "group", "aria-label": S.board || "board"});
  if (!grid.loop) {
    const left = 26, top = 20;
    grid.columns.forEach((c, i) => root.append(svg("text", {class: "axis", x: left + i * (cw + GAP) + cw / 2, y: 14,
                                                           "text-anchor": "middle"}, String(c))));
    grid.rows.forEach((r, i) => root.append(svg("text", {class: "axis", x: 10, y: top + i * (ch + GAP) + ch / 2 + 4,
                                                        "text-anchor": "middle"}, String(r))));
  }
  for (const l of labels) root.append(svg("text", {class: "axis", x: l.x, y: l.y, "text-anchor": "middle"}, l.text));
  const marked = new Set((last && last.marks) || []);
  const shown = new Set(pointed);  // the places a lesson points at
  for (const cell of grid.cells) {
    const {x, y} = pos.get(cell.id);
    const seen = (picture.cells || {})[cell.id] || {text: "", cards: []};
    const cards = (seen.cards || []).filter(e => e.id).map(e => e.id);
    const selected = movesAt(moves, {place: cell.id, cards});
    const owner = seen.owner;
    const g = svg("g", {class: "cell", "data-place": cell.id, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`});
    g.append(svg("rect", {width: cw, height: ch, rx: 5, class: "cell-bg",
                          style: owner ? `fill: ${seatColour(layout, owner)}; fill-opacity: 0.22` : null}));
    if (owner) g.append(svg("rect", {width: 5, height: ch, rx: 2, fill: seatColour(layout, owner)}));
    const text = (seen.text || "") + (seen.marks || "");
    g.append(svg("text", {x: cw / 2, y: ch / 2 + (big ? 8 : 5), "text-anchor": "middle",
                          class: big ? "cell-text big" : "cell-text"},
                 fit(text, Math.floor((cw - 6) / 7))));
    const tips = [cell.name].concat((seen.cards || []).map(e => cardTip(layout, picture, e)));
    g.append(svg("title", {}, tips.join("\n")));
    if (marked.has(cell.id)) g.classList.add("last");
    if (shown.has(cell.id)) g.classList.add("pointed");
    clickable(g, selected, onPick, fill(S.pick_place || "{place}", {place: cell.name}));
    root.append(g);
  }
  return root;
}

// ---- the other zones: rows of cards --------------------------------------------------------

function drawCard(layout, picture, entry, moves, onPick, marked) {
  const g = svg("g", {class: "card"});
  const face = faceOf(layout, picture, entry);
  if (face) {
    const colour = entry.owner ? seatColour(layout, entry.owner) : (face.colour || NEUTRAL);
    g.setAttribute("data-card", entry.id);
    g.append(svg("rect", {width: CARD_W, height: CARD_H, rx: 6, class: "face"}));
    g.append(svg("rect", {width: CARD_W, height: 10, rx: 3, fill: colour}));
    const title = String(face.title || "");
    const lines = title.length > 13 ? [title.slice(0, 13), fit(title.slice(13), 13)] : [title];
    lines.forEach((t, i) => g.append(svg("text", {x: CARD_W / 2, y: 28 + i * 14, "text-anchor": "middle",
                                                   class: "card-title"}, t)));
    if (marked.has(entry.id)) g.classList.add("last");
    clickable(g, movesAt(moves, {cards: [entry.id]}), onPick, title);
  } else {
    g.classList.add("back");
    g.append(svg("rect", {width: CARD_W, height: CARD_H, rx: 6, class: "back-bg"}));
    g.append(svg("text", {x: CARD_W / 2, y: CARD_H / 2 + 4, "text-anchor": "middle", class: "back-title"},
                 fit(backTitle(layout, entry), 13)));
  }
  g.append(svg("title", {}, cardTip(layout, picture, entry)));
  return g;
}

// at most this many cards drawn in a row; a pile shows its top card and how many it holds
const ROW_MAX = 12;

export function drawZone(layout, picture, zone, moves, last, onPick, pointed = []) {
  const seen = (picture.zones || {})[zone.id] || {count: 0, cards: []};
  const count = seen.count || 0;
  let entries = seen.cards || [];
  const pile = zone.kind === "pile";
  if (pile) entries = entries.slice(0, 1);
  const hiddenRun = entries.length > ROW_MAX;
  if (hiddenRun) entries = entries.slice(0, ROW_MAX);
  const more = count - entries.length;
  const marked = new Set((last && last.marks) || []);
  const box = el("section", {class: "zone", "data-place": zone.id},
                 el("h3", {}, zone.title, " ", el("span", {class: "count"}, fill(S.cards_count || "({n})", {n: count}))));
  const width = Math.max(entries.length * (CARD_W + GAP) + (more > 0 ? 48 : 0), 60);
  const row = svg("svg", {class: "zone-row", width, height: CARD_H + 2, viewBox: `0 0 ${width} ${CARD_H + 2}`});
  entries.forEach((entry, i) => {
    const g = drawCard(layout, picture, entry, moves, onPick, marked);
    g.setAttribute("transform", `translate(${i * (CARD_W + GAP)},1)`);
    row.append(g);
  });
  if (more > 0) row.append(svg("text", {x: entries.length * (CARD_W + GAP) + 4, y: CARD_H / 2 + 5, class: "more"},
                                `+${more}`));
  if (!count) box.append(el("p", {class: "empty"}, S.empty || "—"));
  else box.append(row);
  const selected = movesAt(moves, {place: zone.id});
  if (selected.length) {
    box.classList.add("playable");
    const b = el("button", {class: "zone-pick", type: "button"}, fill(S.pick_place || "{place}", {place: zone.title}));
    b.addEventListener("click", ev => onPick(selected, ev));
    box.querySelector("h3").append(" ", b);
  }
  if (marked.has(zone.id)) box.classList.add("last");
  if (pointed.includes(zone.id)) box.classList.add("pointed");
  return box;
}

// the zones: the shared ones, then each seat's in a box of its colour
export function drawZones(layout, picture, moves, last, onPick, pointed = []) {
  const out = el("div", {id: "zones"});
  const shared = (layout.zones || []).filter(z => z.owner === null || z.owner === undefined);
  if (shared.length) {
    out.append(el("div", {class: "zones shared"}, shared.map(z => drawZone(layout, picture, z, moves, last, onPick, pointed))));
  }
  for (const seat of layout.seats || []) {
    const mine = (layout.zones || []).filter(z => z.owner === seat.seat);
    if (!mine.length) continue;
    const held = mine.filter(z => (((picture.zones || {})[z.id] || {}).count || 0) > 0 ||
                                movesAt(moves, {place: z.id}).length || pointed.includes(z.id));
    const box = el("div", {class: "zones seat", "data-seat": seat.seat, style: `border-color: ${seat.colour}`},
                   el("h2", {style: `color: ${seat.colour}`}, seat.name));
    if (!held.length) box.append(el("p", {class: "empty"}, S.empty || "—"));
    held.forEach(z => box.append(drawZone(layout, picture, z, moves, last, onPick, pointed)));
    out.append(box);
  }
  return out;
}

// ---- dice ---------------------------------------------------------------------------------

// where the pips of a face 1..6 lie, on a 3×3 lattice (0, 1, 2 on each axis)
const PIPS = {1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
              5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]]};

// a die showing `value`: its pips for 1 to 6, else the number on its face
export function dieFace(value, size = 22) {
  const face = svg("svg", {class: "die", width: size, height: size, viewBox: "0 0 24 24", role: "img",
                           "aria-label": String(value), "data-value": value},
                   svg("rect", {x: 1, y: 1, width: 22, height: 22, rx: 4, class: "die-bg"}));
  const pips = PIPS[value];
  if (pips) pips.forEach(([x, y]) => face.append(svg("circle", {cx: 6 + x * 6, cy: 6 + y * 6, r: 2.2, class: "pip"})));
  else face.append(svg("text", {x: 12, y: 16.5, "text-anchor": "middle", class: "die-number"}, String(value)));
  return face;
}

export function diceFaces(values, label) {
  return el("span", {class: "dice", role: "group", "aria-label": label}, values.map(v => dieFace(v)));
}

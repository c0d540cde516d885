// The table page: one WebSocket to the server (PROTOCOL: join, then hello / update / refused /
// error / end), the board drawn from the layout and the picture, the moves to click on the board
// or pick from the list, the history, undo, `why`, the end screen. The seat's token comes from
// the join link and is never written into the page.
import {S, el, fill, languageSwitch, pageLanguage, setStrings} from "./common.js";
import {diceFaces, drawGrid, drawZones, seatColour} from "./board.js";

const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const seat = params.has("seat") ? Number(params.get("seat")) : null;
const token = params.get("token");
const lang = pageLanguage();  // the language this seat is told in (join.lang)

// every frame the server sent, as received (the browser tests read them: nothing hidden in them)
window.interpretFrames = [];

const T = {
  layout: null, picture: null, moves: [], history: [], counter: 0, last: null, timer: null,
  end: null, refused: null, notice: null, connected: false, waiting: false, fatal: false,
  tutorial: null, lesson: null, endTitle: null,  // a guided game: its intro, the lesson now
};
const $ = id => document.getElementById(id);

// ---- the connection -----------------------------------------------------------------------

let ws = null;
let retries = 0;

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  ws.addEventListener("open", () => {
    retries = 0;
    send({type: "join", seat, token, lang});
  });
  ws.addEventListener("message", ev => {
    window.interpretFrames.push(ev.data);
    let message;
    try { message = JSON.parse(ev.data); } catch (e) { return; }
    receive(message);
  });
  ws.addEventListener("close", () => {
    T.connected = false;
    drawConnection();
    if (T.fatal) return;
    const wait = Math.min(300 * 2 ** retries, 4000);  // the server may be restarting: connect again
    retries += 1;
    setTimeout(connect, wait);
  });
}

// refusals that no reconnection can mend
const FATAL = new Set(["unknown-table", "bad-token"]);

function receive(m) {
  if (m.type === "hello") {
    T.connected = true;
    T.layout = m.layout;
    setStrings(m.layout.strings);
    T.picture = m.picture;
    T.history = m.history || [];
    T.moves = m.moves || [];
    T.counter = m.counter;
    T.timer = m.timer || null;
    T.last = m.last || null;
    T.tutorial = m.tutorial || null;
    T.lesson = m.lesson || null;
    T.refused = null;
    T.notice = null;
    T.waiting = false;
    if (!m.end) T.end = null;
    drawAll();
  } else if (m.type === "update") {
    T.counter = m.counter;
    T.picture = m.picture;
    T.history = T.history.concat(m.events || []);
    T.moves = m.moves || [];
    T.last = m.last || null;
    T.timer = m.timer || null;
    if ("lesson" in m) T.lesson = m.lesson;
    T.refused = null;
    T.notice = null;
    T.waiting = false;
    drawAll();
  } else if (m.type === "refused") {
    T.refused = m;
    T.waiting = false;
    drawRefused();
    drawMoves();
  } else if (m.type === "error") {
    T.notice = m.message || m.code;
    T.waiting = false;
    if (FATAL.has(m.code)) T.fatal = true;
    drawConnection();
    drawMoves();
  } else if (m.type === "end") {
    T.counter = m.counter;
    T.end = m.lines || [];
    T.endTitle = m.tutorial ? (S.tutorial_done || "") : (S.game_over || "");
    T.moves = [];
    drawAll();
  }
}

// ---- acting -------------------------------------------------------------------------------

function play(key) {
  if (T.waiting) return;
  T.waiting = true;
  closeMenu();
  send({type: "move", counter: T.counter, key});
  drawMoves();
}

function typed(text, why) {
  text = text.trim();
  if (!text) return;
  if (why) {
    send({type: "why", text});
  } else {
    const move = T.moves.find(m => m.key === text);
    if (move) play(move.key);
    else { T.waiting = true; send({type: "move", counter: T.counter, text}); }
  }
}

function undo() {
  send({type: "undo", counter: T.counter});
}

// a click on the board: one move is played, several open a small menu of them
function pick(moves, ev) {
  if (!moves.length || T.waiting) return;
  if (moves.length === 1) { play(moves[0].key); return; }
  closeMenu();
  const menu = el("div", {id: "pick-menu", role: "menu", "aria-label": S.choose_move || ""},
    moves.map(m => el("button", {type: "button", role: "menuitem", "data-key": m.key, onclick: () => play(m.key)},
                      el("span", {class: "key"}, m.key), " ", m.label)),
    el("button", {type: "button", class: "cancel", onclick: closeMenu}, S.cancel || "×"));
  const x = ev && ev.clientX !== undefined ? ev.clientX : 40;
  const y = ev && ev.clientY !== undefined ? ev.clientY : 40;
  menu.style.left = `${Math.min(x + window.scrollX, window.scrollX + window.innerWidth - 280)}px`;
  menu.style.top = `${y + window.scrollY + 6}px`;
  document.body.append(menu);
  menu.querySelector("button").focus();
}

function closeMenu() {
  const m = $("pick-menu");
  if (m) m.remove();
}

document.addEventListener("keydown", ev => { if (ev.key === "Escape") closeMenu(); });
document.addEventListener("click", ev => {
  const m = $("pick-menu");
  if (m && !m.contains(ev.target)) closeMenu();
});

// ---- drawing ------------------------------------------------------------------------------

function seatName(n) {
  const s = ((T.layout && T.layout.seats) || []).find(x => x.seat === n);
  return s ? s.name : "";
}

function drawConnection() {
  const box = $("connection");
  box.textContent = "";
  if (!T.connected) box.append(el("span", {class: "offline"}, T.fatal ? "" : (S.reconnecting || "…")));
  if (T.notice) box.append(el("span", {class: "notice", role: "status"}, T.notice));
}

function drawHeader() {
  const p = T.picture;
  document.title = T.layout.title;
  $("title").textContent = T.layout.title;
  $("subtitle").textContent = p.title || "";
  // this seat's own language: the page comes again, told in the other one
  $("lang-box").replaceChildren(languageSwitch(lang, v => { params.set("lang", v); location.search = params.toString(); }));
  const who = $("who");
  who.textContent = "";
  if (seat !== null) {
    who.append(el("span", {class: "swatch", style: `background: ${seatColour(T.layout, seat)}`}),
               fill(S.you_are || "{name}", {name: seatName(seat)}));
  } else {
    who.append(S.spectator || "");
  }
}

function drawStatus() {
  const p = T.picture;
  const box = $("status");
  box.textContent = "";
  for (const line of p.status || []) box.append(el("p", {}, line));
  for (const line of p.private || []) box.append(el("p", {class: "private"}, line));
  if (p.prompt) box.append(el("p", {class: "prompt"}, p.prompt));
  if (T.last && T.last.label) {
    const name = T.last.seat !== null && T.last.seat !== undefined ? seatName(T.last.seat) : "";
    box.append(el("p", {id: "last", class: "last-move"},
                  name ? fill(S.last_move_by || "{name}: {move}", {name, move: T.last.label})
                       : fill(S.last_move || "{move}", {move: T.last.label})));
    if ((T.last.dice || []).length) {  // the dice the last move rolled, beside it
      $("last").append(" ", diceFaces(T.last.dice, fill(S.dice || "{dice}", {dice: T.last.dice.join(", ")})));
    }
  }
  drawTimer();
}

function drawPlayers() {
  const p = T.picture;
  const body = el("tbody", {});
  for (const row of p.players || []) {
    body.append(el("tr", {class: row.current ? "current" : null, "data-seat": row.seat},
      el("td", {}, row.current ? "▶" : ""),
      el("td", {}, el("span", {class: "swatch", style: `background: ${seatColour(T.layout, row.seat)}`}),
         row.seat === seat ? fill(S.seat_you || "{name}", {name: row.name}) : row.name),
      el("td", {class: "score"}, row.score === null || row.score === undefined ? "" : String(row.score)),
      el("td", {}, [row.line, row.marks].filter(Boolean).join("  "))));
  }
  const table = el("table", {id: "players-table"},
    el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, S.player || ""), el("th", {}, S.score || ""),
                       el("th", {}, ""))), body);
  $("players").replaceChildren(table);
}

function drawBoard() {
  const pointed = (T.lesson && T.lesson.places) || [];  // what the lesson is about
  const grid = drawGrid(T.layout, T.picture, T.end ? [] : T.moves, T.last, pick, pointed);
  $("board-area").replaceChildren(...[grid].filter(Boolean));
  $("zones-area").replaceChildren(drawZones(T.layout, T.picture, T.end ? [] : T.moves, T.last, pick, pointed));
}

// a guided game: its title and intro, then the lesson of the moment
function drawLesson() {
  const box = $("lesson");
  box.textContent = "";
  if (!T.tutorial) { box.hidden = true; return; }
  box.hidden = false;
  const intro = el("details", {id: "lesson-intro", open: T.introOpen !== false},
                   el("summary", {}, T.tutorial.title), T.tutorial.intro ? el("p", {}, T.tutorial.intro) : null,
                   T.tutorial.section ? el("p", {class: "section"}, T.tutorial.section) : null);
  intro.addEventListener("toggle", () => { T.introOpen = intro.open; });  // open until the learner closes it
  box.append(intro);
  if (T.lesson && T.lesson.text) box.append(el("p", {id: "lesson-text", class: "lesson-text"}, T.lesson.text));
  if (T.lesson && (T.lesson.places || []).length) box.append(el("p", {class: "lesson-look"}, S.look_here || ""));
}

function drawMoves() {
  const box = $("moves");
  box.textContent = "";
  if (!T.layout) return;
  const mine = seat !== null && T.moves.length > 0;
  box.append(el("h2", {}, S.moves || ""));
  if (!mine) {
    const p = T.picture || {};
    box.append(el("p", {class: "waiting"}, T.end ? (S.game_over || "") : (p.waiting || S.not_your_turn || "")));
  } else {
    const list = el("ul", {id: "move-list"});
    let group = null;
    for (const m of T.moves) {
      if (m.group !== group && group !== null) list.append(el("li", {class: "sep", role: "separator"}));
      group = m.group;
      list.append(el("li", {}, el("button", {type: "button", "data-key": m.key, disabled: T.waiting,
                                             onclick: () => play(m.key)},
                                  el("span", {class: "key"}, m.key), " ", m.label)));
    }
    box.append(list);
  }
  if (seat !== null && !T.end) {
    const input = el("input", {id: "command", type: "text", autocomplete: "off",
                               "aria-label": S.type_move || "", placeholder: S.type_move || ""});
    const form = el("form", {id: "command-form"}, input,
      el("button", {type: "submit", id: "play-typed"}, S.play || "▶"),
      el("button", {type: "button", id: "why", onclick: () => typed(input.value, true)}, S.why || "?"));
    form.addEventListener("submit", ev => { ev.preventDefault(); typed(input.value, false); });
    box.append(form, el("p", {}, el("button", {type: "button", id: "undo", onclick: undo}, S.undo || "↶")));
  }
}

function drawRefused() {
  const box = $("refused");
  box.textContent = "";
  if (!T.refused) { box.hidden = true; return; }
  box.hidden = false;
  box.append(el("p", {class: "refusal"}, T.refused.text || ""));
  if ((T.refused.reasons || []).length) box.append(el("ul", {}, T.refused.reasons.map(r => el("li", {}, r))));
  box.append(el("button", {type: "button", onclick: () => { T.refused = null; drawRefused(); }}, S.close || "×"));
}

function drawHistory() {
  const list = el("ul", {id: "history-list"});  // the narration numbers its decisions itself
  for (const entry of T.history) {
    const li = el("li", {"data-n": entry.n, class: entry.lesson ? "lesson" : null}, entry.text);
    if (entry.dice && entry.dice.length) {
      li.append(" ", diceFaces(entry.dice, fill(S.dice || "{dice}", {dice: entry.dice.join(", ")})));
    }
    list.append(li);
  }
  const box = $("history");
  box.replaceChildren(el("h2", {}, S.history || ""), list);
  list.scrollTop = list.scrollHeight;
}

function drawLegend() {
  const lines = (T.layout.legend || []);
  const box = $("legend");
  box.replaceChildren(el("summary", {}, S.legend || ""), ...lines.map(l => el("p", {}, l)),
                      ...(T.layout.rules || []).length ? [el("h3", {}, S.rules || ""), ...T.layout.rules.map(l => el("p", {}, l))] : []);
}

function drawEnd() {
  const box = $("end");
  box.textContent = "";
  if (!T.end) { box.hidden = true; return; }
  box.hidden = false;
  box.append(el("h2", {}, T.endTitle || S.game_over || ""), ...T.end.map(line => el("p", {}, line)),
             el("button", {type: "button", id: "end-close", onclick: () => { box.hidden = true; }}, S.close || "×"));
}

let ticking = null;

function drawTimer() {
  const box = $("timer");
  if (ticking) { clearInterval(ticking); ticking = null; }
  if (!T.timer || T.end) { box.textContent = ""; return; }
  const received = Date.now();
  const d = T.timer.deadline_ms;
  const deadline = d > 1e12 ? d : received + d;  // an epoch time, or milliseconds left
  const tick = () => {
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    box.textContent = fill(S.time_left || "{name}: {seconds}", {name: seatName(T.timer.seat), seconds: left});
  };
  tick();
  ticking = setInterval(tick, 1000);
}

function drawAll() {
  if (!T.layout || !T.picture) return;
  drawConnection();
  drawHeader();
  drawStatus();
  drawLesson();
  drawPlayers();
  drawBoard();
  drawMoves();
  drawRefused();
  drawHistory();
  drawLegend();
  drawEnd();
}

connect();

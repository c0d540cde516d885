// The lobby: pick a game, its variants and options, who sits where (a person or a bot and its
// level), a turn timer; create the table, then copy one join link per seat and the spectator's.
// The host's token comes from the lobby's link (?host=) and is sent in a header, never shown.
import {S, el, fill, languageSwitch, loadStrings, pageLanguage} from "./common.js";

const host = new URLSearchParams(location.search).get("host");
let lang = pageLanguage();
let games = [];
const $ = id => document.getElementById(id);

function api(path, options = {}) {
  const headers = Object.assign({"Content-Type": "application/json"}, options.headers || {});
  if (host) headers["X-Host-Token"] = host;
  return fetch(path, Object.assign({}, options, {headers}));
}

function absolute(link) {
  return link.startsWith("/") ? location.origin + link : link;
}

function say(text) {
  $("connection").textContent = text || "";
}

async function start() {
  await loadStrings(lang);
  document.title = S.lobby || "interpret";
  $("lobby-title").textContent = S.lobby || "interpret";
  $("lang-box").replaceChildren(languageSwitch(lang, v => { lang = v; start(); }));
  const r = await api(`/api/games?lang=${lang}`);
  if (!r.ok) { say(S.lobby_refused || String(r.status)); return; }
  games = await r.json();
  drawForm();
  drawLearn();
  drawTables();
}

// ---- guided games: each game's tutorials, played in the table page -------------------------

function drawLearn() {
  const items = [];
  for (const g of games) {
    for (const t of g.tutorials || []) {
      const title = (t.title && (t.title[lang] || t.title.en)) || t.name;
      items.push(el("li", {}, fill(S.learn_game || "{game}: {title}", {game: g.title, title}), " ",
        el("button", {type: "button", "data-game": g.name, "data-tutorial": t.name,
                      onclick: () => learn(g.name, t.name)}, S.start_lesson || "▶")));
    }
  }
  $("learn").replaceChildren(...items.length ? [el("h2", {}, S.learn || ""), el("ul", {}, items)] : []);
}

async function learn(game, tutorial) {
  const r = await api("/api/lessons", {method: "POST", body: JSON.stringify({game, tutorial, lang})});
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) { say(answer.error || String(r.status)); return; }
  location.assign(absolute(answer.link));  // the learner's seat: this page becomes the guided game
}

// ---- the form -----------------------------------------------------------------------------

const SEAT_KINDS = () => [["human", S.human || "human"], ["bot:easy", S.bot_easy || "bot: easy"],
                          ["bot:normal", S.bot_normal || "bot: normal"], ["bot:hard", S.bot_hard || "bot: hard"]];

function drawForm() {
  const form = $("create");
  const gameSel = el("select", {id: "game", name: "game"},
                     games.map(g => el("option", {value: g.name}, g.title)));
  const body = el("div", {id: "game-settings"});
  gameSel.addEventListener("change", () => drawSettings(body, gameSel.value));
  form.replaceChildren(
    el("h2", {}, S.new_table || ""),
    el("label", {}, (S.game || "") + " ", gameSel),
    body,
    el("p", {}, el("button", {type: "submit", id: "create-table"}, S.create || "")));
  form.onsubmit = ev => { ev.preventDefault(); create(); };
  drawSettings(body, gameSel.value);
}

function drawSettings(body, name) {
  const g = games.find(x => x.name === name);
  if (!g) return;
  const [low, high] = g.players;
  const players = el("input", {id: "players", type: "number", min: low, max: high, value: low});
  const seats = el("fieldset", {id: "seats"});
  const drawSeats = () => {
    const n = Math.min(Math.max(Number(players.value) || low, low), high);
    const before = [...seats.querySelectorAll("select")].map(s => s.value);
    seats.replaceChildren(el("legend", {}, S.seats || ""));
    for (let i = 1; i <= n; i++) {
      const kinds = (g.bots && g.bots.length) ? SEAT_KINDS().filter(([k]) => k === "human" || g.bots.includes(k.slice(4)))
                                               : SEAT_KINDS().slice(0, 1);
      const sel = el("select", {name: `seat-${i}`, "data-seat": i},
                     kinds.map(([k, t]) => el("option", {value: k}, t)));
      sel.value = before[i - 1] || (i === 1 ? "human" : (kinds.length > 1 ? "bot:normal" : "human"));
      seats.append(el("label", {}, fill(S.seat_n || "{n}", {n: i}) + " ", sel));
    }
  };
  players.addEventListener("change", drawSeats);
  const variants = (g.variants || []).length ? el("fieldset", {id: "variants"}, el("legend", {}, S.variants || ""),
    g.variants.map(v => el("label", {}, el("input", {type: "checkbox", name: "variant", value: v.name}), " ", v.title))) : null;
  const options = (g.options || []).length ? el("fieldset", {id: "options"}, el("legend", {}, S.options || ""),
    g.options.map(o => el("label", {}, o.title + " ", optionInput(o)))) : null;
  const timer = el("input", {id: "timer", type: "number", min: 5, placeholder: S.no_timer || ""});
  body.replaceChildren(
    el("label", {}, (S.players || "") + " ", players), variants, options, seats,
    el("label", {}, (S.timer_seconds || "") + " ", timer));
  drawSeats();
}

function optionInput(o) {
  if (o.choices) {
    const sel = el("select", {name: `option-${o.name}`, "data-option": o.name},
                   o.choices.map(c => el("option", {value: JSON.stringify(c)}, String(c))));
    sel.value = JSON.stringify(o.default);
    return sel;
  }
  return el("input", {type: "number", name: `option-${o.name}`, "data-option": o.name, min: o.min, max: o.max,
                      value: o.default});
}

async function create() {
  const game = $("game").value;
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.tagName === "SELECT" ? JSON.parse(input.value) : Number(input.value);
  }
  const body = {
    game,
    players: Number($("players").value),
    variants: [...document.querySelectorAll("input[name=variant]:checked")].map(x => x.value),
    options,
    seats: [...document.querySelectorAll("#seats select")].map(s => s.value),
    timer: $("timer").value ? Number($("timer").value) : null,
    lang,  // the table speaks the lobby's language
  };
  const r = await api("/api/tables", {method: "POST", body: JSON.stringify(body)});
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) { say(answer.message || answer.error || String(r.status)); return; }
  say("");
  drawLinks(answer);
  drawTables();
}

function copyButton(input) {
  return el("button", {type: "button", onclick: () => {
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  }}, S.copy || "");
}

function drawLinks(answer) {
  const rows = answer.seats.map(s => {
    const input = el("input", {type: "text", readonly: true, value: absolute(s.link), "data-seat": s.seat,
                               "aria-label": fill(S.seat_n || "{n}", {n: s.seat})});
    return el("p", {}, el("label", {}, fill(S.seat_n || "{n}", {n: s.seat}), " (", kindTitle(s.kind), ") "),
              input, " ", copyButton(input), " ", el("a", {href: absolute(s.link), target: "_blank", rel: "noopener"},
                                                      S.open || ""));
  });
  const spectator = el("input", {type: "text", readonly: true, value: absolute(answer.spectator), id: "spectator-link",
                                 "aria-label": S.spectator_link || ""});
  $("links").replaceChildren(el("h2", {}, S.join_links || ""), ...rows,
    el("p", {}, el("label", {}, S.spectator_link || ""), " ", spectator, " ", copyButton(spectator)));
}

function kindTitle(kind) {
  const found = SEAT_KINDS().find(([k]) => k === kind);
  return found ? found[1] : kind;
}

// ---- the tables ---------------------------------------------------------------------------

async function drawTables() {
  const r = await api("/api/tables");
  if (!r.ok) return;
  const tables = await r.json();
  const body = el("tbody", {});
  for (const t of tables) {
    const seats = (t.seats || []).map(s => {
      const human = s.kind === "human";
      const b = el("button", {type: "button", onclick: async () => {
        await api(`/api/tables/${encodeURIComponent(t.table)}/seats/${s.seat}`,
                  {method: "POST", body: JSON.stringify({kind: human ? "bot:normal" : "human"})});
        drawTables();
      }}, human ? (S.hand_to_bot || "") : (S.hand_to_human || ""));
      return el("div", {}, fill(S.seat_n || "{n}", {n: s.seat}), " ", kindTitle(s.kind),
                s.connected ? " ●" : "", " ", b);
    });
    body.append(el("tr", {}, el("td", {}, t.title || t.game), el("td", {}, seats),
                   el("td", {}, t.ended ? (S.game_over || "") : String(t.counter))));
  }
  $("tables").replaceChildren(el("h2", {}, S.tables || ""),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, S.game || ""), el("th", {}, S.seats || ""),
                                       el("th", {}, S.moves_played || ""))), body));
}

start();

// What the lobby and the table share: the page's words (from the server's catalogue), small DOM
// helpers. Plain ES module, nothing to build, nothing fetched from outside this server.

export let S = {};  // the page's strings in the table's language (interpreter/serve/strings.py)

export function setStrings(strings) {
  S = Object.assign({}, strings || {});
}

// `fill("{name} plays", {name: "Ann"})`: a sentence of the catalogue with its named fields
export function fill(text, fields) {
  return String(text || "").replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}

// the language asked for: ?lang=, else what the page chose before, else the browser's
export function pageLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  const saved = localStorage.getItem("interpret.lang");
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  const lang = asked || saved || browser;
  return lang === "fr" ? "fr" : "en";
}

export function rememberLanguage(lang) {
  localStorage.setItem("interpret.lang", lang);
}

export async function loadStrings(lang) {
  const r = await fetch(`/api/strings?lang=${encodeURIComponent(lang)}`);
  if (r.ok) setStrings(await r.json());
  document.documentElement.lang = lang;
}

// el("button", {class: "x", onclick: f}, "text", child...)
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

const SVGNS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// the language switch: a <select> that reloads the page in the other language
export function languageSwitch(lang, onChange) {
  const sel = el("select", {id: "lang", "aria-label": S.language || "language"},
    el("option", {value: "en", selected: lang === "en"}, "English"),
    el("option", {value: "fr", selected: lang === "fr"}, "Français"));
  sel.addEventListener("change", () => { rememberLanguage(sel.value); onChange(sel.value); });
  return sel;
}

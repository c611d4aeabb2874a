// The start screen: the home tiles, practice, open tables, the match form, saved matches.

import { isolated, named, plural } from "./cards.js";
import { $, SESSION_PRACTICE, STORE_HISTORY, STORE_MATCH, TABLE_HOURS } from "./common.js";
import { closeSocket, connect } from "./connection.js";
import { helpToggle, notice, show } from "./screens.js";
import { app } from "./state.js";
import { forgetSeat, makeCurrent, prefs, rememberSeat, seatsMap, setPref, store, tabStore } from "./storage.js";
import { button, toggle } from "./table.js";

export async function loadOptions() {
  if (app.options) return app.options;
  const r = await fetch("/api/options");
  app.options = await r.json();
  return app.options;
}

export function fillPresets() {
  const o = app.options;
  const sel = $("preset");
  sel.innerHTML = "";
  for (const p of o.presets) {
    const opt = document.createElement("option");
    opt.value = p.name;
    opt.textContent = p.name;
    sel.append(opt);
  }
  const saved = prefs();
  if (saved.preset && o.presets.some((p) => p.name === saved.preset)) sel.value = saved.preset;
  fillPresetDetails();
}

export function currentPreset() {
  return app.options.presets.find((p) => p.name === $("preset").value);
}

export function fillPresetDetails() {
  const p = currentPreset();
  const rules = $("preset-rules");
  rules.innerHTML = "";
  for (const r of p.rules) {
    const li = document.createElement("li");
    const strong = document.createElement("strong");
    strong.textContent = `${r.label}: `;
    const [q, help] = helpToggle(r.label.toLowerCase(), r.help);
    li.append(strong, r.text, q, help);
    rules.append(li);
  }
  const list = $("twist-list");
  list.innerHTML = "";
  if (!p.twists.length) list.textContent = "This preset has no twists.";
  for (const t of p.twists) {
    const id = `twist-${t.name}`;
    const row = document.createElement("div");
    row.className = "twist";
    row.innerHTML = `<input type="checkbox" id="${id}" value="${t.name}"> <label for="${id}"><strong></strong> — <span></span></label>`;
    row.querySelector("strong").textContent = t.name;
    row.querySelector("span").textContent = t.text;
    const [q, help] = helpToggle(`the ${t.name} twist`, t.help || t.text);
    row.append(q, help);
    list.append(row);
  }
  const players = $("players");
  const before = Number(players.value) || 4;
  players.innerHTML = "";
  for (let n = p.min_players; n <= p.max_players; n++) {
    const opt = document.createElement("option");
    opt.value = String(n);
    opt.textContent = String(n);
    players.append(opt);
  }
  players.value = String(Math.min(p.max_players, Math.max(p.min_players, before)));
  fillSeats();
}

export function fillSeats() {
  const n = Number($("players").value);
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll(".seat-row")].map((r) => ({
    name: r.querySelector("input").value, level: r.querySelector("select")?.value,
  }));
  rows.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const name = old[i]?.name || app.options.names[i] || `Player ${i + 1}`;
    const nameId = `seat-name-${i}`;
    row.innerHTML = `<label for="${nameId}">${i === 0 ? "You" : `Seat ${i + 1}`}</label>
      <input id="${nameId}" maxlength="24" autocomplete="off">`;
    row.querySelector("input").value = name;
    if (i === 0) {
      const tag = document.createElement("span");
      tag.className = "level-tag";
      tag.textContent = "your seat";
      row.append(tag);
    } else {
      const sel = document.createElement("select");
      sel.id = `seat-level-${i}`;
      sel.setAttribute("aria-label", `Computer level of seat ${i + 1}`);
      for (const lv of app.options.levels) {
        const opt = document.createElement("option");
        opt.value = lv;
        opt.textContent = `computer: ${lv}`;
        sel.append(opt);
      }
      const friend = document.createElement("option");
      friend.value = "human";
      friend.textContent = "a friend (own link)";
      sel.append(friend);
      sel.value = old[i]?.level || app.options.default_level;
      sel.addEventListener("change", showFriendOptions);
      row.append(sel);
    }
    rows.append(row);
  }
  $("level-note").textContent =
    `Computer levels, weakest to strongest: ${app.options.levels.join(", ")}.`;
  const standin = $("standin-level");
  if (!standin.options.length) {
    for (const lv of app.options.levels) {
      const opt = document.createElement("option");
      opt.value = lv;
      opt.textContent = lv;
      standin.append(opt);
    }
    standin.value = app.options.levels.includes("simple") ? "simple" : app.options.levels[0];
  }
  showFriendOptions();
}

// The stand-in and the turn timer matter only with a friend's seat.
export function showFriendOptions() {
  $("friend-options").hidden = ![...document.querySelectorAll("#seat-rows select")].some((s) => s.value === "human");
}

export function renderSaved() {
  const list = $("saved-list");
  list.innerHTML = "";
  list.classList.remove("empty");
  const current = store.get(STORE_MATCH);
  if (current && !current.finished) {
    const li = document.createElement("li");
    const line = current.scoring === false ? "" : ` — ${scoreLine(current.players, current.scores)}`;
    li.textContent = `In progress: ${current.rules || "match"}${line} `;
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = "Continue";
    btn.onclick = () => connect({ table: current.table, token: current.token, kind: "match" });
    li.append(btn);
    list.append(li);
  }
  // Other matches this device holds a seat at (a friend's table, a match left for another).
  const fresh = Date.now() - TABLE_HOURS * 3600 * 1000;
  const others = Object.values(seatsMap())
    .filter((e) => e.table !== current?.table && !e.finished && (e.updated || 0) > fresh)
    .sort((a, b) => (b.updated || 0) - (a.updated || 0));
  for (const e of others) {
    const li = document.createElement("li");
    const who = e.name ? [" as ", ...named`${e.name}`, e.host ? " (host)" : ""] : [];
    li.append(`Also in progress: ${e.rules || "match"}`, ...who, " ");
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = "Continue";
    btn.onclick = () => {
      makeCurrent(e.table, e.token);
      connect({ table: e.table, token: e.token, kind: "match" });
    };
    li.append(btn);
    list.append(li);
  }
  for (const h of store.get(STORE_HISTORY, []).slice().reverse()) {
    const li = document.createElement("li");
    const won = h.winners?.length ? `won by ${h.winners.map(isolated).join(" and ")}` : "unfinished";
    const line = h.scoring === false ? "" : ` — ${scoreLine(h.players, h.scores)}`;
    const when = document.createElement("time");
    when.dateTime = new Date(h.when).toISOString();
    when.textContent = new Date(h.when).toLocaleString();
    li.append(when, `: ${h.rules}, ${plural(h.deals, "deal")}, ${won}${line}`);
    list.append(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.className = "empty";
    list.classList.add("empty");
    li.textContent = "Nothing saved.";
    list.append(li);
  }
  $("clear-saved").hidden = list.classList.contains("empty");
}

export function scoreLine(players, scores) {
  if (!players || !scores) return "";
  return players.map((n, i) => `${isolated(n)} ${scores[i]}`).join(", ");
}

export async function showStart(message = "") {
  closeSocket();
  tabStore.remove(SESSION_PRACTICE);
  app.session = null;
  app.state = null;
  if (location.hash) history.replaceState(null, "", location.pathname);
  await loadOptions();
  if (!$("preset").options.length) fillPresets();
  renderSaved();
  $("form-error").textContent = message;
  show("start");
  if ($("start").classList.contains("viewing") && !message) goTo(null, { push: false });
  loadOpenTables();
}

export async function startPractice() {
  show("connecting");
  if (app.options) notice("");
  const r = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ kind: "practice" }),
  });
  const body = await r.json();
  if (!r.ok) { await showStart(body.message || "The server refused the round."); return; }
  connect({ table: body.table, token: body.token, kind: "practice" });
}

export async function startMatch(ev) {
  ev.preventDefault();
  const n = Number($("players").value);
  const names = [];
  const levels = ["human"];
  for (let i = 0; i < n; i++) {
    names.push($(`seat-name-${i}`).value.trim() || app.options.names[i]);
    if (i > 0) levels.push($(`seat-level-${i}`).value);
  }
  const seen = new Map();
  for (let i = 0; i < n; i++) {
    const key = names[i].toLowerCase().split(/\s+/).join(" ");
    if (seen.has(key)) {
      $("form-error").textContent = `Seats ${seen.get(key) + 1} and ${i + 1} are both named “${names[i]}”: give each player a different name.`;
      $(`seat-name-${i}`).focus();
      return;
    }
    seen.set(key, i);
  }
  if (levels.slice(1).includes("human") && names[0].toLowerCase() === "you") {
    $("form-error").textContent = "Type your own name in the first seat: your friends would see you as “You”.";
    $("seat-name-0").focus();
    return;
  }
  const twists = [...$("twist-list").querySelectorAll("input:checked")].map((x) => x.value);
  const body = { kind: "match", preset: $("preset").value, twists, players: n, names, levels };
  if (levels.slice(1).includes("human")) {
    body.standin = $("standin-level").value;
    if ($("turn-timer").value) body.turn_seconds = Number($("turn-timer").value);
    if ($("open-table").checked) {
      body.open = true;
      body.fill_seconds = Number($("fill-seconds").value);
    }
  }
  setPref("preset", body.preset);
  const error = await createMatch(body);
  if (error) $("form-error").textContent = error;
}

// Make a match table from a start-screen body (also "Rematch": the same seats again);
// answers an error text, or null once connecting.
export async function createMatch(setup) {
  const body = { ...setup };
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null) body.seed = Number(seed);   // honoured only by a test server
  const r = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const reply = await r.json();
  if (!r.ok) return reply.message || "The server refused the match.";
  enterNewMatch(reply, body, setup);
  return null;
}

// Sit at a match this page just made (its host's seat) and keep it on this device.
export function enterNewMatch(reply, body, setup) {
  const old = store.get(STORE_MATCH);
  if (old?.table && old.token && !old.finished) rememberSeat(old);   // still on the start screen's list
  const entry = {
    table: reply.table, token: reply.token, rules: ruleName(body), players: body.names,
    scores: body.names.map(() => 0), deals: [], invites: reply.invites, started: Date.now(), setup,
    player: 0, host: true, name: body.names[0],
  };
  store.set(STORE_MATCH, entry);
  rememberSeat(entry);
  connect({ table: reply.table, token: reply.token, kind: "match", invites: reply.invites });
}

// A part of the start screen on its own (the others hidden, "All parts" to come back), or
// every part again (view null). "With friends" is the match form with the second seat a
// friend's.
export function goTo(view, { push = true } = {}) {
  const start = $("start");
  const id = view === "friends" ? "match-form" : view;
  for (const part of start.querySelectorAll(":scope > .panel")) part.classList.toggle("current", part.id === id);
  start.classList.toggle("viewing", !!id);
  $("parts").hidden = !!id;
  $("home-back").hidden = !id;
  if (view === "friends" && $("seat-level-1") && $("seat-level-1").value !== "human") {
    $("seat-level-1").value = "human";
    $("seat-level-1").dispatchEvent(new Event("change"));
  }
  if (push && id) history.pushState({ view }, "", location.pathname);
  window.scrollTo(0, 0);
  const target = id ? $(id).querySelector("h3, input, select, button") : $("parts").querySelector("button");
  if (target) {
    if (target.tagName === "H3") target.tabIndex = -1;
    target.focus({ preventScroll: true });
  }
}

export const OPEN_REFRESH_MS = 5000;

export function openName() {
  const name = $("open-name").value.trim();
  if (!name) {
    $("open-error").textContent = "Type your name first: the others at the table see it.";
    $("open-name").focus();
    return null;
  }
  setPref("name", name);
  $("open-error").textContent = "";
  return name;
}

export function openTableWords(t) {
  const rules = [t.preset, ...(t.twists || [])].join(" + ");
  const seated = t.seated.map(isolated).join(", ");
  const computers = t.computers ? `, ${plural(t.computers, "computer")}` : "";
  return `${rules}, ${t.players} players: ${seated}${computers}. `
    + `${plural(t.free, "free seat")}; starts in ${t.starts_in} s.`;
}

export async function loadOpenTables() {
  if ($("start").hidden) return;
  let tables = [];
  try {
    const r = await fetch("/api/open-tables");
    if (r.ok) tables = (await r.json()).tables || [];
  } catch { return; }
  const items = tables.map((t) => {
    const li = document.createElement("li");
    li.className = "open-row";
    const words = document.createElement("span");
    words.textContent = openTableWords(t);
    const join = button("Join", "join-open", () => joinOpen(t.table));
    join.setAttribute("aria-label", `Join ${t.host}'s table`);
    li.append(words, " ", join);
    return li;
  });
  $("open-list").replaceChildren(...items);
  $("open-empty").hidden = items.length > 0;
}

export function joinOpen(table) {
  const name = openName();
  if (!name) return;
  connect({ table, token: null, join: name, kind: "match" });
}

export async function playNow() {
  const name = openName();
  if (!name) return;
  const preset = $("preset").value || "house";
  const r = await fetch("/api/play-now", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ preset, name }),
  });
  const reply = await r.json();
  if (!r.ok) { $("open-error").textContent = reply.message || "The server refused."; return; }
  if (reply.join) { joinOpen(reply.table); return; }
  enterNewMatch(reply, { kind: "match", preset, twists: [], players: reply.players, names: reply.names }, null);
}

// A seat taken at an open table: the welcome brings its token, kept as a seat link's would be.
export function seatTaken(msg) {
  app.session.token = msg.token;
  delete app.session.join;
  const entry = makeCurrent(app.session.table, msg.token);
  store.set(STORE_MATCH, { ...entry, player: msg.player, name: msg.name, host: false });
  rememberSeat(store.get(STORE_MATCH));
}

export function ruleName(body) {
  return [body.preset, ...body.twists].join("+") + ` (${body.players} players)`;
}

export function archive(saved, winners = null) {
  const history = store.get(STORE_HISTORY, []);
  history.push({
    when: Date.now(), rules: saved.rules, players: saved.players, scores: saved.scores,
    scoring: saved.scoring, deals: saved.deals?.length || 0, winners, table: saved.table,
  });
  store.set(STORE_HISTORY, history.slice(-50));
  store.remove(STORE_MATCH);
  if (saved.table) forgetSeat(saved.table);
}

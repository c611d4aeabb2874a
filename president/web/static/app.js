// President in the browser: a plain ES module, no build step, no other host.
// The server sends this seat's view only ("state" and "event" messages, docs/web.md);
// this file draws it as a card table and sends the player's choices back. Motion is only
// decoration: every state is drawn at once, and a flying copy of the cards runs on top.

import { initCompanion, openCompanion, wantsCompanion } from "./companion.js";
import { initLearn } from "./learn.js";

const $ = (id) => document.getElementById(id);
const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANK_WORDS = { J: "jack", Q: "queen", K: "king", A: "ace" };
const RANK_PLURAL = { 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
  9: "nines", 10: "tens", J: "jacks", Q: "queens", K: "kings", A: "aces" };
const STORE_MATCH = "president.match";
const STORE_HISTORY = "president.history";
const STORE_SEATS = "president.seats";   // table id -> the seat this device holds there
const SEATS_KEPT = 20;
const TABLE_HOURS = 6;                   // the server forgets a table after 6 hours unused
const JOIN = /^#join=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

// A seat link's table and token from a location hash, forgiving what pasting adds (a full
// stop, a bracket or a quote after the link): [table, token], "bad" for a #join= link that
// is cut short or damaged, or null for no seat link at all.
function seatFromHash(hash) {
  if (!hash.startsWith("#join")) return null;
  let text = hash;
  try { text = decodeURIComponent(hash); } catch { /* keep it as it is */ }
  const m = text.trim().replace(/[.,;:!?)\]}>'"’”\s]+$/, "").match(JOIN);
  return m ? [m[1], m[2]] : "bad";
}

const BAD_LINK = "This seat link is cut short or damaged, so it opens no seat. Ask the host to copy it "
  + "again with the Copy button beside your seat, and open the whole link.";
const LOOPBACK = ["127.0.0.1", "localhost", "[::1]", "::1"];
const STORE_OPTIONS = "president.options";
const STORE_GUIDE = "president.guide-seen";
const SESSION_PRACTICE = "president.practice-live";
// This tab went to the start screen by the player's choice (left its match): a reload keeps
// it there instead of opening the saved match again.
const SESSION_AT_START = "president.at-start";
const FLIGHT_MS = { slow: 750, normal: 480, fast: 260, instant: 0 };
const SPEEDS = ["slow", "normal", "fast", "instant"];

// ----- local storage (this device only) -----------------------------------------------

const store = {
  get(key, fallback = null) {
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? fallback : JSON.parse(raw);
    } catch { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* full or blocked */ }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* blocked */ }
  },
};

const tabStore = {
  get(key) { try { return sessionStorage.getItem(key); } catch { return null; } },
  set(key, value) { try { sessionStorage.setItem(key, value); } catch { /* blocked */ } },
  remove(key) { try { sessionStorage.removeItem(key); } catch { /* blocked */ } },
};

// Options kept on this device: speed, auto-pass, ask before a 2, highlight, hint level.
function prefs() {
  const o = store.get(STORE_OPTIONS, {});
  return {
    speed: SPEEDS.includes(o.speed) ? o.speed : "normal",
    autoPass: !!o.autoPass, askTwo: !!o.askTwo, highlight: o.highlight !== false,   // on unless turned off
    hintLevel: o.hintLevel, preset: o.preset,
    name: typeof o.name === "string" ? o.name.slice(0, 24) : "",
  };
}

function setPref(key, value) {
  store.set(STORE_OPTIONS, { ...store.get(STORE_OPTIONS, {}), [key]: value });
}

// The seats this device holds, one per match (table id -> the saved match entry: token,
// player, name, host, rules, scores...). "president.match" is the one open now; the others
// stay here, so opening another match's link never loses a seat.
function seatsMap() {
  const map = store.get(STORE_SEATS, {});
  return map && typeof map === "object" && !Array.isArray(map) ? map : {};
}

function rememberSeat(entry) {
  if (!entry?.table || !entry.token) return;
  const map = seatsMap();
  map[entry.table] = { ...entry, updated: entry.updated || Date.now() };
  const keys = Object.keys(map).sort((a, b) => (map[b].updated || 0) - (map[a].updated || 0));
  for (const k of keys.slice(SEATS_KEPT)) delete map[k];
  store.set(STORE_SEATS, map);
}

function forgetSeat(table) {
  const map = seatsMap();
  if (map[table]) { delete map[table]; store.set(STORE_SEATS, map); }
}

// The seat this device holds at `table`, or null.
function heldSeat(table) {
  const current = store.get(STORE_MATCH);
  if (current?.table === table && current.token) return current;
  const entry = seatsMap()[table];
  return entry?.token ? entry : null;
}

// Make (table, token) the match open on this device; the one open before stays in the map.
function makeCurrent(table, token) {
  const current = store.get(STORE_MATCH);
  if (current?.table === table && current.token === token) return current;
  if (current?.table && current.token && !(current.finished && !current.friends)) rememberSeat(current);
  const known = seatsMap()[table];
  const entry = known && known.token === token ? { ...known }
    : { table, token, rules: "match", players: [], scores: [], deals: [], invites: known?.invites };
  if (known && known.token !== token) { delete entry.snapshot; entry.host = false; entry.name = undefined; }
  store.set(STORE_MATCH, entry);
  rememberSeat(entry);
  return entry;
}

// ----- state --------------------------------------------------------------------------

const app = {
  options: null,      // GET /api/options
  ws: null,
  session: null,      // {table, token, kind}
  state: null,        // latest "state" message
  selected: new Set(),
  retries: 0,
  leaving: false,
  dealEvents: [],     // this deal's events as this seat saw them (pass bubbles, exchange)
  focusHand: false,   // after Play: move focus to the hand once the new state is drawn
  hinting: false,
  resultClosed: null, // the result the player closed to look at the table ("deal:phase")
  autoPassed: -1,     // table action count at which we last passed for the player
  landing: 0,         // flights on their way to the pile
  flights: new Set(), // each flight in the air: its function that lands it at once
  rules: [],          // this table's rules in plain words (welcome)
  invites: [],        // the host's friend seats (welcome): [{player, name, token}]
  askedNext: null,    // the result ("deal:phase") this page asked to move on from
  heldResult: null,   // a result view kept open over a deal someone else started
  timerUntil: null,   // {player, until}: when the stand-in moves (state.table.timer)
  pauseCheck: false,  // after a welcome: pause again if the page is hidden (one human)
};

// ----- cards --------------------------------------------------------------------------

function cardParts(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

function cardText(card) {
  const { rank, suit } = cardParts(card);
  return rank + SUITS[suit][0];
}

function cardLabel(card) {
  const { rank, suit } = cardParts(card);
  return `${RANK_WORDS[rank] || rank} of ${SUITS[suit][1]}`;
}

// "9S 10H" in an engine message -> "9♠ 10♥" (a sentence for people).
function withSymbols(text) {
  return text.replace(/\b(10|[2-9JQKA])([CDHS])\b/g, (_, rank, suit) => rank + SUITS[suit][0]);
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// Player names inside sentences the page builds are isolated from the words around them, so
// a name written right to left ("שרה") never reorders them ("שרה — 2 points" stays in that
// order). named`Waiting for ${name}…` gives nodes for append(), each value in a <bdi>;
// isolated(name) wraps a name in plain text (a string) in FSI … PDI, the same isolation.
function named(strings, ...values) {
  const nodes = [strings[0]];
  values.forEach((value, i) => {
    const b = document.createElement("bdi");
    b.textContent = String(value);
    nodes.push(b, strings[i + 1]);
  });
  return nodes;
}
function isolated(name) { return `\u2068${name}\u2069`; }

// A card face: rank and suit in the corner (what shows when cards overlap), a large suit
// below. The corner's text is visible, so a card's accessible name starts with it ("9").
function cardFace(card, { named = true } = {}) {
  const { rank, suit } = cardParts(card);
  const el = document.createElement("span");
  el.className = `face suit-${suit}`;
  el.innerHTML = `<span class="corner"><span class="rank"></span><span class="suit" aria-hidden="true">${SUITS[suit][0]}</span></span>`
    + `<span class="pip" aria-hidden="true">${SUITS[suit][0]}</span>`;
  el.querySelector(".rank").textContent = rank;
  if (rank === "10") el.querySelector(".rank").classList.add("ten");   // narrow, for tight rows
  if (named) {
    const words = document.createElement("span");
    words.className = "visually-hidden";
    words.textContent = RANK_WORDS[rank] ? ` ${RANK_WORDS[rank]} of ${SUITS[suit][1]}` : ` of ${SUITS[suit][1]}`;
    el.append(words);
  }
  return el;
}

// A picture of cards (pile, flights): one image named by its cards.
function facesImage(cards) {
  const box = document.createElement("span");
  box.className = "faces";
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", cards.map(cardLabel).join(", "));
  for (const c of cards) {
    const face = cardFace(c, { named: false });
    face.dataset.card = c;
    box.append(face);
  }
  return box;
}

function rankOf(card) { return cardParts(card).rank; }

function playWords(cards) {
  const rank = rankOf(cards[0]);
  const n = cards.length;
  if (n === 1) return `a ${RANK_WORDS[rank] || rank}`.replace(/^a (ace|8)/, "an $1");
  return `${["", "", "a pair of", "three", "four"][n]} ${RANK_PLURAL[rank]}`;
}

// ----- screens ------------------------------------------------------------------------

function show(screen) {
  setOffline(false);
  for (const id of ["start", "table", "connecting", "companion"]) $(id).hidden = id !== screen;
  $("new-round").hidden = !(screen === "table" && app.session?.kind === "practice");
  $("leave-match").hidden = !(screen === "table" && app.session?.kind === "match");
  $("action-bar").hidden = screen !== "table";
  if (screen !== "table") $("pause-table").hidden = $("invite-toggle").hidden = true;
  if (screen !== "table") {
    $("result").hidden = true;
    $("paused").hidden = true;
    $("bar-info").textContent = "";
  }
}

// The table while its socket is reconnecting: still in view (the cards where they were, the
// log as it was), dimmed and inert, under the "Connecting…" line; the first state after the
// reconnect (show("table")) or any other screen ends it.
function setOffline(on) {
  for (const id of ["table", "action-bar"]) {
    $(id).inert = on;
    $(id).classList.toggle("offline", on);
  }
  $("connecting").classList.toggle("over-table", on);
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

// A yes/no question; focus starts on "no". `primary: "no"` makes "no" the green button (when
// "yes" is the risky choice); by default "yes" is.
function confirmBox(title, text, yes, no = "Cancel", { primary = "yes" } = {}) {
  return new Promise((resolve) => {
    $("confirm-title").textContent = title;
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes;
    $("confirm-no").textContent = no;
    $("confirm-yes").classList.toggle("primary", primary === "yes");
    $("confirm-no").classList.toggle("primary", primary === "no");
    $("confirm").hidden = false;
    const back = document.activeElement;
    $("confirm-no").focus();
    const onEscape = (e) => {
      if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); done(false); }
    };
    const done = (answer) => {
      $("confirm").hidden = true;
      $("confirm-yes").onclick = $("confirm-no").onclick = null;
      document.removeEventListener("keydown", onEscape, true);
      if (back && back.focus) back.focus({ preventScroll: true });
      resolve(answer);
    };
    document.addEventListener("keydown", onEscape, true);
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
  });
}

// The open modal dialog on top (confirm, then pause, then result), or null.
function openDialog() {
  for (const id of ["confirm", "paused", "result"]) if (!$(id).hidden) return $(id);
  return null;
}

// Tab and Shift+Tab cycle through the open dialog's controls only (aria-modal).
function trapTab(e) {
  const box = openDialog();
  if (e.key !== "Tab" || !box) return;
  const items = [...box.querySelectorAll("button, [href], input, select, textarea")]
    .filter((el) => !el.disabled && el.offsetParent !== null);
  if (!items.length) { e.preventDefault(); return; }
  const i = items.indexOf(document.activeElement);
  const j = i < 0 ? 0 : (i + (e.shiftKey ? -1 : 1) + items.length) % items.length;
  items[j].focus();
  e.preventDefault();
}

// The pause window. At a table for friends only the host pauses and resumes; the window
// says who paused, and the others wait without a Resume button.
function showPaused(on) {
  const box = $("paused");
  const was = !box.hidden;
  const s = app.state;
  const friends = s && friendsTable();
  const canResume = !friends || amHost();
  if (on && s) {
    const by = s.table.paused_by;
    if (friends) {
      const who = by && by !== s.players[s.you.player] ? by : (by ? "you" : hostName());
      $("paused-text").replaceChildren(...(canResume
        ? [`Paused by ${who}. Nobody plays until you resume.`]
        : [...named`Paused by ${who}.`, " ", ...named`Waiting for ${hostName()} (the host) to resume the game.`]));
    } else {
      $("paused-text").textContent = by && by !== s.players[s.you.player] ? `Paused by ${by}.` : "Play stopped while this page was hidden.";
    }
  }
  $("resume").hidden = !canResume;
  box.hidden = !on;
  if (on && !was && $("confirm").hidden) {
    if (canResume) $("resume").focus();
    else { box.querySelector(".dialog").tabIndex = -1; box.querySelector(".dialog").focus(); }
  }
}

// A "?" button that shows or hides a plain-words explanation right after `anchor`.
function helpToggle(label, text) {
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "qmark";
  btn.textContent = "?";
  btn.setAttribute("aria-label", `What is ${label}?`);
  btn.setAttribute("aria-expanded", "false");
  const help = document.createElement("p");
  help.className = "help-text";
  help.hidden = true;
  help.textContent = text;
  btn.onclick = () => {
    help.hidden = !help.hidden;
    btn.setAttribute("aria-expanded", String(!help.hidden));
  };
  return [btn, help];
}

// ----- motion -------------------------------------------------------------------------

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function flightMs() {
  return reducedMotion() ? 0 : FLIGHT_MS[prefs().speed];
}

// Move a copy of `content` from the rectangle `from` to the rectangle `to` (screen pixels),
// then remove it; `done` runs at the end. Nothing waits for it.
function fly(content, from, to, { fade = false, seat = null, done = null } = {}) {
  const ms = flightMs();
  if (!ms || !from || !to || !content.animate) { if (done) done(); return null; }
  const el = document.createElement("div");
  el.className = "flying";
  if (seat !== null) el.dataset.seat = String(seat);
  el.append(content);
  $("fx").append(el);
  const box = el.getBoundingClientRect();
  const x0 = from.left + from.width / 2 - box.width / 2;
  const y0 = from.top + from.height / 2 - box.height / 2;
  const x1 = to.left + to.width / 2 - box.width / 2;
  const y1 = to.top + to.height / 2 - box.height / 2;
  el.style.left = "0px";
  el.style.top = "0px";
  const end = fade ? 0.15 : 1;
  const anim = el.animate([
    { transform: `translate(${x0}px, ${y0}px) scale(${fade ? 1 : 0.6})`, opacity: 1 },
    { transform: `translate(${x1}px, ${y1}px) scale(${fade ? 0.4 : 1})`, opacity: end },
  ], { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" });
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    app.flights.delete(finish);
    el.remove();
    if (done) done();
  };
  app.flights.add(finish);
  anim.onfinish = finish;
  anim.oncancel = finish;
  return el;
}

// Land every flight now (the cards appear where they were going): the result view never
// opens over cards still moving.
function landAll() {
  for (const finish of [...app.flights]) finish();
}

function rectOf(el) {
  if (!el || el.hidden) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height ? r : null;
}

function seatElement(seat) {
  if (app.state && seat === me()) return $("hand");
  return document.querySelector(`#opponents [data-seat="${seat}"]`);
}

// A play flies from its seat to the pile; the pile's top is shown once the last flight lands.
function animatePlay(ev) {
  if (!flightMs()) return;
  const from = ev.seat === me() ? (app.playFrom || rectOf($("hand"))) : rectOf(seatElement(ev.seat));
  if (ev.seat === me()) app.playFrom = null;
  const to = rectOf($("pile-cards")) || rectOf($("pile"));
  if (!from || !to) return;
  app.landing += 1;
  $("pile-cards").classList.add("landing");
  fly(facesImage(ev.cards), from, to, {
    seat: ev.seat,
    done: () => {
      app.landing = Math.max(0, app.landing - 1);
      if (!app.landing) $("pile-cards").classList.remove("landing");
    },
  });
}

// A clear sweeps what is on the pile to the discard.
function animateClear() {
  if (!flightMs()) return;
  const cards = [...document.querySelectorAll("#pile-cards .face")];
  if (!cards.length) return;
  const from = rectOf($("pile-cards"));
  const to = rectOf($("discard"));
  const copy = $("pile-cards").cloneNode(true);
  copy.removeAttribute("id");
  copy.classList.remove("landing");
  // The words under the pile ("Empty pile: …", the discard's count) wait until the sweep
  // has gone, so no fading card ever lies over them (style.css, .pile.sweeping).
  app.sweeps = (app.sweeps || 0) + 1;
  $("pile").classList.add("sweeping");
  fly(copy, from, to, {
    fade: true,
    done: () => {
      app.sweeps = Math.max(0, app.sweeps - 1);
      if (!app.sweeps) $("pile").classList.remove("sweeping");
    },
  });
}

// ----- start screen -------------------------------------------------------------------

async function loadOptions() {
  if (app.options) return app.options;
  const r = await fetch("/api/options");
  app.options = await r.json();
  return app.options;
}

function fillPresets() {
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

function currentPreset() {
  return app.options.presets.find((p) => p.name === $("preset").value);
}

function fillPresetDetails() {
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

function fillSeats() {
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
function showFriendOptions() {
  $("friend-options").hidden = ![...document.querySelectorAll("#seat-rows select")].some((s) => s.value === "human");
}

function renderSaved() {
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

function scoreLine(players, scores) {
  if (!players || !scores) return "";
  return players.map((n, i) => `${isolated(n)} ${scores[i]}`).join(", ");
}

async function showStart(message = "") {
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

async function startPractice() {
  show("connecting");
  if (app.options) notice("");
  const r = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ kind: "practice" }),
  });
  const body = await r.json();
  if (!r.ok) { await showStart(body.message || "The server refused the round."); return; }
  connect({ table: body.table, token: body.token, kind: "practice" });
}

async function startMatch(ev) {
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
async function createMatch(setup) {
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
function enterNewMatch(reply, body, setup) {
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

// ----- the home screen: every part one tap away --------------------------------------------

// A part of the start screen on its own (the others hidden, "All parts" to come back), or
// every part again (view null). "Practice" starts the round at once; "With friends" is the
// match form with the second seat a friend's.
function goTo(view, { push = true } = {}) {
  const start = $("start");
  if (view === "practice") { startPractice(); return; }
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

// ----- open tables (docs/web.md, "Open tables") -------------------------------------------

const OPEN_REFRESH_MS = 5000;

function openName() {
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

function openTableWords(t) {
  const rules = [t.preset, ...(t.twists || [])].join(" + ");
  const seated = t.seated.map(isolated).join(", ");
  const computers = t.computers ? `, ${plural(t.computers, "computer")}` : "";
  return `${rules}, ${t.players} players: ${seated}${computers}. `
    + `${plural(t.free, "free seat")}; starts in ${t.starts_in} s.`;
}

async function loadOpenTables() {
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

function joinOpen(table) {
  const name = openName();
  if (!name) return;
  connect({ table, token: null, join: name, kind: "match" });
}

async function playNow() {
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
function seatTaken(msg) {
  app.session.token = msg.token;
  delete app.session.join;
  const entry = makeCurrent(app.session.table, msg.token);
  store.set(STORE_MATCH, { ...entry, player: msg.player, name: msg.name, host: false });
  rememberSeat(store.get(STORE_MATCH));
}

function ruleName(body) {
  return [body.preset, ...body.twists].join("+") + ` (${body.players} players)`;
}

function archive(saved, winners = null) {
  const history = store.get(STORE_HISTORY, []);
  history.push({
    when: Date.now(), rules: saved.rules, players: saved.players, scores: saved.scores,
    scoring: saved.scoring, deals: saved.deals?.length || 0, winners, table: saved.table,
  });
  store.set(STORE_HISTORY, history.slice(-50));
  store.remove(STORE_MATCH);
  if (saved.table) forgetSeat(saved.table);
}

// ----- connection ---------------------------------------------------------------------

// After this many failed tries in a row the page says the server cannot be reached, and goes
// on trying every RETRY_MAX_MS (a server restarted by hand may take a minute to come back).
const RETRIES_QUIET = 5;
const RETRY_MAX_MS = 5000;
const UNREACHABLE = "The server cannot be reached. Trying again every few seconds: your game "
  + "is kept on the server and comes back as soon as it answers.";

const PRACTICE_KEEP_OPEN = " Keep this page open: reloading it ends your practice round.";

function stopRetrying() {
  clearTimeout(app.retryTimer);
  app.retryTimer = null;
}

function closeSocket() {
  stopRetrying();
  if (app.ws) {
    app.leaving = true;
    app.ws.onclose = null;
    app.ws.close();
    app.ws = null;
  }
}

function connect(session) {
  tabStore.remove(SESSION_AT_START);      // at a table again: a reload comes back to it
  // The same table again (its socket dropped, or the server went away): its last view stays
  // up, inert, until the table answers; the log is replaced by the one the server sends.
  const offline = $("connecting").classList.contains("over-table");   // a retry of a retry
  const keep = app.session?.table === session.table && !$("table").hidden
    && (!!app.state || offline);
  closeSocket();
  app.leaving = false;
  app.session = session;
  app.state = null;
  app.selected.clear();
  app.dealEvents = [];
  app.resultClosed = null;
  app.autoPassed = -1;
  app.sentAt = -1;
  app.hinting = false;      // a hint asked of the old socket gets no answer on the new one
  if (!keep) $("log").innerHTML = "";
  $("message").textContent = "";
  $("announce").textContent = "";
  const lost = app.retries > RETRIES_QUIET;
  // A practice round lives on in the server, but a reload of its page ends it (seed 003):
  // said while the server is away, when a reload is what most people would try.
  const practice = session.kind === "practice" ? PRACTICE_KEEP_OPEN : "";
  $("connecting-text").textContent = lost ? UNREACHABLE + practice : "Connecting…";
  $("connecting-stop").hidden = !lost;
  if (keep) {
    $("result").hidden = $("paused").hidden = true;
    $("connecting").hidden = false;
    setOffline(true);
  } else {
    show("connecting");
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // The table's id in the address: a proxy in front of several server processes can send
  // every page of one table to the same process (docs/deploy.md, "Several processes").
  const ws = new WebSocket(`${proto}//${location.host}/ws?table=${encodeURIComponent(session.table)}`);
  app.ws = ws;
  ws.onopen = () => {
    if (session.join !== undefined && !session.token) {    // a free seat of an open table
      ws.send(JSON.stringify({ type: "join", table: session.table, name: session.join, batch: true }));
      return;
    }
    const hello = { type: "hello", table: session.table, token: session.token, batch: true };
    if (session.kind === "match") {
      const saved = store.get(STORE_MATCH);
      if (saved?.snapshot && saved.table === session.table) hello.snapshot = saved.snapshot;
    }
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    if (app.ws !== ws || app.leaving) return;
    app.ws = null;
    // A match, or a practice round across a server restart (the server keeps both), comes
    // back when the page reconnects with its seat token: the page keeps trying, a little
    // longer each time up to RETRY_MAX_MS, until the server answers or the player leaves.
    app.retries += 1;
    app.retryTimer = setTimeout(() => connect(session), Math.min(500 * app.retries, RETRY_MAX_MS));
  };
}

function send(message) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
}

// A play, pass or give, with the number of actions of the state it was chosen in: if the
// table has moved on meanwhile (another page of this seat acted), the server refuses it
// ("stale") instead of playing it in a position it was not chosen for.
function sendAction(message) {
  send({ ...message, at: app.state.table.actions });
}

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      app.retries = 0;
      if (msg.token && app.session.join !== undefined) seatTaken(msg);
      app.session.player = msg.player;
      app.session.host = msg.host ?? 0;
      app.session.name = msg.name;
      app.rules = msg.rules;
      app.invites = Array.isArray(msg.invites) ? msg.invites
        : (app.session.invites || store.get(STORE_MATCH)?.invites || []);
      // A friend arriving at someone else's table: a welcome line on their own page.
      app.welcomeLine = app.session.host !== msg.player
        ? `Welcome, ${msg.name}! You sit at this table with your own hand; the others see only how many cards you hold.`
        : null;
      if (app.session.kind === "match") rememberWelcome(msg);
      renderRules();
      if (app.session.kind === "practice") tabStore.set(SESSION_PRACTICE, "1");
      send({ type: "speed", speed: prefs().speed });
      // A hidden page that reconnects (a server restart) keeps its round paused (seed 003);
      // decided on the first state, which says whether friends sit at the table.
      app.pauseCheck = true;
      app.logKept = false;
      break;
    case "state":
      onState(msg);
      break;
    case "event":
      onEvent(msg);
      break;
    case "batch":   // a play and the replies after it, in order (the hello asked for batches)
      for (const one of msg.messages) receive(one);
      break;
    case "log":
      onLog(msg);
      break;
    case "hint":
      onHint(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

// The seat this page holds, as the server named it (kept with the match on this device).
function rememberWelcome(msg) {
  const saved = store.get(STORE_MATCH);
  if (!saved || saved.table !== app.session.table || saved.token !== app.session.token) return;
  const next = { ...saved, player: msg.player, name: msg.name, host: msg.player === (msg.host ?? 0) };
  if (app.invites.length) next.invites = app.invites;
  store.set(STORE_MATCH, next);
  rememberSeat(next);
}

function onError(msg) {
  app.hinting = false;
  app.sentAt = -1;          // the action was refused: the player may try again
  if (app.state) renderControls();
  if (!app.state) {   // the hello was refused
    // The server is too busy to take this hello now, or (several processes on one store)
    // another process holds the table: it closes the socket (1013) and the page tries again
    // after its usual pause (the seat stays as it is).
    if (msg.reason === "busy" || msg.reason === "elsewhere") return;
    if (app.session?.join !== undefined) {   // a join refused: back to the list, with why
      const why = msg.message;
      app.leaving = true;
      showStart().then(() => { $("open-error").textContent = why; loadOpenTables(); });
      return;
    }
    if (msg.reason === "store-error") {
      // The server cannot read its saved tables (a problem with its disk): the seat is
      // kept on this device for a later try, and the page stops knocking.
      notice(`The server cannot open this game just now: ${msg.message}`);
      showStart();
      return;
    }
    if (app.session?.kind === "match") {
      const saved = store.get(STORE_MATCH);
      if (saved && saved.table === app.session.table) archive(saved);
      else forgetSeat(app.session.table);
    }
    if (app.session?.kind === "match" && msg.reason === "unknown-table") {
      // Said at the top of the page (a phone would not see the form's line far below).
      notice("This link opens no game on this server: the match has ended, or the server was "
        + "restarted without its saved tables, or the link is from another server. Ask the host "
        + "for the link again.");
      showStart();
      return;
    }
    showStart(app.session?.kind === "practice" && app.retries
      ? "The connection was lost, which ends a practice round. Start a new one."
      : `That game is no longer available: ${msg.message}`);
    return;
  }
  if (msg.reason === "unseated") {     // the host of an open table freed this seat
    app.leaving = true;
    const saved = store.get(STORE_MATCH);
    if (saved && saved.table === app.session?.table) store.remove(STORE_MATCH);
    forgetSeat(app.session?.table);
    showStart().then(() => { $("open-error").textContent = `The host freed your seat: ${msg.message}.`; });
    return;
  }
  setMessage(withSymbols(msg.message));
}

// A refusal or a problem (red), or with info = true a hint or a notice (plain ink).
function setMessage(text, info = false) {
  $("message").textContent = text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
  $("message").classList.toggle("info", info);
}

// ----- events -------------------------------------------------------------------------

function addLogLine(ev) {
  // A deal's end: first who was left holding cards (the terminal's sentence, from the server).
  if (ev.kind === "deal-ended" && ev.left_holding) addLogLine({ kind: "left-holding", text: ev.left_holding.text });
  const li = document.createElement("li");
  li.textContent = ev.text;
  if (ev.kind === "dealt") li.className = "deal-line";
  else if (ev.kind === "presence" || ev.kind === "welcome") li.className = "presence-line";
  const log = $("log");
  log.append(li);
  while (log.children.length > 3000) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function announce(ev) {
  const el = $("announce");
  el.textContent = ev.text;
  el.classList.remove("fresh");
  void el.offsetWidth;   // restart the highlight animation
  el.classList.add("fresh");
  addLogLine(ev);
}

// Who comes, leaves, returns, and when a computer plays for someone (tables for friends):
// the play log and the announcement; the seats show it from the state that follows.
function onPresence(ev) {
  const s = app.state;
  const seat = s?.seats.find((x) => x.player === ev.player);
  if (seat && ["joined", "returned"].includes(ev.what)) { seat.online = true; seat.joined = true; }
  else if (seat && ev.what === "left") seat.online = false;
  let text = ev.text;
  if (ev.what === "joined" && s && ev.player !== s.you.player) text = `${ev.text} Welcome, ${s.players[ev.player]}!`;
  announce({ ...ev, text });
  if (s && !$("table").hidden) renderSeatsAndFriends();
}

function onEvent(ev) {
  if (ev.kind === "presence") { onPresence(ev); return; }
  // A practice round is one standalone deal (seed 003): no match winner to announce.
  if (ev.kind === "match-ended" && app.session?.kind === "practice") return;
  if (ev.kind === "dealt") { app.dealEvents = []; app.resultClosed = null; }
  app.dealEvents.push(ev);
  if (app.state) {
    if (ev.kind === "played") animatePlay(ev);
    else if (ev.kind === "cleared") animateClear();
    else if (ev.kind === "out") app.justOut = ev.seat;
  }
  announce(ev);
}

// On joining (a reload, Continue): the match's events so far, every deal, so the play log
// is whole again; this deal's events give the pass bubbles and the exchange summary.
function onLog(msg) {
  // A log sent again at the same table (the match started, a rematch) keeps the lines about
  // who came and went, which the server sends live only.
  const kept = app.logKept ? [...$("log").querySelectorAll(".presence-line")] : [];
  $("log").innerHTML = "";
  $("log").append(...kept);
  let start = 0;
  msg.events.forEach((ev, i) => { if (ev.kind === "dealt") start = i; });
  app.dealEvents = msg.events.slice(start);
  for (const ev of msg.events) addLogLine(ev);
  const last = msg.events[msg.events.length - 1];
  $("announce").textContent = last ? last.text : "";
  if (app.welcomeLine && !app.logKept) addLogLine({ kind: "welcome", text: app.welcomeLine });
  app.logKept = true;
}

function previousTitle(seat) {
  // Titles of the previous deal matter while the next one is dealt and played.
  const s = app.state;
  return s.deal > 1 && ["exchange", "play"].includes(s.phase) ? seat.previous_title : null;
}

function onHint(msg) {
  app.hinting = false;
  if (msg.cards) {
    app.selected = new Set(msg.cards);
    renderHand();
    setMessage(`Hint: ${msg.text}`, true);
    const first = document.querySelector(`#hand [data-card="${msg.cards[0]}"]`);
    if (first) first.focus({ preventScroll: true });
  } else {
    setMessage(`Hint: ${msg.text}`, true);
  }
  if (app.state) renderControls();
}

// Seats whose "Pass" bubble shows: they passed on this pile and have not played since; the
// bubble goes when the pile clears, and while that seat is to act again.
function passBubbles() {
  const out = new Set();
  for (const ev of app.dealEvents) {
    if (ev.kind === "passed") out.add(ev.seat);
    else if (ev.kind === "played") out.delete(ev.seat);
    else if (ev.kind === "cleared" || ev.kind === "dealt") out.clear();
  }
  if (app.state) out.delete(app.state.to_act);
  return out;
}

// ----- state --------------------------------------------------------------------------

function onState(state) {
  const before = app.state;
  app.state = state;
  // A start-screen notice (a practice round ended by a reload, a bad link) is about the
  // game before this one: it goes when this one's table first shows.
  if (before === null) notice("");
  show("table");
  if (app.pauseCheck) {
    app.pauseCheck = false;
    // A hidden page that reconnects keeps its game paused (seed 003), unless friends sit here.
    if (document.hidden && !app.unloading && !friendsTable()) send({ type: "pause" });
  }
  const number = state.table.match_number || 1;
  const newMatch = before && (before.table.match_number || 1) !== number;
  if (before && (newMatch || (before.deal !== state.deal && !before.table.lobby))) {
    // Someone else moved the table on while this page's result view is open: keep it open
    // (its reader closes it) and say so; one this page asked to move on from closes.
    const wasOver = ["between-deals", "match-over"].includes(before.phase);
    const asked = app.askedNext === `${before.table.match_number || 1}:${before.deal}:${before.phase}`;
    if (wasOver && !$("result").hidden && !asked && friendsTable()) {
      app.heldResult = { match: newMatch, deal: state.deal };
    } else {
      app.heldResult = null;
    }
    app.resultClosed = null;
  }
  if (newMatch) {
    app.dealEvents = app.dealEvents.filter((e) => e.kind === "dealt").slice(-1);
    app.selected.clear();
  }
  const timer = state.table.timer;
  app.timerUntil = timer ? { player: timer.player, until: Date.now() + timer.seconds * 1000 } : null;
  if (before === null || before.hand.length !== state.hand.length || before.deal !== state.deal) {
    app.selected = new Set([...app.selected].filter((c) => state.hand.includes(c)));
    if (before && (before.hand.length !== state.hand.length || before.deal !== state.deal)) app.selected.clear();
  }
  // A hint or a refusal is about one turn: it goes when the turn or the phase moves on (after
  // you give in the exchange and then lead, the seat to act is yours both times), or when
  // anyone acted (at "instant" speed the others answer your play in the same update, and
  // the turn is yours again).
  if (before && (before.to_act !== state.to_act || before.phase !== state.phase
                 || before.table.actions !== state.table.actions)) setMessage("");
  if (app.session.kind === "match") saveMatch(state);
  if (app.session.kind === "practice" && ["between-deals", "match-over"].includes(state.phase)) {
    tabStore.remove(SESSION_PRACTICE);   // a finished round is not lost by a reload
  }
  const played = app.focusHand && before && before.hand.length !== state.hand.length;
  render();
  if (before === null) $("log").scrollTop = $("log").scrollHeight;   // the latest lines in view
  if (played) {
    app.focusHand = false;
    const active = document.activeElement;
    if (!openDialog() && (!active || active === document.body || active.closest("#hand, .action-bar"))) {
      const cards = [...document.querySelectorAll("#hand .card")];
      if (cards.length) cards[Math.min(app.lastPlayedIndex ?? 0, cards.length - 1)].focus({ preventScroll: true });
    }
  }
  maybeAutoPass();
}

// "Pass for me when nothing I hold can beat the pile": only when following (never a lead,
// which cannot pass) and only when pass is the one legal action.
function maybeAutoPass() {
  const s = app.state;
  if (!prefs().autoPass || s.phase !== "play" || !myTurn() || !s.to_beat) return;
  if (s.legal.length !== 1 || s.legal[0] !== "pass" || s.table.paused) return;
  if (app.autoPassed === s.table.actions) return;
  app.autoPassed = s.table.actions;
  const what = playWords(s.to_beat.cards);
  setTimeout(() => {
    const now = app.state;
    if (!now || now.table.actions !== s.table.actions || !myTurn() || now.table.paused) return;
    sendAction({ type: "pass" });
    setMessage(`Passed for you: nothing you hold beats ${what}.`, true);
  }, 250);
}

function saveMatch(state) {
  const saved = store.get(STORE_MATCH) || {};
  // Another page of this device took another seat or match meanwhile: leave its entry alone.
  if (saved.table && saved.table !== app.session.table) return;
  if (saved.table && saved.token && saved.token !== app.session.token) return;
  const number = state.table.match_number || 1;
  let base = saved;
  if ((saved.match_number || number) < number) {
    // A rematch at this table: the match before goes to the history (if this page missed its
    // end, as it was when last seen), and this entry follows the new one.
    if (!saved.finished && saved.deals?.length) pushHistory(saved, null);
    base = { ...saved, finished: false, started: Date.now() };
  }
  const next = {
    ...base, table: app.session.table, token: app.session.token,
    rules: `${state.rules.name} (${state.seats.length} players)`, players: state.players,
    scores: state.scores, deals: state.deals, updated: Date.now(), match_number: number,
    scoring: Array.isArray(state.rules.scoring) && state.rules.scoring.length > 0,
    player: state.you.player, name: state.players[state.you.player],
    host: (state.table.host ?? 0) === state.you.player, friends: friendsTable(state),
  };
  if (state.snapshot) next.snapshot = state.snapshot;
  if (state.phase === "match-over" && !next.finished) {
    next.finished = true;
    pushHistory(next, state.winners.map((p) => state.players[p]));
  }
  store.set(STORE_MATCH, next);
  rememberSeat(next);
}

function pushHistory(entry, winners) {
  const history = store.get(STORE_HISTORY, []);
  history.push({ when: Date.now(), rules: entry.rules, players: entry.players, scores: entry.scores,
    scoring: entry.scoring, deals: entry.deals?.length || 0, winners, table: entry.table });
  store.set(STORE_HISTORY, history.slice(-50));
}

// More than one human seat: a table for friends (a host, presence, ready between deals).
function friendsTable(s = app.state) {
  return !!s && s.table.kind === "match" && (s.table.humans?.length || 0) > 1;
}
function amHost(s = app.state) { return (s.table.host ?? 0) === s.you.player; }
function hostName(s = app.state) { return s.players[s.table.host ?? 0]; }

function me() { return app.state.you.seat; }
function myTurn() { return app.state.to_act === me() && !app.state.seats[me()].standin; }
function nameOf(seat) { return seat === me() ? "You" : app.state.seats[seat].name; }
function nameIn(seat) { return seat === me() ? "you" : app.state.seats[seat].name; }
function playerName(p) { return p === app.state.you.player ? "You" : app.state.players[p]; }

function playableCards() {
  const set = new Set();
  for (const a of app.state.legal) if (a !== "pass") for (const c of a) set.add(c);
  return set;
}

function scored() {
  const s = app.state;
  return s.table.kind === "match" && Array.isArray(s.rules.scoring) && s.rules.scoring.length > 0;
}

function dealOver() { return ["between-deals", "match-over"].includes(app.state.phase); }

function render() {
  const s = app.state;
  const lobby = !!s.table.lobby;
  const t = $("table");
  t.dataset.lobby = lobby ? "1" : "";
  t.dataset.friends = friendsTable() ? "1" : "";
  t.dataset.host = amHost() ? "1" : "";
  $("lobby").hidden = !lobby;
  $("action-bar").hidden = lobby;
  renderTopButtons();
  renderInvites();
  if (lobby) {
    $("bar-info").replaceChildren(`${s.rules.name} · waiting room`);
    renderLobby();
    $("result").hidden = true;
    showPaused(false);
    $("exchange-panel").hidden = true;
    t.dataset.turn = "";
    t.dataset.phase = "lobby";
    t.dataset.actions = String(s.table.actions);
    return;
  }
  const number = s.table.match_number > 1 ? `match ${s.table.match_number} · ` : "";
  const deal = s.table.kind === "practice" ? "Practice round" : `${s.rules.name} · ${number}deal ${s.deal}`;
  // On a phone only the first part shows (which deal); the rest is in the play log.
  const more = document.createElement("span");
  more.className = "bar-more";
  more.append(...named` · dealer: ${nameIn(s.dealer)} · first lead: ${nameIn(s.leader)}`);
  $("bar-info").replaceChildren(deal, more);
  renderSeats();
  renderPile();
  renderHand();
  renderYou();
  renderControls();
  renderExchange();
  renderScores();
  renderGone();
  renderResult();
  showPaused(s.table.paused);
  renderCountdowns();
  $("speed").value = s.table.speed || prefs().speed;
  t.dataset.turn = myTurn() ? "you" : "";
  t.dataset.phase = s.phase;
  t.dataset.actions = String(s.table.actions);
  t.dataset.motion = flightMs() ? "on" : "off";
  t.dataset.onlyPass = s.phase === "play" && myTurn() && s.legal.length === 1 && s.legal[0] === "pass" ? "1" : "";
  if (s.table.kind === "practice" && !store.get(STORE_GUIDE)) $("guide").hidden = false;
}

// The header's buttons at a table for friends: the host's Pause and Invite links.
function renderTopButtons() {
  const s = app.state;
  const host = friendsTable() && amHost();
  const playing = ["play", "exchange"].includes(s.phase) && !s.table.lobby;
  $("pause-table").hidden = !(host && playing && !s.table.paused);
  $("invite-toggle").hidden = !(host && app.invites.length && !s.table.lobby);
}

// Where friends on other devices cannot reach this page: it says so, and how.
function loopbackNotice() {
  if (!LOOPBACK.includes(location.hostname)) return null;
  const box = document.createElement("div");
  box.className = "notice loopback";
  box.setAttribute("role", "note");
  const p1 = document.createElement("p");
  p1.append("These links point to ");
  const host = document.createElement("code");
  host.textContent = location.host;
  p1.append(host, ", an address only this computer can open: friends on other devices cannot use them.");
  const p2 = document.createElement("p");
  const there = app.options?.friend_url;
  if (there) {   // the server already listens on the network: send the host to that address
    p2.append("This server can also be reached on your network at ");
    const a = document.createElement("a");
    a.href = there;
    a.textContent = there;
    p2.append(a, ": open the game there and make the match again, so the links carry that address.");
  } else {
    p2.append("To play with friends on your network, restart the server with ");
    const cmd = document.createElement("code");
    cmd.textContent = "president serve --host 0.0.0.0";
    p2.append(cmd, ". It prints the address to give your friends: open the game at that address here too, so the links use it.");
  }
  box.append(p1, p2);
  return box;
}

function seatLink(token) { return `${location.origin}/#join=${app.session.table}.${token}`; }

// Words for a human seat's presence: online / away, waiting in the waiting room, or the
// computer playing for them.
function presenceWords(seat, lobby = app.state.table.lobby) {
  if (seat.online === null || seat.online === undefined) return null;
  if (lobby) return seat.joined || seat.online ? (seat.online ? "joined · online" : "joined · away") : "waiting";
  const here = seat.online ? "online" : "away";
  return seat.standin ? `${here} · computer playing (${seat.standin})` : here;
}

function selectText(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

async function copyLink(link, textEl, status) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(link);
      status.textContent = "Copied.";
      return;
    }
  } catch { /* refused: select it instead */ }
  selectText(textEl);
  let ok = false;
  try { ok = document.execCommand("copy"); } catch { ok = false; }
  status.textContent = ok ? "Copied." : "Selected: copy it with Ctrl+C (or your menu's Copy).";
}

// One row per seat: name, chips, presence; for the host, each friend's link with Copy and
// Share, and the seat handed to the computer or back (after the waiting room).
function friendRow(seat, { links, tools }) {
  const s = app.state;
  const li = document.createElement("li");
  li.className = "friend-row";
  li.dataset.player = String(seat.player);
  const head = document.createElement("p");
  head.className = "friend-head";
  const name = document.createElement("bdi");
  name.className = "friend-name";
  name.textContent = seat.name;
  head.append(name);
  if (seat.player === s.you.player) head.insertAdjacentHTML("beforeend", ' <span class="chip you-chip">you</span>');
  if (seat.host) head.insertAdjacentHTML("beforeend", ' <span class="chip host">host</span>');
  // Your own row says what your friends see of you (this page is here: joined, online).
  const self = seat.player === s.you.player && seat.online !== null && seat.online !== undefined;
  const words = presenceWords(self ? { ...seat, online: true, joined: true } : seat);
  const status = document.createElement("span");
  status.className = "presence";
  if (words === null) status.textContent = `computer: ${seat.level}`;
  else {
    status.textContent = words;
    status.classList.add(seat.online || self ? "on" : "off");
    if (words === "waiting") status.classList.replace("off", "waiting");
  }
  head.append(" ", status);
  li.append(head);
  const invite = links ? app.invites.find((i) => i.player === seat.player) : null;
  if (invite) {
    const link = seatLink(invite.token);
    const row = document.createElement("div");
    row.className = "link-row";
    const text = document.createElement("code");
    text.className = "link-text";
    text.textContent = link;
    text.tabIndex = 0;
    text.setAttribute("aria-label", `Seat link for ${seat.name}`);
    text.addEventListener("focus", () => selectText(text));
    const note = document.createElement("span");
    note.className = "copy-status";
    note.setAttribute("role", "status");
    const copy = button("Copy", "copy-link", () => copyLink(link, text, note));
    copy.setAttribute("aria-label", `Copy ${seat.name}'s link`);
    row.append(text, copy);
    if (navigator.share) {
      const share = button("Share", "share-link", async () => {
        try {
          await navigator.share({ title: "President", text: `${seat.name}, your seat at our President table:`, url: link });
        } catch { /* closed without sharing */ }
      });
      share.setAttribute("aria-label", `Share ${seat.name}'s link`);
      row.append(share);
    }
    row.append(note);
    li.append(row);
  }
  if (tools && seat.online !== null && seat.player !== s.you.player && !s.table.lobby) {
    const give = seat.standin
      ? button("Give the seat back", "seat-toggle", () => send({ type: "seat", player: seat.player, computer: false }))
      : button("Let the computer play", "seat-toggle", () => send({ type: "seat", player: seat.player, computer: true }));
    give.setAttribute("aria-label", seat.standin ? `Give ${seat.name} their seat back` : `Let the computer play for ${seat.name}`);
    li.append(give);
  }
  return li;
}

function bySeatOrder(s = app.state) {
  return s.seats.slice().sort((a, b) => a.player - b.player);
}

// The host's links for the whole match (a side panel, opened from the header).
function renderInvites() {
  const box = $("invites");
  const s = app.state;
  const on = friendsTable() && amHost() && app.invites.length > 0 && !s.table.lobby;
  box.hidden = !on;
  if (!on) return;
  const list = $("invite-list");
  list.replaceChildren(...bySeatOrder().filter((x) => x.online !== null && x.player !== s.you.player)
    .map((seat) => friendRow(seat, { links: true, tools: true })));
  const notice = loopbackNotice();
  $("invites-loopback").replaceChildren(...(notice ? [notice] : []));
}

// The waiting room: every seat, who has come; the host's links and Start.
function renderLobby() {
  const s = app.state;
  const host = amHost();
  const friends = bySeatOrder().filter((x) => x.online !== null && !x.host);
  const missing = friends.filter((x) => !x.joined && !x.online);
  $("lobby-lead").replaceChildren(...(host
    ? ["Send each friend their own link below. ",
      missing.length ? `Waiting for ${missing.map((x) => isolated(x.name)).join(", ")}.` : "Everyone is here."]
    : named`Waiting for ${hostName()} to start the match.`));
  if (s.table.open) {        // an open table: seats go to whoever joins from the list
    const free = s.table.humans.filter((p) => p !== (s.table.host ?? 0) && !s.table.claimed.includes(p)).length;
    const when = s.table.starts_in === null || s.table.starts_in === undefined ? ""
      : ` It starts within ${s.table.starts_in} seconds, computers taking the seats nobody took.`;
    $("lobby-lead").textContent = (host
      ? `Your table is open: people on this server see it under “Open tables” and take its seats. ${plural(free, "seat")} still free.`
      : `Waiting for ${hostName()} to start the match. ${plural(free, "seat")} still free.`) + when;
  }
  $("lobby-seats").replaceChildren(...bySeatOrder().map((seat) => {
    const row = friendRow(seat, { links: host, tools: false });
    if (host && s.table.open && s.table.claimed.includes(seat.player)) {
      const free = button("Free this seat", "unseat", () => send({ type: "unseat", player: seat.player }));
      free.setAttribute("aria-label", `Free ${seat.name}'s seat for someone else`);
      row.append(free);
    }
    return row;
  }));
  const notice = host && !s.table.open ? loopbackNotice() : null;   // (an open table has no links)
  $("lobby-loopback").replaceChildren(...(notice ? [notice] : []));
  $("lobby-host").hidden = !host;
  if (host && s.table.open) {
    $("start-note").textContent = `Start whenever you like: the computer (${s.table.standin || "simple"}) plays the seats nobody took.`;
  } else if (host) {
    $("start-note").textContent = missing.length
      ? `A seat whose friend has not come yet is played by the computer (${s.table.standin || "simple"}) until they arrive; they get it back when they open their link.`
      : "Everyone has opened their link.";
  }
}

// Seats and the friends' rows again (a presence event changed who is here).
function renderSeatsAndFriends() {
  if (app.state.table.lobby) renderLobby(); else renderSeats();
  renderInvites();
}

// Seconds left before the computer moves for someone (state.table.timer), counted down here.
function renderCountdowns() {
  const els = document.querySelectorAll("[data-countdown]");
  const t = app.timerUntil;
  for (const el of els) {
    const left = t ? Math.max(0, Math.ceil((t.until - Date.now()) / 1000)) : 0;
    el.textContent = t ? `${left} s` : "";
  }
  clearTimeout(app.countdownTick);
  if (t && els.length && t.until > Date.now()) app.countdownTick = setTimeout(renderCountdowns, 500);
}

function placeWords(seat) {
  // The last player keeps their cards: they did not go out.
  return seat.cards > 0 ? `left holding cards, ${ordinal(seat.place)}` : `out ${ordinal(seat.place)}`;
}

// "1st · President", or just "3rd" where the rules name the place by its number (house).
function placeTitle(seat) {
  return seat.title === ordinal(seat.place) ? seat.title : `${ordinal(seat.place)} · ${seat.title}`;
}

function placeStatus(seat) {
  return seat.title === ordinal(seat.place) ? placeWords(seat) : `${placeWords(seat)}, ${seat.title}`;
}

function ordinal(n) {
  const suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

function levelWords(level) { return level === "human" ? "friend" : level; }

// The other seats around the oval, clockwise from your left; your own seat marker at the
// bottom of the felt.
function renderSeats() {
  const s = app.state;
  const ul = $("opponents");
  const n = s.seats.length;
  const bubbles = passBubbles();
  ul.innerHTML = "";
  for (let k = 1; k < n; k++) {
    const seat = s.seats[(me() + k) % n];
    const li = document.createElement("li");
    li.className = "opponent seat";
    li.dataset.seat = String(seat.seat);
    li.dataset.order = String(k);
    const acting = s.to_act === seat.seat;
    if (acting) li.classList.add("to-act");
    if (seat.place) li.classList.add("out");
    if (app.justOut === seat.seat) li.classList.add("just-out");
    const was = previousTitle(seat);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    const head = document.createElement("span");
    head.className = "head";
    head.append(name);
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.innerHTML = '<span class="level"></span>';
    meta.querySelector(".level").textContent = seat.standin ? `computer (${seat.standin})`
      : seat.host && friendsTable() ? "host" : levelWords(seat.level);
    const here = presenceWords(seat);
    if (here !== null) {
      const dot = document.createElement("span");
      dot.className = `presence ${seat.online ? "on" : "off"}`;
      dot.textContent = seat.online ? "online" : "away";
      meta.append(" · ", dot);
    }
    if (seat.seat === s.dealer) meta.insertAdjacentHTML("beforeend", ' <span class="chip dealer" title="Dealer">dealer</span>');
    if (was) {
      const t = document.createElement("span");
      t.className = "chip title";
      t.title = "Title from the last deal";
      t.textContent = was;
      meta.append(" ", t);
    }
    li.append(head, meta);
    // Cards held, as backs and a number; none once out (a lone "0" read like a score).
    if (seat.cards > 0 || !seat.place) {
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(seat.cards, 5); i++) backs.insertAdjacentHTML("beforeend", '<span class="back"></span>');
      backs.insertAdjacentHTML("beforeend", `<span class="count">${seat.cards}</span>`);
      li.append(backs);
    }
    const status = [];
    if (seat.place) {
      const badge = document.createElement("span");
      badge.className = "place-badge";
      badge.textContent = placeTitle(seat);
      li.append(badge);
      status.push(placeStatus(seat));
    } else if (acting && s.phase === "play") {
      const t = document.createElement("span");
      t.className = "turn";
      t.textContent = "to play…";
      li.append(t);
      status.push("to play");
    } else if (acting && s.phase === "exchange") {
      const t = document.createElement("span");
      t.className = "turn";
      t.textContent = "to give…";
      li.append(t);
      status.push("to give cards");
    }
    if (acting && app.timerUntil?.player === seat.player) {
      const c = document.createElement("span");
      c.className = "countdown";
      c.title = "The computer moves for them in";
      c.innerHTML = 'computer in <span data-countdown></span>';
      li.append(c);
    }
    if (bubbles.has(seat.seat) && !seat.place) {
      li.insertAdjacentHTML("beforeend", '<span class="bubble">Pass</span>');
      status.push("passed");
    }
    if (scored()) status.push(plural(s.scores[seat.player], "point"));
    const who = [seat.host && friendsTable() ? "host" : levelWords(seat.level), here].filter(Boolean).join(", ");
    li.setAttribute("aria-label", `${seat.name}, ${who}: ${plural(seat.cards, "card")}`
      + `${seat.seat === s.dealer ? ", dealer" : ""}${was ? `, was ${was}` : ""}`
      + `${status.length ? ", " + status.join(", ") : ""}`);
    ul.append(li);
  }
  app.justOut = null;
  const mine = s.seats[me()];
  const my = $("my-seat");
  my.innerHTML = "";
  my.classList.toggle("to-act", myTurn());
  my.append(mine.place ? `You · ${placeTitle(mine)}` : "You");
  if (mine.host && friendsTable()) my.insertAdjacentHTML("beforeend", ' <span class="chip host">host</span>');
  if (mine.seat === s.dealer) my.insertAdjacentHTML("beforeend", ' <span class="chip dealer">dealer</span>');
  const was = previousTitle(mine);
  if (was) my.insertAdjacentHTML("beforeend", ` <span class="chip title">${was}</span>`);
  if (bubbles.has(mine.seat) && !mine.place) my.insertAdjacentHTML("beforeend", '<span class="bubble">Pass</span>');
  layoutSeats();
}

// Place the seats on an oval: you at the bottom (90°), the others clockwise from your left,
// each kept wholly inside the felt; then the pile goes where no seat box covers it (if it
// finds no room, the seats spread to the felt's edge and it looks again).
function layoutSeats() {
  const felt = $("felt");
  const W = felt.clientWidth;
  const H = felt.clientHeight;
  for (const spread of [0.92, 1]) {
    if (layoutPile(W, H, placeSeats(W, H, spread), spread === 1)) return;
  }
}

function placeSeats(W, H, spread) {
  const seats = [...document.querySelectorAll("#opponents .seat")];
  const n = seats.length + 1;
  const boxes = [];
  seats.forEach((li, i) => {
    const k = i + 1;
    const angle = (Math.PI / 180) * (90 + (360 * k) / n);
    const w = li.offsetWidth;
    const h = li.offsetHeight;
    let x = W / 2 + (W / 2 - w / 2) * Math.cos(angle) * 0.98;
    let y = H / 2 + (H / 2 - h / 2) * Math.sin(angle) * spread;
    x = Math.min(W - w / 2 - 2, Math.max(w / 2 + 2, x));
    y = Math.min(H - h / 2 - 2, Math.max(h / 2 + 2, y));
    boxes.push({ li, x, y, w, h });
  });
  // On a short felt (a phone with many players, the exchange panel or a hand of several rows
  // under it) neighbours on the ellipse can cover each other: push such pairs apart up and
  // down, each kept on the felt.
  // Your own seat's chip at the bottom stays where it is.
  const mine = $("my-seat");
  const fixed = mine.offsetHeight
    ? [{ x: W / 2, y: mine.offsetTop + mine.offsetHeight / 2, w: mine.offsetWidth, h: mine.offsetHeight, fixed: true }] : [];
  const all = [...boxes, ...fixed];
  for (let round = 0; round < 24; round += 1) {
    let moved = false;
    for (let i = 0; i < all.length; i += 1) {
      for (let j = i + 1; j < all.length; j += 1) {
        const [a, b] = all[i].y <= all[j].y ? [all[i], all[j]] : [all[j], all[i]];
        const across = Math.abs(a.x - b.x) < (a.w + b.w) / 2 + 2;
        const need = (a.h + b.h) / 2 + 3 - (b.y - a.y);
        if (!across || need <= 0.5) continue;
        const upShare = a.fixed ? 0 : b.fixed ? 1 : 0.5;
        a.y = Math.max(a.h / 2 + 2, a.y - need * upShare);
        b.y = Math.min(H - b.h / 2 - 2, b.y + need * (1 - upShare));
        moved = true;
      }
    }
    if (!moved) break;
  }
  for (const b of boxes) {
    b.li.style.left = `${b.x}px`;
    b.li.style.top = `${b.y}px`;
    Object.assign(b, { left: b.x - b.w / 2, right: b.x + b.w / 2, top: b.y - b.h / 2, bottom: b.y + b.h / 2 });
  }
  const my = $("my-seat");
  if (my.offsetHeight) {
    const w = my.offsetWidth;
    boxes.push({ left: W / 2 - w / 2, right: W / 2 + w / 2, top: my.offsetTop, bottom: my.offsetTop + my.offsetHeight });
  }
  return boxes;
}

// The pile sits in the middle (a little above it) unless a seat box would cover it: then it
// moves up or down into a free band of its column, narrower if need be, and last without
// the row of earlier plays (those stay in the pile's hidden text for screen readers).
// False when no band has room (with `last`, it is then left in the middle, compact).
function layoutPile(W, H, boxes, last) {
  const pile = $("pile");
  const gap = 4;
  pile.style.maxWidth = "";
  pile.style.top = "";
  pile.classList.remove("compact");
  const base = pile.offsetWidth;
  if (!base) return true;
  const want = H * 0.46;
  let best = null;
  for (const compact of [false, true]) {
    pile.classList.toggle("compact", compact);
    for (const scale of [1, 0.85, 0.7, 0.55]) {
      const pw = Math.round(base * scale);
      pile.style.maxWidth = `${pw}px`;
      const ph = pile.offsetHeight;
      const left = W / 2 - pw / 2 - gap;
      const right = W / 2 + pw / 2 + gap;
      const walls = boxes.filter((b) => b.right > left && b.left < right)
        .map((b) => [b.top - gap, b.bottom + gap]).sort((a, b) => a[0] - b[0]);
      // Free bands of the pile's column, top to bottom, and the spot in each nearest the middle.
      let from = 2;
      const bands = [];
      for (const [t, b] of walls) { if (t > from) bands.push([from, t]); from = Math.max(from, b); }
      if (H - 2 > from) bands.push([from, H - 2]);
      for (const [a, b] of bands) {
        if (b - a < ph) continue;
        const centre = Math.min(b - ph / 2, Math.max(a + ph / 2, want));
        const cost = Math.abs(centre - want) + (1 - scale) * 400;
        if (!best || cost < best.cost) best = { cost, centre, pw, compact };
      }
    }
    if (best) break;
  }
  if (!best && !last) return false;
  if (!best) best = { centre: want, pw: base, compact: true };
  pile.classList.toggle("compact", best.compact);
  pile.style.maxWidth = best.pw === base ? "" : `${best.pw}px`;
  pile.style.top = `${best.centre}px`;
  return true;
}

function renderPile() {
  const s = app.state;
  const toBeat = $("to-beat");
  const cards = $("pile-cards");
  const under = $("pile-under");
  cards.innerHTML = "";
  under.innerHTML = "";
  // At a deal's end its last pile is still on the table (the cards of its last plays are
  // neither in the discard nor in a hand): it stays in view under "The deal is over".
  const pile = s.phase === "exchange" ? [] : s.pile;
  $("pile").classList.toggle("empty", !pile.length);
  if (s.phase === "exchange") {
    toBeat.textContent = "Exchange before the deal";
  } else if (s.phase !== "play") {
    const top = pile[pile.length - 1];
    if (top) {
      cards.append(facesImage(top.cards));
      toBeat.replaceChildren(`The deal is over. Last play: ${playWords(top.cards)} by `,
        ...named`${nameIn(top.seat)}.`);
    } else {
      toBeat.textContent = "The deal is over";
    }
  } else if (s.to_beat) {
    const top = pile[pile.length - 1];
    cards.append(facesImage(top.cards));
    toBeat.innerHTML = "";
    const who = document.createElement("span");
    who.replaceChildren(`To beat: ${playWords(top.cards)} by `, ...named`${nameIn(top.seat)}. `);
    const need = document.createElement("strong");
    need.textContent = s.to_beat.needs;   // the server's words, from the rules kernel
    toBeat.append(who, need);
  } else {
    toBeat.replaceChildren("Empty pile: ", ...named`${nameOf(s.to_act)} ${s.to_act === me() ? "lead" : "leads"} any single, pair, triple or four of a kind`);
    if (s.reversed) toBeat.append(" (the order is reversed: lower ranks beat)");
  }
  // Earlier plays of this pile, tucked under the play to beat (the four latest).
  for (const p of pile.slice(0, -1).slice(-4)) {
    const box = document.createElement("span");
    box.className = "under-play";
    box.append(facesImage(p.cards));
    const who = document.createElement("span");
    who.textContent = nameOf(p.seat);
    box.append(who);
    under.append(box);
  }
  const earlier = pile.slice(0, -1).map((p) => `${isolated(nameOf(p.seat))}: ${p.cards.map(cardText).join(" ")}`);
  $("pile-history").textContent = earlier.length ? `Earlier on this pile — ${earlier.join(" · ")}` : "";
  $("pile").dataset.count = s.to_beat ? String(s.to_beat.count) : "0";
  $("discard-count").textContent = String(s.cleared);
  $("discard").setAttribute("aria-label", `Discard: ${plural(s.cleared, "card")}`);
  layoutSeats();
}

function renderHand() {
  const s = app.state;
  const hand = $("hand");
  const focused = document.activeElement?.dataset?.card;
  hand.innerHTML = "";
  // By default the cards that cannot be part of any legal action now are dimmed, so the
  // playable ones stand out (Options: "Highlight cards you can play").
  const marking = prefs().highlight && myTurn();
  const playable = marking ? playableCards() : new Set();
  const received = new Set();
  for (const x of s.exchange.mine) if (x.receiver === me()) for (const c of x.cards) received.add(c);
  for (const c of s.hand) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card";
    b.dataset.card = c;
    b.append(cardFace(c));
    const sel = app.selected.has(c);
    b.setAttribute("aria-pressed", sel ? "true" : "false");
    const notes = [];
    if (playable.has(c)) { b.classList.add("playable"); notes.push("playable"); }
    else if (marking) { b.classList.add("dim"); notes.push("cannot be played now"); }
    if (received.has(c) && s.phase !== "match-over") { b.classList.add("received"); notes.push("received in the exchange"); }
    if (notes.length) {
      const extra = document.createElement("span");
      extra.className = "visually-hidden";
      extra.textContent = `, ${notes.join(", ")}`;
      b.append(extra);
    }
    // A press of a finger or the mouse selects at once (bindHandDrag); the click that
    // follows it (detail > 0) is that same press. A click that no press made (Enter, Space,
    // a screen reader: detail 0) toggles the card.
    b.addEventListener("click", (e) => { if (!e.detail) toggle(c); });
    hand.append(b);
  }
  layoutHand();
  if (focused) hand.querySelector(`[data-card="${focused}"]`)?.focus({ preventScroll: true });
}

// The hand: every card keeps a part at least TAP px wide and TAP px tall that a finger can
// hit, with its rank and suit in it. The cards overlap in a row as much as that allows; a
// hand that does not fit in one row takes as many rows as it needs (13 cards on a 360-px
// phone: two rows of 7; 18: three rows of 6), each row over the lower half of the one above
// it. The felt gives up the height of the extra rows, kept for the whole deal so that the
// hand never moves while it shrinks.
const TAP = 45;          // px: 44 px, the least a finger needs, and 1 px spare for rounding
const RAISE_ROWS = 7;    // px: how far a selected card rises when the hand has several rows
function layoutHand() {
  const hand = $("hand");
  const cards = hand.querySelectorAll(".card");
  const n = cards.length;
  if (!n) { hand.style.gridTemplateColumns = ""; hand.style.gridTemplateRows = ""; return; }
  const w = cards[0].offsetWidth || 52;
  const h = cards[0].offsetHeight || Math.round(w * 1.4);
  const room = hand.clientWidth - 2;
  // A short window (a phone on its side) has no height for a second row: one row there,
  // as tight as it must be (18 cards at 740x360: 37 px a card).
  const short = window.matchMedia?.("(max-height: 520px)").matches;
  const fit = short ? n : Math.max(1, Math.floor((room - w) / TAP) + 1);
  const rows = Math.ceil(n / fit);
  const cols = Math.ceil(n / rows);
  const step = cols > 1 ? Math.min(w + 5, Math.floor(((room - w) / (cols - 1)) * 100) / 100) : w;
  const rowStep = TAP + RAISE_ROWS;
  hand.style.gridTemplateColumns = cols > 1 ? `repeat(${cols - 1}, ${step}px) ${w}px` : `${w}px`;
  hand.style.gridTemplateRows = rows > 1 ? `repeat(${rows - 1}, ${rowStep}px) ${h}px` : `${h}px`;
  hand.dataset.rows = String(rows);
  if (rows > 1) hand.style.setProperty("--raise", `${RAISE_ROWS}px`);
  else hand.style.removeProperty("--raise");
  // The extra rows' height, the most this deal has needed, comes off the felt.
  const s = app.state;
  const key = s ? `${s.table.match_number}.${s.deal}.${s.you.seat}` : "";
  if (!app.handRows || app.handRows.key !== key || app.handRows.room !== room) app.handRows = { key, room, rows };
  app.handRows.rows = Math.max(app.handRows.rows, rows);
  const extra = `${(app.handRows.rows - 1) * rowStep}px`;
  if ($("table").style.getPropertyValue("--hand-extra") !== extra) {
    $("table").style.setProperty("--hand-extra", extra);
    layoutSeats();
  }
}

// Sliding a finger (or the mouse, held down) across the hand selects every card it passes
// over, or deselects them when the first card pressed was selected: a whole rank in one move.
function bindHandDrag() {
  const hand = $("hand");
  let drag = null;   // {id: the pointer, on: select or deselect, seen: cards passed, changed}
  const pass = (card) => {
    drag.seen.add(card);
    if (app.selected.has(card) === drag.on) return;
    drag.changed.push(card);
    setSelected(card, drag.on);
  };
  hand.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !app.state) return;
    const b = e.target.closest(".card");
    if (!b) return;
    const c = b.dataset.card;
    drag = { id: e.pointerId, on: !app.selected.has(c), seen: new Set(), changed: [] };
    if (b.hasPointerCapture(e.pointerId)) b.releasePointerCapture(e.pointerId);
    pass(c);
  });
  window.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const b = document.elementFromPoint(e.clientX, e.clientY)?.closest("#hand .card");
    if (b && !drag.seen.has(b.dataset.card)) pass(b.dataset.card);
  });
  window.addEventListener("pointerup", (e) => { if (drag && e.pointerId === drag.id) drag = null; });
  // The browser took the touch for a scroll of the page: what this touch changed is undone.
  window.addEventListener("pointercancel", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    for (const c of drag.changed) setSelected(c, !drag.on);
    drag = null;
  });
}

function setSelected(card, on) {
  if (!app.state || on === app.selected.has(card)) return;
  if (on) app.selected.add(card); else app.selected.delete(card);
  $("hand").querySelector(`[data-card="${card}"]`)?.setAttribute("aria-pressed", on ? "true" : "false");
  setMessage("");
  renderControls();
}

function toggle(card) {
  setSelected(card, !app.selected.has(card));
}

function renderYou() {
  const s = app.state;
  const seat = s.seats[me()];
  $("your-name").textContent = seat.name;
  // What you are to do comes first: on a phone the line is cut at its end.
  const bits = [];
  if (seat.standin) bits.push(`a computer (${seat.standin}) plays for you now`);
  else if (myTurn()) bits.push(s.phase === "exchange" ? "your turn to give" : "your turn");
  bits.push(plural(seat.cards, "card"));
  if (seat.place) bits.push(placeStatus(seat));
  if (scored()) bits.push(plural(s.scores[seat.player], "point"));
  if (!seat.standin && !myTurn() && seat.place && s.phase === "play") bits.push("the others play on until every place is known");
  const info = $("your-info");
  const shown = document.createElement("span");
  const rest = document.createElement("span");
  rest.className = "visually-hidden";
  shown.textContent = `· ${bits.join(" · ")}`;
  info.replaceChildren(shown, rest);
  if (myTurn() && app.timerUntil?.player === seat.player) {
    info.insertAdjacentHTML("beforeend", ' · <span class="countdown">the computer moves for you in <span data-countdown></span></span>');
  }
  // A line too long for its width (a phone) is shortened, never cut: its last parts go (to
  // screen readers only), the first, what you are to do, always stays; if even that is too
  // long, the line wraps.
  const title = $("you-title");
  title.classList.remove("wrap");
  let keep = bits.length;
  while (keep > 1 && title.scrollWidth > title.clientWidth + 1) {
    keep -= 1;
    shown.textContent = `· ${bits.slice(0, keep).join(" · ")}`;
    rest.textContent = ` · ${bits.slice(keep).join(" · ")}`;
  }
  if (title.scrollWidth > title.clientWidth + 1) title.classList.add("wrap");
  document.querySelector(".you").classList.toggle("to-act", myTurn());
}

// Why Hint cannot help now, or null when it can.
function hintBlocked() {
  const s = app.state;
  if (!myTurn()) return "not your turn";
  if (s.phase === "play" && s.legal.length === 1 && s.legal[0] === "pass") return "nothing you hold beats the pile";
  if (s.phase === "exchange" && s.exchange.pending?.forced && s.legal.filter((a) => a !== "pass").length <= 1) {
    return "the cards to give are forced";
  }
  return null;
}

function renderControls() {
  const s = app.state;
  const playing = s.phase === "play" && myTurn();
  const over = dealOver();
  const onlyPass = playing && s.legal.length === 1 && s.legal[0] === "pass";
  $("play").disabled = !playing || app.selected.size === 0;
  $("pass").disabled = !playing || !s.legal.includes("pass");
  // Blocked, Hint stays tappable (greyed, aria-disabled) so that a tap says why: a touch
  // screen never shows the title. It is disabled only while a hint is on its way.
  const blocked = hintBlocked();
  $("hint").disabled = app.hinting;
  $("hint").setAttribute("aria-disabled", String(app.hinting || blocked !== null));
  $("hint").title = blocked ? `Hint: ${blocked}` : "Ask a computer player for a suggestion";
  $("clear").disabled = app.selected.size === 0;
  for (const id of ["play", "pass", "hint", "clear"]) $(id).hidden = over;
  $("show-result").hidden = !over || !$("result").hidden;
  let why = "";
  if (over) why = s.table.kind === "practice" ? "The round is over." : s.phase === "match-over" ? "The match is over." : "The deal is over.";
  else if (s.seats[me()].standin) why = named`A computer plays for you now; ${hostName()} (the host) can give your seat back.`;
  else if (s.phase === "exchange") why = myTurn() ? "Give your cards above the hand." : named`Waiting for ${nameOf(s.to_act)} to give cards…`;
  else if (!myTurn()) why = s.to_act === null ? "" : named`Waiting for ${nameOf(s.to_act)}…`;
  else if (onlyPass) why = `Nothing you hold beats ${playWords(s.to_beat.cards)}: pass.`;
  else if (app.selected.size === 0) {
    why = s.to_beat ? `Select ${plural(s.to_beat.count, "card")} of one rank to play, or pass.`
      : "Select a card, or cards of one rank, to lead.";
  }
  $("play-why").replaceChildren(...[why].flat());
}

function renderExchange() {
  fillExchange();
  fitExchangeSummary();
}

// The summary after an exchange sits in the page's flow between the announcement and your
// hand (style.css, .exchange.after), never over the cards: the felt gives up that height
// while it shows, so the hand stays where it was; the seats are placed again on the new felt.
function fitExchangeSummary() {
  const box = $("exchange-panel");
  const felt = $("felt");
  // In the page's flow (the summary after the exchange; on a phone the exchange itself too):
  // the felt gives up the panel's height.
  const inFlow = !box.hidden && getComputedStyle(box).position === "static";
  const want = inFlow ? `${Math.ceil(box.offsetHeight + parseFloat(getComputedStyle(box).marginTop || "0"))}px` : "";
  if (felt.style.getPropertyValue("--felt-less") === want) return;
  if (want) felt.style.setProperty("--felt-less", want);
  else felt.style.removeProperty("--felt-less");
  layoutSeats();
}

function fillExchange() {
  const s = app.state;
  const box = $("exchange-panel");
  const pending = s.exchange.pending;
  const mine = s.exchange.mine;
  // After the exchange, the summary stays until you first play or pass in this deal.
  const acted = app.dealEvents.some((e) => (e.kind === "played" || e.kind === "passed") && e.seat === me());
  const justAfter = s.phase === "play" && mine.length > 0 && !acted;
  if (s.phase !== "exchange" && !justAfter) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.classList.toggle("after", s.phase !== "exchange");
  box.innerHTML = "";
  const h = document.createElement("h2");
  h.textContent = "Exchange";
  box.append(h);
  for (const x of mine) {
    const p = document.createElement("p");
    p.className = "exchange-done";
    p.append(...(x.giver === me()
      ? [`You gave ${x.cards.map(cardText).join(", ")} to `, ...named`${nameOf(x.receiver)}.`]
      : [...named`${nameOf(x.giver)} gave you `, `${x.cards.map(cardText).join(", ")}.`]));
    box.append(p);
  }
  if (!pending) return;
  const p = document.createElement("p");
  const many = plural(pending.count, "card");
  const highest = pending.count === 1 ? "highest card" : `${pending.count} highest cards`;
  if (pending.giver !== me()) {
    const back = s.rules.give_back === "lowest" ? `gives back their lowest ${many}` : `gives back ${many}`;
    p.append(...named`Waiting: ${nameOf(pending.giver)} ${pending.forced ? `must give their ${highest}` : back} to ${pending.receiver === me() ? "you" : nameOf(pending.receiver)}.`);
    if (pending.forced) {
      // The one who receives the bottom's best cards gives back as many next.
      const then = document.createElement("span");
      then.className = "then";
      then.append(" ", ...(pending.receiver === me()
        ? [`Then you give ${many} back: you choose ${pending.count === 1 ? "which" : "which ones"}${s.rules.give_back === "lowest" ? " (your lowest)" : ""}.`]
        : named`Then ${nameOf(pending.receiver)} gives ${many} back.`));
      p.append(then);
    }
    box.append(p);
    return;
  }
  const actions = document.createElement("div");
  actions.className = "dialog-actions";
  if (!pending.forced && s.rules.give_back === "lowest") {
    // Seed 004: the President and Vice-President give back their lowest cards.
    const options = s.legal.filter((a) => a !== "pass");
    const lowest = pending.count === 1 ? "lowest card" : `${pending.count} lowest cards`;
    p.append(`Give back your ${lowest} to `, ...named`${nameOf(pending.receiver)}${options.length > 1 ? "; choose which of the equal cards." : "."}`);
    for (const opt of options) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = options.length === 1 ? "primary" : "give-option";
      if (options.length === 1) b.id = "give-forced";
      b.textContent = `Give ${opt.map(cardText).join(", ")}`;
      b.onclick = () => sendAction({ type: "give", cards: opt });
      actions.append(b);
    }
  } else if (pending.forced) {
    const options = s.legal.filter((a) => a !== "pass");
    if (options.length === 1) {
      p.append(`You finished last: you must give your ${highest} to `, ...named`${nameOf(pending.receiver)}.`);
      const b = document.createElement("button");
      b.type = "button";
      b.id = "give-forced";
      b.className = "primary";
      b.append(`Give ${options[0].map(cardText).join(", ")} to `, ...named`${nameOf(pending.receiver)}`);
      b.onclick = () => sendAction({ type: "give", cards: options[0] });
      actions.append(b);
    } else {
      p.append(`You finished last: give your ${highest} to `, ...named`${nameOf(pending.receiver)}; choose which of the equal cards.`);
      for (const opt of options) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "give-option";
        b.textContent = `Give ${opt.map(cardText).join(", ")}`;
        b.onclick = () => sendAction({ type: "give", cards: opt });
        actions.append(b);
      }
    }
  } else {
    p.append(`Choose ${many} from your hand to give back to `, ...named`${nameOf(pending.receiver)}, then press Give.`);
    const b = document.createElement("button");
    b.type = "button";
    b.id = "give-selected";
    b.className = "primary";
    b.append("Give selected to ", ...named`${nameOf(pending.receiver)}`);
    b.onclick = () => {
      if (app.selected.size !== pending.count) { setMessage(`Select exactly ${many} to give.`); return; }
      sendAction({ type: "give", cards: [...app.selected] });
    };
    actions.append(b);
  }
  box.append(p, actions);
}

// The scoreboard: a row per player (name, total, then each deal's place and title, the
// latest deal first), so seven players fit a narrow column; more deals scroll inside it.
function renderScores() {
  const s = app.state;
  const panel = $("scores-panel");
  if (s.table.kind !== "match") { panel.hidden = true; return; }
  panel.hidden = false;
  const points = scored();
  $("scores-title").textContent = points ? "Scores" : "Deals (no points: roles only)";
  const t = $("scores");
  t.innerHTML = "";
  const deals = s.deals.slice().reverse();
  const head = document.createElement("tr");
  head.innerHTML = "<th scope=\"col\">Player</th>";
  if (points) head.insertAdjacentHTML("beforeend", "<th scope=\"col\" class=\"total\">Total</th>");
  for (const d of deals) head.insertAdjacentHTML("beforeend", `<th scope="col" class="deal">Deal ${d.number}</th>`);
  const thead = document.createElement("thead");
  thead.append(head);
  t.append(thead);
  const body = document.createElement("tbody");
  for (let p = 0; p < s.players.length; p++) {
    const tr = document.createElement("tr");
    tr.dataset.player = String(p);
    if (p === s.you.player) tr.className = "me";
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = s.players[p];
    tr.append(th);
    if (points) {
      const td = document.createElement("td");
      td.className = "total";
      td.dataset.player = String(p);
      td.textContent = String(s.scores[p]);
      tr.append(td);
    }
    for (const d of deals) {
      const i = d.order.findIndex((o) => o.player === p);
      const o = d.order[i];
      const td = document.createElement("td");
      const place = document.createElement("span");
      place.className = "place";
      place.textContent = ordinal(i + 1);
      td.append(place, `${o.title}${points && o.points ? ` +${o.points}` : ""}`);
      tr.append(td);
    }
    body.append(tr);
  }
  t.append(body);
}

// Cards of each rank played face up this deal (public information: the server counts them).
function renderGone() {
  const list = $("gone");
  list.innerHTML = "";
  for (const [rank, n] of app.state.gone || []) {
    const li = document.createElement("li");
    li.dataset.rank = rank;
    li.innerHTML = `<b></b><span></span>`;
    li.querySelector("b").textContent = rank;
    li.querySelector("span").textContent = `${n}/4`;
    li.setAttribute("aria-label", `${RANK_PLURAL[rank]}: ${n} of 4 gone`);
    if (n === 4) li.classList.add("all");
    list.append(li);
  }
}

function renderRules() {
  const dl = $("rules-text");
  dl.innerHTML = "";
  for (const r of app.rules) {
    const dt = document.createElement("dt");
    dt.textContent = r.label;
    const [q, help] = helpToggle(r.label.toLowerCase(), r.help);
    dt.append(q);
    const dd = document.createElement("dd");
    dd.textContent = r.text.charAt(0).toUpperCase() + r.text.slice(1) + ".";
    dd.append(help);
    dl.append(dt, dd);
  }
}

function resultKey() { return `${app.state.deal}:${app.state.phase}`; }
function fullKey(s = app.state) { return `${s.table.match_number || 1}:${s.deal}:${s.phase}`; }

// Move on from this result (next deal or rematch): this page's own view closes when it comes.
function moveOn(type, force = false) {
  app.askedNext = fullKey();
  send(force ? { type, force: true } : { type });
}

// Friends' tables: "Next deal" / "Play again" says ready; the page then names who it waits
// for, and the host may start at once.
function readyControls(body, actions, type, label, forceLabel) {
  const s = app.state;
  const ready = new Set(s.table.ready || []);
  const mine = ready.has(s.you.player);
  const waiting = s.seats.filter((x) => x.online && !x.standin && !ready.has(x.player) && x.player !== s.you.player);
  const line = document.createElement("p");
  line.id = "ready-line";
  line.className = "ready-line";
  const list = (seats) => seats.flatMap((x, i) => [i ? (i === seats.length - 1 ? " and " : ", ") : "", ...named`${x.name}`]);
  if (mine) {
    line.append(...(waiting.length ? ["Ready — waiting for ", ...list(waiting), "…"] : ["Ready."]));
  } else {
    actions.append(button(label, "primary", () => moveOn(type)));
    const others = s.seats.filter((x) => ready.has(x.player) && x.player !== s.you.player);
    if (others.length) line.append("Ready: ", ...list(others), ".");
  }
  if (line.childNodes.length) body.append(line);
  if (amHost() && waiting.length) {
    actions.append(button(forceLabel, mine ? "primary" : "", () => moveOn(type, true)));
    // What the two buttons do, for the host who sees both.
    const help = document.createElement("p");
    help.id = "ready-help";
    help.className = "ready-help";
    const what = type === "rematch" ? "the new match" : "the next deal";
    if (!mine) help.append(`"${label}" says you are ready: ${what} starts once everyone is. `);
    help.append(`"${forceLabel}" ${type === "rematch" ? "starts it" : "deals"} without waiting for `, ...list(waiting), ".");
    body.append(help);
  }
}

// A result view kept open while the next deal (or a new match) is played: say so.
function renderHeldResult() {
  const body = $("result-body");
  const actions = $("result-actions");
  let note = $("result-moved");
  if (!note) {
    note = document.createElement("p");
    note.id = "result-moved";
    note.className = "result-moved";
    note.setAttribute("role", "status");
    body.prepend(note);
  }
  note.textContent = app.heldResult.match
    ? "A new match has started at this table. Close this view to play."
    : `Deal ${app.state.deal} has started. Close this view to play.`;
  // Your turn with the turn timer running: the countdown here too (the table is behind this
  // view). Its ticking is not read out (aria-live off inside the status line).
  if (myTurn() && app.timerUntil?.player === app.state.seats[me()].player) {
    note.insertAdjacentHTML("beforeend", ' <span class="countdown" aria-live="off">It is your turn: '
      + "the computer moves for you in <span data-countdown></span>.</span>");
  }
  $("ready-line")?.remove();
  $("ready-help")?.remove();
  actions.replaceChildren(button("Go to the table", "primary", closeResult));
  $("show-result").hidden = true;
}

function renderResult() {
  const s = app.state;
  const box = $("result");
  const actions = $("result-actions");
  if (!dealOver()) {
    if (app.heldResult && !box.hidden) { renderHeldResult(); return; }
    app.heldResult = null;
    box.hidden = true;
    return;
  }
  app.heldResult = null;
  if (app.resultClosed === resultKey()) { box.hidden = true; $("show-result").hidden = false; return; }
  const body = $("result-body");
  body.innerHTML = "";
  actions.innerHTML = "";
  const points = scored();
  const last = s.deals[s.deals.length - 1];
  if (s.phase === "match-over" && s.table.kind === "match" && points) {
    // Final standings: totals, highest first (tied leaders share the win).
    const h = document.createElement("h3");
    h.textContent = "Final totals";
    const standings = document.createElement("ol");
    standings.id = "final-standings";
    const order = s.players.map((name, p) => ({ name, p, total: s.scores[p] }))
      .sort((a, b) => b.total - a.total || a.p - b.p);
    for (const o of order) {
      const li = document.createElement("li");
      li.append(...named`${o.name}`, ` — ${plural(o.total, "point")}${s.winners.includes(o.p) ? " (winner)" : ""}`);
      if (o.p === s.you.player) li.classList.add("me");
      standings.append(li);
    }
    body.append(h, standings);
  }
  const caption = document.createElement("h3");
  caption.textContent = s.table.kind === "match" ? `Deal ${last.number}: finishing order` : "Finishing order";
  const ol = document.createElement("ol");
  ol.id = "finish-order";
  for (const o of last.order) {
    const li = document.createElement("li");
    li.append(...named`${o.name}`, ` — ${o.title}${points && o.points ? ` (+${o.points})` : ""}`);
    if (o.player === s.you.player) li.classList.add("me");
    ol.append(li);
  }
  if (s.table.kind === "match") body.append(caption);
  body.append(ol);
  if (s.table.kind === "practice") {
    $("result-title").textContent = "Round over: finishing order";
    actions.append(button("New round", "primary", () => newPractice(false)));
  } else {
    if (points && s.phase !== "match-over") {
      const p = document.createElement("p");
      p.className = "totals-line";
      p.textContent = `Scores: ${scoreLine(s.players, s.scores)}`;
      body.append(p);
    }
    if (s.phase === "match-over") {
      const names = s.winners.map(playerName);
      const mine = s.winners.length === 1 && s.winners[0] === s.you.player;
      $("result-title").replaceChildren(...(names.length === 1
        ? named`Match over: ${names[0]} ${mine ? "win" : "wins"}`
        : ["Match over: ", ...names.flatMap((n, i) => [i ? " and " : "", ...named`${n}`]), " share the win"]));
      // Play again: a new match with the same seats at this table (every page follows).
      if (friendsTable()) readyControls(body, actions, "rematch", "Play again", "Start now");
      else actions.append(button("Play again", "primary", () => moveOn("rematch")));
      actions.append(button("New match", "", () => {
        const saved = store.get(STORE_MATCH);
        if (saved) { store.remove(STORE_MATCH); forgetSeat(saved.table); }
        showStart();
      }));
    } else {
      $("result-title").textContent = `Deal ${s.deal} over`;
      if (friendsTable()) readyControls(body, actions, "next-deal", "Next deal", "Deal now");
      else actions.append(button("Next deal", "primary", () => moveOn("next-deal")));
    }
  }
  actions.append(button("Look at the table", "", closeResult));
  const wasHidden = box.hidden;
  if (wasHidden) landAll();   // the deal's last play lands before its result covers the table
  box.hidden = false;
  $("show-result").hidden = true;
  if (wasHidden) actions.querySelector("button")?.focus();
  else if (!box.contains(document.activeElement)) actions.querySelector("button")?.focus();
}

function closeResult() {
  if (!app.state) return;
  if (app.heldResult && !dealOver()) {   // the deal someone else started: back to the table
    app.heldResult = null;
    $("result").hidden = true;
    render();
    document.querySelector("#hand .card")?.focus({ preventScroll: true });
    return;
  }
  if (!dealOver()) return;
  app.resultClosed = resultKey();
  $("result").hidden = true;
  renderControls();
  $("show-result").focus();
}

function openResult() {
  app.resultClosed = null;
  renderResult();
  renderControls();
}

function button(text, cls, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.className = cls;
  b.onclick = onclick;
  return b;
}

// ----- actions ------------------------------------------------------------------------

async function playSelected() {
  if (!app.state || !myTurn() || app.state.phase !== "play") return;
  if (!app.selected.size) { setMessage("Select one or more cards of one rank first, or pass."); return; }
  const chosen = [...app.selected];
  if (prefs().askTwo && chosen.some((c) => rankOf(c) === "2")) {
    const yes = await confirmBox("Play a 2?", `You are about to play ${chosen.map(cardText).join(", ")}. `
      + "Twos are the highest cards: many players keep them to win a pile later.", "Play it");
    if (!yes || !app.state || !myTurn()) return;
  }
  const cards = [...document.querySelectorAll("#hand .card")].map((b) => b.dataset.card);
  app.lastPlayedIndex = Math.max(0, Math.min(...chosen.map((c) => cards.indexOf(c))));
  // Where your cards leave from: the raised cards themselves.
  const raised = chosen.map((c) => rectOf(document.querySelector(`#hand [data-card="${c}"]`))).filter(Boolean);
  app.playFrom = raised.length ? {
    left: Math.min(...raised.map((r) => r.left)), top: Math.min(...raised.map((r) => r.top)),
    width: Math.max(...raised.map((r) => r.right)) - Math.min(...raised.map((r) => r.left)),
    height: Math.max(...raised.map((r) => r.bottom)) - Math.min(...raised.map((r) => r.top)),
  } : null;
  app.focusHand = true;
  if (app.sentAt === app.state.table.actions) return;   // already sent: wait for its answer
  app.sentAt = app.state.table.actions;
  sendAction({ type: "play", cards: chosen });
}

function askHint() {
  if (!app.state || app.hinting) return;
  const blocked = hintBlocked();
  if (blocked) { setMessage(`No hint: ${blocked}.`, true); return; }
  const level = $("hint-level").value || "simple";
  app.hinting = true;
  renderControls();
  if (level !== "simple") setMessage(`Asking the ${level} player for a hint…`, true);
  send({ type: "hint", level });
}

function pass() {
  if (!app.state || !myTurn() || app.state.phase !== "play") return;
  if (app.sentAt === app.state.table.actions) return;   // already sent: wait for its answer
  app.sentAt = app.state.table.actions;
  app.selected.clear();
  sendAction({ type: "pass" });
  renderHand();
  renderControls();
}

function clearSelection() {
  app.selected.clear();
  setMessage("");
  if (app.state) { renderHand(); renderControls(); }
}

async function newPractice(ask = true) {
  const over = app.state && dealOver();
  if (ask && !over) {
    const yes = await confirmBox("New round?", "The current round will be lost: there is no undo or restart.", "New round");
    if (!yes) return;
  }
  closeSocket();
  tabStore.remove(SESSION_PRACTICE);
  app.state = null;
  show("connecting");
  startPractice();
}

async function leaveMatch() {
  const yes = await confirmBox("Leave this match?",
    "It stays saved on this device; you can continue it from the start screen while the server keeps it.", "Leave match");
  if (!yes) return;
  closeSocket();
  tabStore.set(SESSION_AT_START, "1");
  await showStart();
}

function onKey(e) {
  trapTab(e);
  if (!app.state || $("table").hidden || !$("confirm").hidden) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key.toLowerCase();
  if (key === "escape" && !$("result").hidden) { closeResult(); e.preventDefault(); return; }
  if (key === "arrowleft" || key === "arrowright") {
    const cards = [...document.querySelectorAll("#hand .card")];
    const i = cards.indexOf(document.activeElement);
    if (!cards.length) return;
    const j = i < 0 ? 0 : (i + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length;
    cards[j].focus({ preventScroll: true });
    e.preventDefault();
    return;
  }
  if (!$("paused").hidden) { if (key === "r" && !$("resume").hidden) resume(); return; }
  if (openDialog()) return;
  if (key === "p") { playSelected(); e.preventDefault(); }
  else if (key === "s") { pass(); e.preventDefault(); }
  else if (key === "c" || key === "escape") { clearSelection(); e.preventDefault(); }
  else if (key === "h") { askHint(); e.preventDefault(); }
}

// ----- pausing (seed 003: switching tabs pauses play) ---------------------------------

function onVisibility() {
  if (!document.hidden || !app.state || app.unloading) return;   // leaving the page is no pause
  if (dealOver() || app.state.table.lobby) return;
  if (friendsTable()) return;   // with friends, hiding one page never stops the others
  send({ type: "pause" });
  showPaused(true);
}

function pauseTable() {
  if (!app.state || !friendsTable() || !amHost()) return;
  send({ type: "pause" });
}

function resume() {
  send({ type: "resume" });
  showPaused(false);
  document.querySelector("#hand .card")?.focus({ preventScroll: true });
}

// ----- start --------------------------------------------------------------------------

// The computer level that answers "Hint" (any of /api/options "hint_levels"; seed 003: simple).
async function fillHintLevels(chosen) {
  const sel = $("hint-level");
  let o;
  try { o = await loadOptions(); } catch { return; }
  const keep = sel.value;
  sel.innerHTML = "";
  for (const lv of o.hint_levels || ["simple"]) {
    const opt = document.createElement("option");
    opt.value = lv;
    opt.textContent = lv;
    sel.append(opt);
  }
  const want = chosen || keep || o.default_hint_level;
  sel.value = (o.hint_levels || []).includes(want) ? want : o.default_hint_level;
}

function bindOptions() {
  const p = prefs();
  $("speed").value = p.speed;
  $("auto-pass").checked = p.autoPass;
  $("ask-two").checked = p.askTwo;
  $("highlight").checked = p.highlight;
  fillHintLevels(p.hintLevel);
  $("speed").addEventListener("change", () => {
    setPref("speed", $("speed").value);
    send({ type: "speed", speed: $("speed").value });
  });
  $("auto-pass").addEventListener("change", () => {
    setPref("autoPass", $("auto-pass").checked);
    if (app.state) maybeAutoPass();
  });
  $("ask-two").addEventListener("change", () => setPref("askTwo", $("ask-two").checked));
  $("highlight").addEventListener("change", () => {
    setPref("highlight", $("highlight").checked);
    if (app.state) renderHand();
  });
  $("hint-level").addEventListener("change", () => setPref("hintLevel", $("hint-level").value));
}

// A seat link (`#join=<table>.<token>`), opened on load or pasted into an open tab. A link to
// another seat of a match this device already sits at asks which seat to keep (keeping
// yours is the default: the host trying a friend's link stays the host).
async function openJoin(table, token) {
  history.replaceState(null, "", location.pathname + location.search);
  if (app.joining) return;
  const live = app.session?.table === table && app.ws;
  if (live && app.session.token === token) { if (app.state) show("table"); return; }
  const held = heldSeat(table);
  let use = token;
  if (held && held.token !== token) {
    app.joining = true;
    const mine = held.name ? `${isolated(held.name)}${held.host ? " (the host)" : ""}` : "another player";
    const theirs = (held.invites || app.invites || []).find((i) => i.token === token)?.name;
    const linkSeat = theirs ? `${isolated(theirs)}'s seat` : "another seat";
    const take = await confirmBox("Which seat do you keep?",
      `This browser already sits at this match as ${mine}. The link you opened is ${linkSeat} at the same table`
      + `${held.host ? ": send it to that friend, who opens it on their own device" : ""}. `
      + `Keep your seat, or take the link's seat on this device${held.host ? " (you would no longer be the host here)" : ""}.`,
      theirs ? `Take ${theirs}'s seat` : "Take the link's seat", "Keep my seat", { primary: "no" });
    app.joining = false;
    if (!take) use = held.token;
  }
  if (live && app.session.token === use) { if (app.state) show("table"); return; }
  makeCurrent(table, use);
  connect({ table, token: use, kind: "match" });
}

function relayout() {
  if (!app.state || $("table").hidden) return;
  fitExchangeSummary();
  layoutSeats();
  layoutHand();
  renderYou();
}

async function main() {
  $("start-practice").onclick = startPractice;
  $("play-now").onclick = playNow;
  for (const b of document.querySelectorAll(".home-go")) b.onclick = () => goTo(b.dataset.go);
  $("home-back").onclick = () => { if (history.state?.view) history.back(); else goTo(null, { push: false }); };
  window.addEventListener("popstate", (e) => {
    if (!$("start").hidden) goTo(e.state?.view || null, { push: false });
  });
  $("open-name").value = prefs().name || "";
  setInterval(loadOpenTables, OPEN_REFRESH_MS);
  $("match-form").addEventListener("submit", startMatch);
  $("preset").addEventListener("change", fillPresetDetails);
  $("players").addEventListener("change", fillSeats);
  $("clear-saved").onclick = async () => {
    const yes = await confirmBox("Clear saved matches?", "This removes every saved match and score from this device.", "Clear");
    if (!yes) return;
    store.remove(STORE_MATCH);
    store.remove(STORE_HISTORY);
    store.remove(STORE_SEATS);
    renderSaved();
  };
  $("play").onclick = playSelected;
  $("pass").onclick = pass;
  $("clear").onclick = clearSelection;
  $("hint").onclick = askHint;
  // The table leaves room under its last panel for the fixed action bar, however tall the
  // bar wraps on a narrow screen (a fixed 4.5rem hid the end of the last panel on phones).
  if (window.ResizeObserver) {
    const bar = $("action-bar");
    new ResizeObserver(() => {
      if (bar.offsetHeight) document.documentElement.style.setProperty("--bar-space", `${bar.offsetHeight + 12}px`);
    }).observe(bar);
  }
  // While the server cannot be reached: stop trying and go to the start screen (a match
  // stays under "Saved matches", to continue once the server is back).
  $("connecting-stop").onclick = () => {
    app.retries = 0;
    // a notice over the start screen (cleared by the next table's state), not an error of
    // the match form, which the player has not used
    notice(app.session?.kind === "match"
      ? "The server could not be reached. Your match is kept: choose Continue under "
        + "Saved matches once the server is back."
      : "The server could not be reached. Start a new round once it is back.");
    showStart();
  };
  $("resume").onclick = resume;
  $("pause-table").onclick = pauseTable;
  $("start-now").onclick = () => send({ type: "start" });
  $("invite-toggle").onclick = () => {
    const box = $("invites");
    box.open = true;
    box.scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
    box.querySelector("summary").focus({ preventScroll: true });
  };
  window.addEventListener("hashchange", () => {
    const join = seatFromHash(location.hash);
    if (join === "bad") { history.replaceState(null, "", location.pathname); notice(BAD_LINK); return; }
    if (join) openJoin(join[0], join[1]);   // a seat link pasted into this tab
  });
  $("new-round").onclick = () => newPractice(true);
  $("leave-match").onclick = leaveMatch;
  $("result-close").onclick = closeResult;
  $("show-result").onclick = openResult;
  $("guide-close").onclick = () => { store.set(STORE_GUIDE, true); $("guide").hidden = true; };
  $("show-guide").onclick = () => { $("guide").hidden = false; $("guide-close").focus(); };
  bindOptions();
  bindHandDrag();
  initCompanion({ show, confirmBox, showStart, loadOptions, options: () => app.options });
  initLearn({ facesImage, cardLabel, withSymbols, named, plural, notice });
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("pagehide", () => { app.unloading = true; });
  window.addEventListener("pageshow", () => { app.unloading = false; });
  window.addEventListener("resize", relayout);
  if (window.ResizeObserver) new ResizeObserver(relayout).observe($("felt"));

  // Seed 003: reloading or leaving clears a practice round. Say so instead of dealing a
  // new one silently.
  let stay = tabStore.get(SESSION_AT_START);     // left its match: the start screen again
  if (tabStore.get(SESSION_PRACTICE)) {
    tabStore.remove(SESSION_PRACTICE);
    notice("Reloading the page ended your practice round: a practice round lasts only while its page is open.");
    stay = true;      // the notice, on the start screen: not a saved match opened instead
  }

  const join = seatFromHash(location.hash);
  if (join === "bad") { notice(BAD_LINK); await showStart(); return; }
  if (join) { await openJoin(join[0], join[1]); return; }
  if (wantsCompanion()) { await openCompanion(); return; }   // a reload in the companion
  const saved = store.get(STORE_MATCH);
  // A finished match with friends stays open: the table may play again (rematch).
  const fresh = (saved?.updated || 0) > Date.now() - TABLE_HOURS * 3600 * 1000;
  if (!stay && saved && saved.table && saved.token && (!saved.finished || (saved.friends && fresh))) {
    connect({ table: saved.table, token: saved.token, kind: "match", invites: saved.invites });
    return;
  }
  if (location.hash === "#practice") { startPractice(); return; }
  await showStart();
}

main();

// President in the browser: a plain ES module, no build step, no other host.
// The server sends this seat's view only ("state" and "event" messages, docs/web.md);
// this file draws it and sends the player's choices back.

const $ = (id) => document.getElementById(id);
const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANK_WORDS = { J: "jack", Q: "queen", K: "king", A: "ace" };
const STORE_MATCH = "president.match";
const STORE_HISTORY = "president.history";
const STORE_OPTIONS = "president.options";

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

// ----- state --------------------------------------------------------------------------

const app = {
  options: null,      // GET /api/options
  ws: null,
  session: null,      // {table, token, kind}
  state: null,        // latest "state" message
  selected: new Set(),
  hintShown: null,
  retries: 0,
  leaving: false,
  announceTimer: null,
  dealEvents: [],     // this deal's events as this seat saw them (for the exchange panel)
  focusHand: false,   // after Play: move focus to the hand once the new state is drawn
  hinting: false,
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

function cardFace(card, small = false) {
  const { rank, suit } = cardParts(card);
  const el = document.createElement("span");
  el.className = `face suit-${suit}${small ? " small" : ""}`;
  el.innerHTML = `<span class="rank">${rank}</span><span class="suit" aria-hidden="true">${SUITS[suit][0]}</span>`;
  el.setAttribute("aria-label", cardLabel(card));
  el.setAttribute("role", "img");
  return el;
}

// ----- screens ------------------------------------------------------------------------

function show(screen) {
  for (const id of ["start", "table", "connecting"]) $(id).hidden = id !== screen;
  $("new-round").hidden = !(screen === "table" && app.session?.kind === "practice");
  $("leave-match").hidden = !(screen === "table" && app.session?.kind === "match");
  if (screen !== "table") {
    $("result").hidden = true;
    $("paused").hidden = true;
    $("bar-info").textContent = "";
  }
}

function confirmBox(title, text, yes) {
  return new Promise((resolve) => {
    $("confirm-title").textContent = title;
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes;
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
      if (back && back.focus) back.focus();
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

function showPaused(on) {
  const box = $("paused");
  const was = !box.hidden;
  box.hidden = !on;
  if (on && !was && $("confirm").hidden) $("resume").focus();
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
  const saved = store.get(STORE_OPTIONS, {});
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
  for (const line of p.rules) {
    const li = document.createElement("li");
    li.textContent = line;
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
      tag.textContent = "you";
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
      row.append(sel);
    }
    rows.append(row);
  }
  $("level-note").textContent =
    `Computer levels, weakest to strongest: ${app.options.levels.join(", ")}.`;
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
  for (const h of store.get(STORE_HISTORY, []).slice().reverse()) {
    const li = document.createElement("li");
    const won = h.winners?.length ? `won by ${h.winners.join(" and ")}` : "unfinished";
    const line = h.scoring === false ? "" : ` — ${scoreLine(h.players, h.scores)}`;
    li.textContent = `${new Date(h.when).toLocaleString()}: ${h.rules}, ${h.deals} deal${h.deals === 1 ? "" : "s"}, ${won}${line}`;
    list.append(li);
  }
  if (!list.children.length) {
    const li = document.createElement("li");
    li.className = "empty";
    list.classList.add("empty");
    li.textContent = "Nothing saved.";
    list.append(li);
  }
}

function scoreLine(players, scores) {
  if (!players || !scores) return "";
  return players.map((n, i) => `${n} ${scores[i]}`).join(", ");
}

async function showStart(message = "") {
  closeSocket();
  app.session = null;
  app.state = null;
  if (location.hash) history.replaceState(null, "", location.pathname);
  await loadOptions();
  if (!$("preset").options.length) fillPresets();
  renderSaved();
  $("form-error").textContent = message;
  show("start");
}

async function startPractice() {
  show("connecting");
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
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null) body.seed = Number(seed);   // honoured only by a test server
  store.set(STORE_OPTIONS, { preset: body.preset });
  const r = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const reply = await r.json();
  if (!r.ok) { $("form-error").textContent = reply.message || "The server refused the match."; return; }
  const old = store.get(STORE_MATCH);
  if (old) archive(old);
  store.set(STORE_MATCH, {
    table: reply.table, token: reply.token, rules: ruleName(body), players: names,
    scores: names.map(() => 0), deals: [], invites: reply.invites, started: Date.now(),
  });
  connect({ table: reply.table, token: reply.token, kind: "match", invites: reply.invites });
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
}

// ----- connection ---------------------------------------------------------------------

function closeSocket() {
  if (app.ws) {
    app.leaving = true;
    app.ws.onclose = null;
    app.ws.close();
    app.ws = null;
  }
}

function connect(session) {
  closeSocket();
  app.leaving = false;
  app.session = session;
  app.state = null;
  app.selected.clear();
  app.dealEvents = [];
  $("log").innerHTML = "";
  $("message").textContent = "";
  $("announce").textContent = "";
  show("connecting");
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  app.ws = ws;
  ws.onopen = () => {
    const hello = { type: "hello", table: session.table, token: session.token };
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
    if (session.kind === "match" && app.retries < 5) {
      app.retries += 1;
      setTimeout(() => connect(session), 500 * app.retries);
    } else {
      showStart(session.kind === "practice"
        ? "The connection was lost, which ends a practice round. Start a new one."
        : "The server cannot be reached.");
    }
  };
}

function send(message) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
}

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      app.retries = 0;
      app.session.player = msg.player;
      $("rules-text").textContent = msg.rules.join("\n");
      break;
    case "state":
      onState(msg);
      break;
    case "event":
      onEvent(msg);
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

function onError(msg) {
  app.hinting = false;
  if (app.state) renderControls();
  if (!app.state) {   // the hello was refused
    if (app.session?.kind === "match") {
      const saved = store.get(STORE_MATCH);
      if (saved && saved.table === app.session.table) archive(saved);
    }
    showStart(`That game is no longer available: ${msg.message}`);
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

function addLogLine(text) {
  const li = document.createElement("li");
  li.textContent = text;
  const log = $("log");
  log.append(li);
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function announce(text) {
  const el = $("announce");
  el.textContent = text;
  el.classList.remove("fresh");
  void el.offsetWidth;   // restart the highlight animation
  el.classList.add("fresh");
  addLogLine(text);
}

function onEvent(ev) {
  // A practice round is one standalone deal (seed 003): no match winner to announce.
  if (ev.kind === "match-ended" && app.session?.kind === "practice") return;
  if (ev.kind === "dealt") app.dealEvents = [];
  app.dealEvents.push(ev);
  announce(ev.text);
}

// On joining (a reload, Continue): this deal's events so far, so the play log is whole again.
function onLog(msg) {
  $("log").innerHTML = "";
  app.dealEvents = msg.events.slice();
  for (const ev of msg.events) addLogLine(ev.text);
  const last = msg.events[msg.events.length - 1];
  $("announce").textContent = last ? last.text : "";
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
    if (first) first.focus();
  } else {
    setMessage(`Hint: ${msg.text}`, true);
  }
  if (app.state) renderControls();
}

// ----- state --------------------------------------------------------------------------

function onState(state) {
  const before = app.state;
  app.state = state;
  show("table");
  if (before === null || before.hand.length !== state.hand.length || before.deal !== state.deal) {
    app.selected = new Set([...app.selected].filter((c) => state.hand.includes(c)));
    if (before && (before.hand.length !== state.hand.length || before.deal !== state.deal)) app.selected.clear();
  }
  if (before && before.to_act !== state.to_act) setMessage("");
  if (app.session.kind === "match") saveMatch(state);
  const played = app.focusHand && before && before.hand.length !== state.hand.length;
  render();
  if (played) {
    app.focusHand = false;
    const active = document.activeElement;
    if (!openDialog() && (!active || active === document.body || active.closest("#hand, .controls"))) {
      const cards = [...document.querySelectorAll("#hand .card")];
      if (cards.length) cards[Math.min(app.lastPlayedIndex ?? 0, cards.length - 1)].focus();
    }
  }
}

function saveMatch(state) {
  const saved = store.get(STORE_MATCH) || {};
  if (saved.table && saved.table !== app.session.table) return;
  const next = {
    ...saved, table: app.session.table, token: app.session.token,
    rules: `${state.rules.name} (${state.seats.length} players)`, players: state.players,
    scores: state.scores, deals: state.deals, updated: Date.now(),
    scoring: Array.isArray(state.rules.scoring) && state.rules.scoring.length > 0,
  };
  if (state.snapshot) next.snapshot = state.snapshot;
  store.set(STORE_MATCH, next);
  if (state.phase === "match-over" && !saved.finished) {
    next.finished = true;
    store.set(STORE_MATCH, next);
    const history = store.get(STORE_HISTORY, []);
    history.push({ when: Date.now(), rules: next.rules, players: next.players, scores: next.scores,
      scoring: next.scoring, deals: state.deals.length, winners: state.winners.map((p) => state.players[p]), table: next.table });
    store.set(STORE_HISTORY, history.slice(-50));
  }
}

function me() { return app.state.you.seat; }
function myTurn() { return app.state.to_act === me(); }
function nameOf(seat) { return seat === me() ? "You" : app.state.seats[seat].name; }
function nameIn(seat) { return seat === me() ? "you" : app.state.seats[seat].name; }

function playableCards() {
  const set = new Set();
  for (const a of app.state.legal) if (a !== "pass") for (const c of a) set.add(c);
  return set;
}

function scored() {
  const s = app.state;
  return s.table.kind === "match" && Array.isArray(s.rules.scoring) && s.rules.scoring.length > 0;
}

function render() {
  const s = app.state;
  const deal = s.table.kind === "practice" ? "Practice round" : `${s.rules.name} · deal ${s.deal}`;
  $("bar-info").textContent = `${deal} · dealer: ${nameIn(s.dealer)} · first lead: ${nameIn(s.leader)}`;
  renderInvites();
  renderOpponents();
  renderPile();
  renderHand();
  renderYou();
  renderControls();
  renderExchange();
  renderScores();
  renderResult();
  showPaused(s.table.paused);
  const t = $("table");
  t.dataset.turn = myTurn() ? "you" : "";
  t.dataset.phase = s.phase;
  t.dataset.actions = String(s.table.actions);
}

function renderInvites() {
  const box = $("invites");
  const invites = app.session.invites || store.get(STORE_MATCH)?.invites || [];
  if (!invites.length || app.state.deal > 1 || app.state.you.player !== 0) { box.hidden = true; return; }
  box.hidden = false;
  box.innerHTML = "<h2>Seat links for your friends</h2><p>Send each friend their own link; it is their seat.</p>";
  const ul = document.createElement("ul");
  for (const inv of invites) {
    const li = document.createElement("li");
    const link = `${location.origin}/#join=${app.session.table}.${inv.token}`;
    li.innerHTML = `<strong></strong>: <input readonly class="invite-link">`;
    li.querySelector("strong").textContent = inv.name;
    li.querySelector("input").value = link;
    ul.append(li);
  }
  box.append(ul);
}

function renderOpponents() {
  const s = app.state;
  const ul = $("opponents");
  ul.innerHTML = "";
  const n = s.seats.length;
  for (let k = 1; k < n; k++) {
    const seat = s.seats[(me() + k) % n];
    const li = document.createElement("li");
    li.className = "opponent";
    li.dataset.seat = String(seat.seat);
    if (s.to_act === seat.seat) li.classList.add("to-act");
    if (seat.place) li.classList.add("out");
    const status = [];
    if (seat.place) status.push(`${placeWords(seat)} (${seat.title})`);
    else if (s.to_act === seat.seat) status.push("to play");
    else if (seat.passed) status.push("passed");
    const level = seat.level === "human" ? "friend" : seat.level;
    li.innerHTML = `<div class="opp-name"><span class="name"></span>${seat.seat === s.dealer ? ' <span class="chip" title="dealer">dealer</span>' : ""}</div>
      <div class="opp-meta"><span class="level"></span></div>
      <div class="opp-cards"><span class="count"></span></div>
      <div class="opp-status"></div>`;
    li.querySelector(".name").textContent = seat.name;
    const was = previousTitle(seat);
    li.querySelector(".level").textContent = level + (was ? ` · was ${was}` : "");
    li.querySelector(".count").textContent = `${seat.cards} card${seat.cards === 1 ? "" : "s"}`;
    li.querySelector(".opp-status").textContent = status.join(" · ");
    if (scored()) {
      const sc = document.createElement("div");
      sc.className = "opp-score";
      sc.textContent = `${s.scores[seat.player]} pt${s.scores[seat.player] === 1 ? "" : "s"}`;
      li.append(sc);
    }
    li.setAttribute("aria-label", `${seat.name}: ${seat.cards} cards${status.length ? ", " + status.join(", ") : ""}`);
    ul.append(li);
  }
}

function placeWords(seat) {
  // The last player keeps their cards: they did not go out.
  return seat.cards > 0 ? `last, ${ordinal(seat.place)}` : `out ${ordinal(seat.place)}`;
}

function ordinal(n) {
  const suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

function renderPile() {
  const s = app.state;
  const toBeat = $("to-beat");
  const cards = $("pile-cards");
  cards.innerHTML = "";
  if (s.phase === "exchange") {
    toBeat.textContent = "Exchange before the deal";
  } else if (s.phase !== "play") {
    toBeat.textContent = "The deal is over";
  } else if (s.to_beat) {
    toBeat.textContent = `To beat: ${s.to_beat.text} by ${nameIn(s.to_beat.seat)} — ${beatWords(s.to_beat, s.rules.beat)}`;
    for (const c of s.to_beat.cards) cards.append(cardFace(c));
  } else {
    toBeat.textContent = `Empty pile: ${nameOf(s.to_act)} ${s.to_act === me() ? "lead" : "leads"} any single, pair, triple or four of a kind`;
  }
  const pile = s.phase === "play" ? s.pile : [];
  const earlier = pile.slice(0, -1).map((p) => `${nameOf(p.seat)}: ${p.cards.map(cardText).join(" ")}`);
  $("pile-history").textContent = earlier.length ? `Earlier on this pile — ${earlier.join(" · ")}` : "";
  $("pile").dataset.count = s.to_beat ? String(s.to_beat.count) : "0";
}

// What answers the play to beat: same count, higher rank (or equal too, under equal-or-higher);
// nothing outranks a 2.
function beatWords(toBeat, beat) {
  const size = toBeat.count;
  const many = `${size} card${size > 1 ? "s" : ""}`;
  const top = cardParts(toBeat.cards[0]).rank === "2";
  if (beat === "equal-or-higher") {
    return top ? `only ${size > 1 ? `${size} twos` : "a two"} can match it, or pass`
      : `play ${many} of the same or a higher rank, or pass`;
  }
  return top ? "nothing beats it: pass" : `play ${many} of a higher rank, or pass`;
}

function renderHand() {
  const s = app.state;
  const hand = $("hand");
  const focused = document.activeElement?.dataset?.card;
  hand.innerHTML = "";
  const playable = $("highlight").checked && myTurn() ? playableCards() : new Set();
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
    let label = cardLabel(c);
    if (playable.has(c)) { b.classList.add("playable"); label += ", playable"; }
    if (received.has(c) && s.phase !== "match-over") { b.classList.add("received"); label += ", received in the exchange"; }
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => toggle(c));
    hand.append(b);
  }
  if (focused) hand.querySelector(`[data-card="${focused}"]`)?.focus();
}

function toggle(card) {
  if (app.selected.has(card)) app.selected.delete(card); else app.selected.add(card);
  setMessage("");
  renderHand();
  renderControls();
}

function renderYou() {
  const s = app.state;
  const seat = s.seats[me()];
  $("your-name").textContent = seat.name;
  const bits = [`${seat.cards} card${seat.cards === 1 ? "" : "s"}`];
  if (seat.place) bits.push(`${placeWords(seat)} (${seat.title})`);
  if (scored()) bits.push(`${s.scores[seat.player]} pts`);
  if (previousTitle(seat)) bits.push(`was ${previousTitle(seat)}`);
  if (myTurn()) bits.push(s.phase === "exchange" ? "your turn to give" : "your turn");
  else if (seat.place && s.phase === "play") bits.push("the others play on until every place is known");
  $("your-info").textContent = `· ${bits.join(" · ")}`;
  document.querySelector(".you").classList.toggle("to-act", myTurn());
}

function renderControls() {
  const s = app.state;
  const playing = s.phase === "play" && myTurn();
  $("play").disabled = !playing;
  $("pass").disabled = !playing || !s.legal.includes("pass");
  $("hint").disabled = !myTurn() || app.hinting;
  $("clear").disabled = app.selected.size === 0;
}

function renderExchange() {
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
  box.innerHTML = "";
  const h = document.createElement("h2");
  h.textContent = "Exchange";
  box.append(h);
  for (const x of mine) {
    const p = document.createElement("p");
    p.className = "exchange-done";
    p.textContent = x.giver === me()
      ? `You gave ${x.cards.map(cardText).join(", ")} to ${nameOf(x.receiver)}.`
      : `${nameOf(x.giver)} gave you ${x.cards.map(cardText).join(", ")}.`;
    box.append(p);
  }
  if (!pending) return;
  const p = document.createElement("p");
  const many = `${pending.count} card${pending.count > 1 ? "s" : ""}`;
  if (pending.giver !== me()) {
    p.textContent = `Waiting: ${nameOf(pending.giver)} ${pending.forced ? "must give their highest" : "gives back"} ${many} to ${pending.receiver === me() ? "you" : nameOf(pending.receiver)}.`;
    box.append(p);
    return;
  }
  const actions = document.createElement("div");
  actions.className = "dialog-actions";
  if (pending.forced) {
    const options = s.legal.filter((a) => a !== "pass");
    if (options.length === 1) {
      p.textContent = `You finished last: you must give your highest ${many} to ${nameOf(pending.receiver)}.`;
      const b = document.createElement("button");
      b.type = "button";
      b.id = "give-forced";
      b.className = "primary";
      b.textContent = `Give ${options[0].map(cardText).join(", ")} to ${nameOf(pending.receiver)}`;
      b.onclick = () => send({ type: "give", cards: options[0] });
      actions.append(b);
    } else {
      p.textContent = `You finished last: give your highest ${many} to ${nameOf(pending.receiver)}; choose which of the equal cards.`;
      for (const opt of options) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "give-option";
        b.textContent = `Give ${opt.map(cardText).join(", ")}`;
        b.onclick = () => send({ type: "give", cards: opt });
        actions.append(b);
      }
    }
  } else {
    p.textContent = `Choose ${many} from your hand to give back to ${nameOf(pending.receiver)}, then press Give.`;
    const b = document.createElement("button");
    b.type = "button";
    b.id = "give-selected";
    b.className = "primary";
    b.textContent = `Give selected to ${nameOf(pending.receiver)}`;
    b.onclick = () => {
      if (app.selected.size !== pending.count) { setMessage(`Select exactly ${many} to give.`); return; }
      send({ type: "give", cards: [...app.selected] });
    };
    actions.append(b);
  }
  box.append(p, actions);
}

function renderScores() {
  const s = app.state;
  const panel = $("scores-panel");
  if (s.table.kind !== "match") { panel.hidden = true; return; }
  panel.hidden = false;
  const points = scored();
  $("scores-title").textContent = points ? "Scores" : "Deals (no points: roles only)";
  const t = $("scores");
  t.innerHTML = "";
  const head = document.createElement("tr");
  head.innerHTML = "<th scope=\"col\">Deal</th>";
  for (const name of s.players) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = name;
    head.append(th);
  }
  const thead = document.createElement("thead");
  thead.append(head);
  t.append(thead);
  const body = document.createElement("tbody");
  for (const d of s.deals) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<th scope="row">${d.number}</th>`;
    const byPlayer = {};
    d.order.forEach((o, i) => { byPlayer[o.player] = { ...o, place: i + 1 }; });
    for (let p = 0; p < s.players.length; p++) {
      const td = document.createElement("td");
      const o = byPlayer[p];
      const place = document.createElement("span");
      place.className = "place";
      place.textContent = ordinal(o.place);
      td.append(place, `${o.title}${points && o.points ? ` +${o.points}` : ""}`);
      tr.append(td);
    }
    body.append(tr);
  }
  t.append(body);
  if (!points) return;
  const total = document.createElement("tr");
  total.className = "totals";
  total.innerHTML = "<th scope=\"row\">Total</th>";
  for (let p = 0; p < s.players.length; p++) {
    const td = document.createElement("td");
    td.textContent = String(s.scores[p]);
    td.dataset.player = String(p);
    total.append(td);
  }
  body.append(total);
}

function renderResult() {
  const s = app.state;
  const box = $("result");
  const actions = $("result-actions");
  if (!["between-deals", "match-over"].includes(s.phase)) { box.hidden = true; return; }
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
      li.textContent = `${o.name} — ${o.total} point${o.total === 1 ? "" : "s"}${s.winners.includes(o.p) ? " (winner)" : ""}`;
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
    li.textContent = `${o.name} — ${o.title}${points ? ` (+${o.points})` : ""}`;
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
      const names = s.winners.map((w) => s.players[w]);
      $("result-title").textContent = names.length === 1
        ? `Match over: ${names[0]} wins` : `Match over: ${names.join(" and ")} share the win`;
      actions.append(button("New match", "primary", () => {
        const saved = store.get(STORE_MATCH);
        if (saved) store.remove(STORE_MATCH);
        showStart();
      }));
    } else {
      $("result-title").textContent = `Deal ${s.deal} over`;
      actions.append(button("Next deal", "primary", () => send({ type: "next-deal" })));
    }
  }
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) actions.querySelector("button")?.focus();
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

function playSelected() {
  if (!app.state || !myTurn() || app.state.phase !== "play") return;
  if (!app.selected.size) { setMessage("Select one or more cards of one rank first, or pass."); return; }
  const cards = [...document.querySelectorAll("#hand .card")].map((b) => b.dataset.card);
  app.lastPlayedIndex = Math.max(0, Math.min(...[...app.selected].map((c) => cards.indexOf(c))));
  app.focusHand = true;
  send({ type: "play", cards: [...app.selected] });
}

function askHint() {
  if (!app.state || !myTurn() || app.hinting) return;
  const level = $("hint-level").value || "simple";
  app.hinting = true;
  renderControls();
  if (level !== "simple") setMessage(`Asking the ${level} player for a hint…`, true);
  send({ type: "hint", level });
}

function pass() {
  if (!app.state || !myTurn() || app.state.phase !== "play") return;
  send({ type: "pass" });
}

function clearSelection() {
  app.selected.clear();
  setMessage("");
  if (app.state) { renderHand(); renderControls(); }
}

async function newPractice(ask = true) {
  const over = app.state && ["between-deals", "match-over"].includes(app.state.phase);
  if (ask && !over) {
    const yes = await confirmBox("New round?", "The current round will be lost: there is no undo or restart.", "New round");
    if (!yes) return;
  }
  closeSocket();
  app.state = null;
  show("connecting");
  startPractice();
}

async function leaveMatch() {
  const yes = await confirmBox("Leave this match?",
    "It stays saved on this device; you can continue it from the start screen while the server keeps it.", "Leave match");
  if (!yes) return;
  closeSocket();
  await showStart();
}

function onKey(e) {
  trapTab(e);
  if (!app.state || $("table").hidden || !$("confirm").hidden) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key.toLowerCase();
  if (key === "arrowleft" || key === "arrowright") {
    const cards = [...document.querySelectorAll("#hand .card")];
    const i = cards.indexOf(document.activeElement);
    if (!cards.length) return;
    const j = i < 0 ? 0 : (i + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length;
    cards[j].focus();
    e.preventDefault();
    return;
  }
  if (!$("paused").hidden) { if (key === "r") resume(); return; }
  if (key === "p") { playSelected(); e.preventDefault(); }
  else if (key === "s") { pass(); e.preventDefault(); }
  else if (key === "c" || key === "escape") { clearSelection(); e.preventDefault(); }
  else if (key === "h") { askHint(); e.preventDefault(); }
}

// ----- pausing (seed 003: switching tabs pauses play) ---------------------------------

function onVisibility() {
  if (!document.hidden || !app.state || app.unloading) return;   // leaving the page is no pause
  if (["between-deals", "match-over"].includes(app.state.phase)) return;
  send({ type: "pause" });
  showPaused(true);
}

function resume() {
  send({ type: "resume" });
  showPaused(false);
  document.querySelector("#hand .card")?.focus();
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

async function main() {
  $("start-practice").onclick = startPractice;
  $("match-form").addEventListener("submit", startMatch);
  $("preset").addEventListener("change", fillPresetDetails);
  $("players").addEventListener("change", fillSeats);
  $("clear-saved").onclick = async () => {
    const yes = await confirmBox("Clear saved matches?", "This removes every saved match and score from this device.", "Clear");
    if (!yes) return;
    store.remove(STORE_MATCH);
    store.remove(STORE_HISTORY);
    renderSaved();
  };
  $("play").onclick = playSelected;
  $("pass").onclick = pass;
  $("clear").onclick = clearSelection;
  $("hint").onclick = askHint;
  $("resume").onclick = resume;
  $("new-round").onclick = () => newPractice(true);
  $("leave-match").onclick = leaveMatch;
  const opts = store.get(STORE_OPTIONS, {});
  $("highlight").checked = !!opts.highlight;
  fillHintLevels(opts.hintLevel);
  $("hint-level").addEventListener("change", () => {
    store.set(STORE_OPTIONS, { ...store.get(STORE_OPTIONS, {}), hintLevel: $("hint-level").value });
  });
  $("highlight").addEventListener("change", () => {
    store.set(STORE_OPTIONS, { ...store.get(STORE_OPTIONS, {}), highlight: $("highlight").checked });
    if (app.state) renderHand();
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("pagehide", () => { app.unloading = true; });
  window.addEventListener("pageshow", () => { app.unloading = false; });

  const join = location.hash.match(/^#join=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/);
  if (join) {
    history.replaceState(null, "", location.pathname + location.search);
    const mine = store.get(STORE_MATCH);
    if (!(mine && mine.table === join[1] && mine.token === join[2])) {
      if (mine && !mine.finished) archive(mine);
      store.set(STORE_MATCH, { table: join[1], token: join[2], rules: "match", players: [], scores: [], deals: [] });
    }
    connect({ table: join[1], token: join[2], kind: "match" });
    return;
  }
  const saved = store.get(STORE_MATCH);
  if (saved && saved.table && saved.token && !saved.finished) {
    connect({ table: saved.table, token: saved.token, kind: "match", invites: saved.invites });
    return;
  }
  if (location.hash === "#practice") { startPractice(); return; }
  await showStart();
}

main();

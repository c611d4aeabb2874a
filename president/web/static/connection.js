// The socket: connecting, reconnecting, and every message from the server.

import { withSymbols } from "./cards.js";
import { $, SESSION_AT_START, SESSION_PRACTICE, STORE_MATCH } from "./common.js";
import { onEvent, onHint, onLog } from "./events.js";
import { notice, setOffline, show } from "./screens.js";
import { goTo, archive, loadOpenTables, seatTaken, showStart } from "./start.js";
import { app } from "./state.js";
import { forgetSeat, prefs, rememberSeat, store, tabStore } from "./storage.js";
import { onState, renderControls, renderRules, toggle } from "./table.js";

// After this many failed tries in a row the page says the server cannot be reached, and goes
// on trying every RETRY_MAX_MS (a server restarted by hand may take a minute to come back).
export const RETRIES_QUIET = 5;

export const RETRY_MAX_MS = 5000;

export const UNREACHABLE = "The server cannot be reached. Trying again every few seconds: your game "
  + "is kept on the server and comes back as soon as it answers.";

export const PRACTICE_KEEP_OPEN = " Keep this page open: reloading it ends your practice round.";

export function stopRetrying() {
  clearTimeout(app.retryTimer);
  app.retryTimer = null;
}

export function closeSocket() {
  stopRetrying();
  if (app.ws) {
    app.leaving = true;
    app.ws.onclose = null;
    app.ws.close();
    app.ws = null;
  }
}

export function connect(session) {
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
  // A practice round lives on in the server, but a reload of its page ends it (the practice-round source, docs/rules.md):
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

export function send(message) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
}

// A play, pass or give, with the number of actions of the state it was chosen in: if the
// table has moved on meanwhile (another page of this seat acted), the server refuses it
// ("stale") instead of playing it in a position it was not chosen for.
export function sendAction(message) {
  send({ ...message, at: app.state.table.actions });
}

export function receive(msg) {
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
      // A hidden page that reconnects (a server restart) keeps its round paused (the practice-round source, docs/rules.md);
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
export function rememberWelcome(msg) {
  const saved = store.get(STORE_MATCH);
  if (!saved || saved.table !== app.session.table || saved.token !== app.session.token) return;
  const next = { ...saved, player: msg.player, name: msg.name, host: msg.player === (msg.host ?? 0) };
  if (app.invites.length) next.invites = app.invites;
  store.set(STORE_MATCH, next);
  rememberSeat(next);
}

export function onError(msg) {
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
      // Said where it shows: the "Play with anyone" part on its own view, at the top.
      showStart().then(() => { goTo("open-start", { push: false }); $("open-error").textContent = why; loadOpenTables(); });
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
    const why = msg.message.charAt(0).toUpperCase() + msg.message.slice(1);
    showStart().then(() => { goTo("open-start", { push: false }); $("open-error").textContent = `${why}.`; });
    return;
  }
  setMessage(withSymbols(msg.message));
}

// A refusal or a problem (red), or with info = true a hint or a notice (plain ink).
export function setMessage(text, info = false) {
  $("message").textContent = text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
  $("message").classList.toggle("info", info);
  // A long message (a refusal of three lines on a phone) may reach under the fixed action
  // bar: the page scrolls just enough to show it whole.
  if (text) {
    requestAnimationFrame(() => {
      const bar = $("action-bar");
      if (bar.hidden) return;
      const under = $("message").getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
      if (under > 0) window.scrollBy({ top: under + 8, behavior: "instant" });
    });
  }
}

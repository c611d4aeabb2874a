// Events: the play log, announcements, presence, hints.

import { $ } from "./common.js";
import { setMessage } from "./connection.js";
import { renderSeatsAndFriends } from "./lobby.js";
import { animateClear, animatePlay } from "./motion.js";
import { app } from "./state.js";
import { renderControls, renderHand } from "./table.js";
import { soundPlay } from "./sounds.js";

export function addLogLine(ev) {
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

export function announce(ev) {
  const el = $("announce");
  el.textContent = ev.text;
  el.classList.remove("fresh");
  void el.offsetWidth;   // restart the highlight animation
  el.classList.add("fresh");
  addLogLine(ev);
}

// Who comes, leaves, returns, and when a computer plays for someone (tables for friends):
// the play log and the announcement; the seats show it from the state that follows.
export function onPresence(ev) {
  const s = app.state;
  const seat = s?.seats.find((x) => x.player === ev.player);
  if (seat && ["joined", "returned"].includes(ev.what)) { seat.online = true; seat.joined = true; }
  else if (seat && ev.what === "left") seat.online = false;
  let text = ev.text;
  if (ev.what === "joined" && s && ev.player !== s.you.player) text = `${ev.text} Welcome, ${s.players[ev.player]}!`;
  announce({ ...ev, text });
  if (s && !$("table").hidden) renderSeatsAndFriends();
}

export function onEvent(ev) {
  if (ev.kind === "presence") { onPresence(ev); return; }
  // A practice round is one standalone deal (the practice-round source, docs/rules.md): no match winner to announce.
  if (ev.kind === "match-ended" && app.session?.kind === "practice") return;
  if (ev.kind === "dealt") { app.dealEvents = []; app.resultClosed = null; }
  app.dealEvents.push(ev);
  if (app.state) {
    if (ev.kind === "played") { animatePlay(ev); soundPlay(); }
    else if (ev.kind === "cleared") animateClear();
    else if (ev.kind === "out") app.justOut = ev.seat;
  }
  announce(ev);
}

// On joining (a reload, Continue): the match's events so far, every deal, so the play log
// is whole again; this deal's events give the pass bubbles and the exchange summary.
export function onLog(msg) {
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

export function previousTitle(seat) {
  // Titles of the previous deal matter while the next one is dealt and played.
  const s = app.state;
  return s.deal > 1 && ["exchange", "play"].includes(s.phase) ? seat.previous_title : null;
}

export function onHint(msg) {
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
export function passBubbles() {
  const out = new Set();
  for (const ev of app.dealEvents) {
    if (ev.kind === "passed") out.add(ev.seat);
    else if (ev.kind === "played") out.delete(ev.seat);
    else if (ev.kind === "cleared" || ev.kind === "dealt") out.clear();
  }
  if (app.state) out.delete(app.state.to_act);
  return out;
}

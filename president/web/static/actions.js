// The player's actions (play, pass, hint) and pausing when the page is hidden.

import { cardText, rankOf } from "./cards.js";
import { $, SESSION_AT_START, SESSION_PRACTICE } from "./common.js";
import { closeSocket, send, sendAction, setMessage } from "./connection.js";
import { rectOf } from "./motion.js";
import { confirmBox, openDialog, show, showPaused, trapTab } from "./screens.js";
import { showStart, startPractice } from "./start.js";
import { app } from "./state.js";
import { prefs, tabStore } from "./storage.js";
import { amHost, closeResult, dealOver, friendsTable, hintBlocked, myTurn, renderControls, renderHand } from "./table.js";

export async function playSelected() {
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

export function askHint() {
  if (!app.state || app.hinting) return;
  const blocked = hintBlocked();
  if (blocked) { setMessage(`No hint: ${blocked}.`, true); return; }
  const level = $("hint-level").value || "simple";
  app.hinting = true;
  renderControls();
  if (level !== "simple") setMessage(`Asking the ${level} player for a hint…`, true);
  send({ type: "hint", level });
}

export function pass() {
  if (!app.state || !myTurn() || app.state.phase !== "play") return;
  if (app.sentAt === app.state.table.actions) return;   // already sent: wait for its answer
  app.sentAt = app.state.table.actions;
  app.selected.clear();
  sendAction({ type: "pass" });
  renderHand();
  renderControls();
}

export function clearSelection() {
  app.selected.clear();
  setMessage("");
  if (app.state) { renderHand(); renderControls(); }
}

export async function newPractice(ask = true) {
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

export async function leaveMatch() {
  const yes = await confirmBox("Leave this match?",
    "It stays saved on this device; you can continue it from the start screen while the server keeps it.", "Leave match");
  if (!yes) return;
  closeSocket();
  tabStore.set(SESSION_AT_START, "1");
  await showStart();
}

export function onKey(e) {
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

export function onVisibility() {
  if (!document.hidden || !app.state || app.unloading) return;   // leaving the page is no pause
  if (dealOver() || app.state.table.lobby) return;
  if (friendsTable()) return;   // with friends, hiding one page never stops the others
  send({ type: "pause" });
  showPaused(true);
}

export function pauseTable() {
  if (!app.state || !friendsTable() || !amHost()) return;
  send({ type: "pause" });
}

export function resume() {
  send({ type: "resume" });
  showPaused(false);
  document.querySelector("#hand .card")?.focus({ preventScroll: true });
}

// Screens, dialogs and notices.

import { resume } from "./actions.js";
import { named } from "./cards.js";
import { $ } from "./common.js";
import { app } from "./state.js";
import { amHost, friendsTable, hostName, toggle } from "./table.js";

export function show(screen) {
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
export function setOffline(on) {
  for (const id of ["table", "action-bar"]) {
    $(id).inert = on;
    $(id).classList.toggle("offline", on);
  }
  $("connecting").classList.toggle("over-table", on);
}

export function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

// A yes/no question; focus starts on "no". `primary: "no"` makes "no" the green button (when
// "yes" is the risky choice); by default "yes" is.
export function confirmBox(title, text, yes, no = "Cancel", { primary = "yes" } = {}) {
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
export function openDialog() {
  for (const id of ["confirm", "paused", "result"]) if (!$(id).hidden) return $(id);
  return null;
}

// Tab and Shift+Tab cycle through the open dialog's controls only (aria-modal).
export function trapTab(e) {
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
export function showPaused(on) {
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
export function helpToggle(label, text) {
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

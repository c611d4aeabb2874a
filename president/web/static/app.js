// President in the browser: the page's entry (plain ES modules, no build step, nothing
// from another host). The server sends this seat's view only ("state" and "event"
// messages, docs/web.md); the modules draw it as a card table and send the player's
// choices back (docs/web.md, "The page's modules").

import { initCompanion, openCompanion, wantsCompanion } from "./companion.js";
import { initLearn } from "./learn.js";
import { unlockSounds } from "./sounds.js";
import { askHint, clearSelection, leaveMatch, newPractice, onKey, onVisibility, pass, pauseTable, playSelected, resume } from "./actions.js";
import { cardLabel, facesImage, isolated, named, plural, withSymbols } from "./cards.js";
import { $, BAD_LINK, SESSION_AT_START, SESSION_PRACTICE, STORE_GUIDE, STORE_HISTORY, STORE_MATCH, STORE_SEATS, TABLE_HOURS, seatFromHash } from "./common.js";
import { connect, send } from "./connection.js";
import { reducedMotion } from "./motion.js";
import { confirmBox, notice, show } from "./screens.js";
import { OPEN_REFRESH_MS, fillPresetDetails, fillSeats, goTo, loadOpenTables, loadOptions, playNow, renderSaved, showStart, startMatch, startPractice } from "./start.js";
import { app } from "./state.js";
import { heldSeat, makeCurrent, prefs, setPref, store, tabStore } from "./storage.js";
import { bindHandDrag, closeResult, fitExchangeSummary, layoutHand, layoutSeats, maybeAutoPass, openResult, renderHand, renderYou } from "./table.js";

// The computer level that answers "Hint" (any of /api/options "hint_levels"; the practice round's own: simple).
export async function fillHintLevels(chosen) {
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

export function bindOptions() {
  const p = prefs();
  $("speed").value = p.speed;
  $("auto-pass").checked = p.autoPass;
  $("ask-two").checked = p.askTwo;
  $("highlight").checked = p.highlight;
  $("sounds").checked = p.sounds;
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
  $("sounds").addEventListener("change", () => {
    setPref("sounds", $("sounds").checked);
    unlockSounds();
  });
}

// A seat link (`#join=<table>.<token>`), opened on load or pasted into an open tab. A link to
// another seat of a match this device already sits at asks which seat to keep (keeping
// yours is the default: the host trying a friend's link stays the host).
export async function openJoin(table, token) {
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

export function relayout() {
  if (!app.state || $("table").hidden) return;
  fitExchangeSummary();
  layoutSeats();
  layoutHand();
  renderYou();
}

export async function main() {
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

// Motion: cards flying to the pile (decoration only: every state is drawn at once).

import { facesImage } from "./cards.js";
import { $, FLIGHT_MS } from "./common.js";
import { app } from "./state.js";
import { prefs } from "./storage.js";
import { me } from "./table.js";

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function flightMs() {
  return reducedMotion() ? 0 : FLIGHT_MS[prefs().speed];
}

// Move a copy of `content` from the rectangle `from` to the rectangle `to` (screen pixels),
// then remove it; `done` runs at the end. Nothing waits for it.
export function fly(content, from, to, { fade = false, seat = null, done = null } = {}) {
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
export function landAll() {
  for (const finish of [...app.flights]) finish();
}

export function rectOf(el) {
  if (!el || el.hidden) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height ? r : null;
}

export function seatElement(seat) {
  if (app.state && seat === me()) return $("hand");
  return document.querySelector(`#opponents [data-seat="${seat}"]`);
}

// A play flies from its seat to the pile; the pile's top is shown once the last flight lands.
export function animatePlay(ev) {
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
export function animateClear() {
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

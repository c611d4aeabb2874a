// Soft sounds, off unless the player turns them on (Options): a low two-note chime when it
// becomes your turn and a short tick for each play. Made with Web Audio (no sound files);
// silent while the page is hidden or the player asked the system for reduced motion, and the
// device's own mute and volume apply as to any page.

import { prefs } from "./storage.js";

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function allowed() {
  return prefs().sounds && !document.hidden
    && !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

function tone(frequency, start, seconds, volume) {
  const ctx = audio();
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = "sine";
  osc.frequency.value = frequency;
  const t = ctx.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + seconds);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + seconds + 0.02);
}

// The counts of sounds made, for the page's tests (window.presidentSounds).
const made = { turn: 0, play: 0 };
window.presidentSounds = made;

export function soundYourTurn() {
  if (!allowed()) return;
  made.turn += 1;
  tone(523, 0, 0.18, 0.05);
  tone(659, 0.12, 0.22, 0.05);
}

export function soundPlay() {
  if (!allowed()) return;
  made.play += 1;
  tone(330, 0, 0.07, 0.035);
}

// Turning the option on is a tap: the moment a browser lets a page start its audio.
export function unlockSounds() {
  if (prefs().sounds) audio();
}

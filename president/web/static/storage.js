// What this device keeps: options, the open match, the seats it holds.

import { SEATS_KEPT, SPEEDS, STORE_MATCH, STORE_OPTIONS, STORE_SEATS } from "./common.js";

export const store = {
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

export const tabStore = {
  get(key) { try { return sessionStorage.getItem(key); } catch { return null; } },
  set(key, value) { try { sessionStorage.setItem(key, value); } catch { /* blocked */ } },
  remove(key) { try { sessionStorage.removeItem(key); } catch { /* blocked */ } },
};

// Options kept on this device: speed, auto-pass, ask before a 2, highlight, sounds, hint level.
export function prefs() {
  const o = store.get(STORE_OPTIONS, {});
  return {
    speed: SPEEDS.includes(o.speed) ? o.speed : "normal",
    autoPass: !!o.autoPass, askTwo: !!o.askTwo, highlight: o.highlight !== false,   // on unless turned off
    sounds: o.sounds === true,     // off unless turned on
    hintLevel: o.hintLevel, preset: o.preset,
    name: typeof o.name === "string" ? o.name.slice(0, 24) : "",
  };
}

export function setPref(key, value) {
  store.set(STORE_OPTIONS, { ...store.get(STORE_OPTIONS, {}), [key]: value });
}

// The seats this device holds, one per match (table id -> the saved match entry: token,
// player, name, host, rules, scores...). "president.match" is the one open now; the others
// stay here, so opening another match's link never loses a seat.
export function seatsMap() {
  const map = store.get(STORE_SEATS, {});
  return map && typeof map === "object" && !Array.isArray(map) ? map : {};
}

export function rememberSeat(entry) {
  if (!entry?.table || !entry.token) return;
  const map = seatsMap();
  map[entry.table] = { ...entry, updated: entry.updated || Date.now() };
  const keys = Object.keys(map).sort((a, b) => (map[b].updated || 0) - (map[a].updated || 0));
  for (const k of keys.slice(SEATS_KEPT)) delete map[k];
  store.set(STORE_SEATS, map);
}

export function forgetSeat(table) {
  const map = seatsMap();
  if (map[table]) { delete map[table]; store.set(STORE_SEATS, map); }
}

// The seat this device holds at `table`, or null.
export function heldSeat(table) {
  const current = store.get(STORE_MATCH);
  if (current?.table === table && current.token) return current;
  const entry = seatsMap()[table];
  return entry?.token ? entry : null;
}

// Make (table, token) the match open on this device; the one open before stays in the map.
export function makeCurrent(table, token) {
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

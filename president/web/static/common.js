// Constants and small helpers every part of the page uses.


export const $ = (id) => document.getElementById(id);

export const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };

export const RANK_WORDS = { J: "jack", Q: "queen", K: "king", A: "ace" };

export const RANK_PLURAL = { 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
  9: "nines", 10: "tens", J: "jacks", Q: "queens", K: "kings", A: "aces" };

export const STORE_MATCH = "president.match";

export const STORE_HISTORY = "president.history";

export const STORE_SEATS = "president.seats";   // table id -> the seat this device holds there

export const SEATS_KEPT = 20;

export const TABLE_HOURS = 6;                   // the server forgets a table after 6 hours unused

export const JOIN = /^#join=([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

// A seat link's table and token from a location hash, forgiving what pasting adds (a full
// stop, a bracket or a quote after the link): [table, token], "bad" for a #join= link that
// is cut short or damaged, or null for no seat link at all.
export function seatFromHash(hash) {
  if (!hash.startsWith("#join")) return null;
  let text = hash;
  try { text = decodeURIComponent(hash); } catch { /* keep it as it is */ }
  const m = text.trim().replace(/[.,;:!?)\]}>'"’”\s]+$/, "").match(JOIN);
  return m ? [m[1], m[2]] : "bad";
}

export const BAD_LINK = "This seat link is cut short or damaged, so it opens no seat. Ask the host to copy it "
  + "again with the Copy button beside your seat, and open the whole link.";

export const LOOPBACK = ["127.0.0.1", "localhost", "[::1]", "::1"];

export const STORE_OPTIONS = "president.options";

export const STORE_GUIDE = "president.guide-seen";

export const SESSION_PRACTICE = "president.practice-live";

// This tab went to the start screen by the player's choice (left its match): a reload keeps
// it there instead of opening the saved match again.
export const SESSION_AT_START = "president.at-start";

export const FLIGHT_MS = { slow: 750, normal: 480, fast: 260, instant: 0 };

export const SPEEDS = ["slow", "normal", "fast", "instant"];

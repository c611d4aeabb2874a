// Cards and the words for them.

import { $, RANK_PLURAL, RANK_WORDS, SUITS } from "./common.js";

export function cardParts(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

export function cardText(card) {
  const { rank, suit } = cardParts(card);
  return rank + SUITS[suit][0];
}

export function cardLabel(card) {
  const { rank, suit } = cardParts(card);
  return `${RANK_WORDS[rank] || rank} of ${SUITS[suit][1]}`;
}

// "9S 10H" in an engine message -> "9♠ 10♥" (a sentence for people).
export function withSymbols(text) {
  return text.replace(/\b(10|[2-9JQKA])([CDHS])\b/g, (_, rank, suit) => rank + SUITS[suit][0]);
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

// Player names inside sentences the page builds are isolated from the words around them, so
// a name written right to left ("שרה") never reorders them ("שרה — 2 points" stays in that
// order). named`Waiting for ${name}…` gives nodes for append(), each value in a <bdi>;
// isolated(name) wraps a name in plain text (a string) in FSI … PDI, the same isolation.
export function named(strings, ...values) {
  const nodes = [strings[0]];
  values.forEach((value, i) => {
    const b = document.createElement("bdi");
    b.textContent = String(value);
    nodes.push(b, strings[i + 1]);
  });
  return nodes;
}

export function isolated(name) { return `\u2068${name}\u2069`; }

// A card face: rank and suit in the corner (what shows when cards overlap), a large suit
// below. The corner's text is visible, so a card's accessible name starts with it ("9").
export function cardFace(card, { named = true } = {}) {
  const { rank, suit } = cardParts(card);
  const el = document.createElement("span");
  el.className = `face suit-${suit}`;
  el.innerHTML = `<span class="corner"><span class="rank"></span><span class="suit" aria-hidden="true">${SUITS[suit][0]}</span></span>`
    + `<span class="pip" aria-hidden="true">${SUITS[suit][0]}</span>`;
  el.querySelector(".rank").textContent = rank;
  if (rank === "10") el.querySelector(".rank").classList.add("ten");   // narrow, for tight rows
  if (named) {
    const words = document.createElement("span");
    words.className = "visually-hidden";
    words.textContent = RANK_WORDS[rank] ? ` ${RANK_WORDS[rank]} of ${SUITS[suit][1]}` : ` of ${SUITS[suit][1]}`;
    el.append(words);
  }
  return el;
}

// A picture of cards (pile, flights): one image named by its cards.
export function facesImage(cards) {
  const box = document.createElement("span");
  box.className = "faces";
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", cards.map(cardLabel).join(", "));
  for (const c of cards) {
    const face = cardFace(c, { named: false });
    face.dataset.card = c;
    box.append(face);
  }
  return box;
}

export function rankOf(card) { return cardParts(card).rank; }

export function playWords(cards) {
  const rank = rankOf(cards[0]);
  const n = cards.length;
  if (n === 1) return `a ${RANK_WORDS[rank] || rank}`.replace(/^a (ace|8)/, "an $1");
  return `${["", "", "a pair of", "three", "four"][n]} ${RANK_PLURAL[rank]}`;
}

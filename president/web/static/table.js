// Drawing the table: seats, pile, hand, controls, results, scores.

import { newPractice, pass } from "./actions.js";
import { cardFace, cardText, facesImage, isolated, named, playWords, plural } from "./cards.js";
import { $, RANK_PLURAL, SESSION_PRACTICE, STORE_GUIDE, STORE_HISTORY, STORE_MATCH } from "./common.js";
import { send, sendAction, setMessage } from "./connection.js";
import { passBubbles, previousTitle } from "./events.js";
import { presenceWords, renderInvites, renderLobby } from "./lobby.js";
import { flightMs, landAll } from "./motion.js";
import { helpToggle, notice, openDialog, show, showPaused } from "./screens.js";
import { scoreLine, showStart } from "./start.js";
import { app } from "./state.js";
import { forgetSeat, prefs, rememberSeat, store, tabStore } from "./storage.js";
import { soundYourTurn } from "./sounds.js";

export function onState(state) {
  const before = app.state;
  app.state = state;
  // A start-screen notice (a practice round ended by a reload, a bad link) is about the
  // game before this one: it goes when this one's table first shows.
  if (before === null) notice("");
  show("table");
  if (app.pauseCheck) {
    app.pauseCheck = false;
    // A hidden page that reconnects keeps its game paused (the practice-round source, docs/rules.md), unless friends sit here.
    if (document.hidden && !app.unloading && !friendsTable()) send({ type: "pause" });
  }
  const number = state.table.match_number || 1;
  const newMatch = before && (before.table.match_number || 1) !== number;
  if (before && (newMatch || (before.deal !== state.deal && !before.table.lobby))) {
    // Someone else moved the table on while this page's result view is open: keep it open
    // (its reader closes it) and say so; one this page asked to move on from closes.
    const wasOver = ["between-deals", "match-over"].includes(before.phase);
    const asked = app.askedNext === `${before.table.match_number || 1}:${before.deal}:${before.phase}`;
    if (wasOver && !$("result").hidden && !asked && friendsTable()) {
      app.heldResult = { match: newMatch, deal: state.deal };
    } else {
      app.heldResult = null;
    }
    app.resultClosed = null;
  }
  if (newMatch) {
    app.dealEvents = app.dealEvents.filter((e) => e.kind === "dealt").slice(-1);
    app.selected.clear();
  }
  const timer = state.table.timer;
  app.timerUntil = timer ? { player: timer.player, until: Date.now() + timer.seconds * 1000 } : null;
  if (before === null || before.hand.length !== state.hand.length || before.deal !== state.deal) {
    app.selected = new Set([...app.selected].filter((c) => state.hand.includes(c)));
    if (before && (before.hand.length !== state.hand.length || before.deal !== state.deal)) app.selected.clear();
  }
  // A hint or a refusal is about one turn: it goes when the turn or the phase moves on (after
  // you give in the exchange and then lead, the seat to act is yours both times), or when
  // anyone acted (at "instant" speed the others answer your play in the same update, and
  // the turn is yours again).
  if (before && (before.to_act !== state.to_act || before.phase !== state.phase
                 || before.table.actions !== state.table.actions)) setMessage("");
  // Your turn has come (it was someone else's, or the table moved on since yours): a chime,
  // if the player turned sounds on.
  const mine = state.phase === "play" && state.to_act === state.you.seat && !state.seats[state.you.seat].standin;
  const wasMine = before && before.phase === "play" && before.to_act === before.you.seat
    && before.table.actions === state.table.actions;
  if (mine && !wasMine && before) soundYourTurn();
  if (app.session.kind === "match") saveMatch(state);
  if (app.session.kind === "practice" && ["between-deals", "match-over"].includes(state.phase)) {
    tabStore.remove(SESSION_PRACTICE);   // a finished round is not lost by a reload
  }
  const played = app.focusHand && before && before.hand.length !== state.hand.length;
  render();
  if (before === null) $("log").scrollTop = $("log").scrollHeight;   // the latest lines in view
  if (played) {
    app.focusHand = false;
    const active = document.activeElement;
    if (!openDialog() && (!active || active === document.body || active.closest("#hand, .action-bar"))) {
      const cards = [...document.querySelectorAll("#hand .card")];
      if (cards.length) cards[Math.min(app.lastPlayedIndex ?? 0, cards.length - 1)].focus({ preventScroll: true });
    }
  }
  maybeAutoPass();
}

// "Pass for me when nothing I hold can beat the pile": only when following (never a lead,
// which cannot pass) and only when pass is the one legal action.
export function maybeAutoPass() {
  const s = app.state;
  if (!prefs().autoPass || s.phase !== "play" || !myTurn() || !s.to_beat) return;
  if (s.legal.length !== 1 || s.legal[0] !== "pass" || s.table.paused) return;
  if (app.autoPassed === s.table.actions) return;
  app.autoPassed = s.table.actions;
  const why = s.explain.must_pass;   // the server's words (narration.why_pass)
  setTimeout(() => {
    const now = app.state;
    if (!now || now.table.actions !== s.table.actions || !myTurn() || now.table.paused) return;
    sendAction({ type: "pass" });
    setMessage(`Passed for you. ${why}.`, true);
  }, 250);
}

export function saveMatch(state) {
  const saved = store.get(STORE_MATCH) || {};
  // Another page of this device took another seat or match meanwhile: leave its entry alone.
  if (saved.table && saved.table !== app.session.table) return;
  if (saved.table && saved.token && saved.token !== app.session.token) return;
  const number = state.table.match_number || 1;
  let base = saved;
  if ((saved.match_number || number) < number) {
    // A rematch at this table: the match before goes to the history (if this page missed its
    // end, as it was when last seen), and this entry follows the new one.
    if (!saved.finished && saved.deals?.length) pushHistory(saved, null);
    base = { ...saved, finished: false, started: Date.now() };
  }
  const next = {
    ...base, table: app.session.table, token: app.session.token,
    rules: `${state.rules.name} (${state.seats.length} players)`, players: state.players,
    scores: state.scores, deals: state.deals, updated: Date.now(), match_number: number,
    scoring: Array.isArray(state.rules.scoring) && state.rules.scoring.length > 0,
    player: state.you.player, name: state.players[state.you.player],
    host: (state.table.host ?? 0) === state.you.player, friends: friendsTable(state),
  };
  if (state.snapshot) next.snapshot = state.snapshot;
  if (state.phase === "match-over" && !next.finished) {
    next.finished = true;
    pushHistory(next, state.winners.map((p) => state.players[p]));
  }
  store.set(STORE_MATCH, next);
  rememberSeat(next);
}

export function pushHistory(entry, winners) {
  const history = store.get(STORE_HISTORY, []);
  history.push({ when: Date.now(), rules: entry.rules, players: entry.players, scores: entry.scores,
    scoring: entry.scoring, deals: entry.deals?.length || 0, winners, table: entry.table });
  store.set(STORE_HISTORY, history.slice(-50));
}

// More than one human seat: a table for friends (a host, presence, ready between deals).
export function friendsTable(s = app.state) {
  return !!s && s.table.kind === "match" && (s.table.humans?.length || 0) > 1;
}

export function amHost(s = app.state) { return (s.table.host ?? 0) === s.you.player; }

export function hostName(s = app.state) { return s.players[s.table.host ?? 0]; }

export function me() { return app.state.you.seat; }

export function myTurn() { return app.state.to_act === me() && !app.state.seats[me()].standin; }

export function nameOf(seat) { return seat === me() ? "You" : app.state.seats[seat].name; }

export function nameIn(seat) { return seat === me() ? "you" : app.state.seats[seat].name; }

export function playerName(p) { return p === app.state.you.player ? "You" : app.state.players[p]; }

export function playableCards() {
  const set = new Set();
  for (const a of app.state.legal) if (a !== "pass") for (const c of a) set.add(c);
  return set;
}

export function scored() {
  const s = app.state;
  return s.table.kind === "match" && Array.isArray(s.rules.scoring) && s.rules.scoring.length > 0;
}

export function dealOver() { return ["between-deals", "match-over"].includes(app.state.phase); }

export function render() {
  const s = app.state;
  const lobby = !!s.table.lobby;
  const t = $("table");
  t.dataset.lobby = lobby ? "1" : "";
  t.dataset.friends = friendsTable() ? "1" : "";
  t.dataset.host = amHost() ? "1" : "";
  $("lobby").hidden = !lobby;
  $("action-bar").hidden = lobby;
  renderTopButtons();
  renderInvites();
  if (lobby) {
    $("bar-info").replaceChildren(`${s.rules.name} · waiting room`);
    renderLobby();
    $("result").hidden = true;
    showPaused(false);
    $("exchange-panel").hidden = true;
    t.dataset.turn = "";
    t.dataset.phase = "lobby";
    t.dataset.actions = String(s.table.actions);
    return;
  }
  const number = s.table.match_number > 1 ? `match ${s.table.match_number} · ` : "";
  const deal = s.table.kind === "practice" ? "Practice round" : `${s.rules.name} · ${number}deal ${s.deal}`;
  // On a phone only the first part shows (which deal); the rest is in the play log.
  const more = document.createElement("span");
  more.className = "bar-more";
  more.append(...named` · dealer: ${nameIn(s.dealer)} · first lead: ${nameIn(s.leader)}`);
  $("bar-info").replaceChildren(deal, more);
  renderSeats();
  renderPile();
  renderHand();
  renderYou();
  renderControls();
  renderExchange();
  renderScores();
  renderGone();
  renderResult();
  showPaused(s.table.paused);
  renderCountdowns();
  $("speed").value = s.table.speed || prefs().speed;
  t.dataset.turn = myTurn() ? "you" : "";
  t.dataset.phase = s.phase;
  t.dataset.actions = String(s.table.actions);
  t.dataset.motion = flightMs() ? "on" : "off";
  t.dataset.onlyPass = s.phase === "play" && myTurn() && s.legal.length === 1 && s.legal[0] === "pass" ? "1" : "";
  if (s.table.kind === "practice" && !store.get(STORE_GUIDE)) $("guide").hidden = false;
}

// The header's buttons at a table for friends: the host's Pause and Invite links.
export function renderTopButtons() {
  const s = app.state;
  const host = friendsTable() && amHost();
  const playing = ["play", "exchange"].includes(s.phase) && !s.table.lobby;
  $("pause-table").hidden = !(host && playing && !s.table.paused);
  $("invite-toggle").hidden = !(host && app.invites.length && !s.table.lobby);
}

// Seconds left before the computer moves for someone (state.table.timer), counted down here.
export function renderCountdowns() {
  const els = document.querySelectorAll("[data-countdown]");
  const t = app.timerUntil;
  for (const el of els) {
    const left = t ? Math.max(0, Math.ceil((t.until - Date.now()) / 1000)) : 0;
    el.textContent = t ? `${left} s` : "";
  }
  clearTimeout(app.countdownTick);
  if (t && els.length && t.until > Date.now()) app.countdownTick = setTimeout(renderCountdowns, 500);
}

export function placeWords(seat) {
  // The last player keeps their cards: they did not go out.
  return seat.cards > 0 ? `left holding cards, ${ordinal(seat.place)}` : `out ${ordinal(seat.place)}`;
}

// "1st · President", or just "3rd" where the rules name the place by its number (house).
export function placeTitle(seat) {
  return seat.title === ordinal(seat.place) ? seat.title : `${ordinal(seat.place)} · ${seat.title}`;
}

export function placeStatus(seat) {
  return seat.title === ordinal(seat.place) ? placeWords(seat) : `${placeWords(seat)}, ${seat.title}`;
}

export function ordinal(n) {
  const suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${suffix}`;
}

export function levelWords(level) { return level === "human" ? "friend" : level; }

// The other seats around the oval, clockwise from your left; your own seat marker at the
// bottom of the felt.
export function renderSeats() {
  const s = app.state;
  const ul = $("opponents");
  const n = s.seats.length;
  const bubbles = passBubbles();
  ul.innerHTML = "";
  for (let k = 1; k < n; k++) {
    const seat = s.seats[(me() + k) % n];
    const li = document.createElement("li");
    li.className = "opponent seat";
    li.dataset.seat = String(seat.seat);
    li.dataset.order = String(k);
    const acting = s.to_act === seat.seat;
    if (acting) li.classList.add("to-act");
    if (seat.place) li.classList.add("out");
    if (app.justOut === seat.seat) li.classList.add("just-out");
    const was = previousTitle(seat);
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    const head = document.createElement("span");
    head.className = "head";
    head.append(name);
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.innerHTML = '<span class="level"></span>';
    meta.querySelector(".level").textContent = seat.standin ? `computer (${seat.standin})`
      : seat.host && friendsTable() ? "host" : levelWords(seat.level);
    const here = presenceWords(seat);
    if (here !== null) {
      const dot = document.createElement("span");
      dot.className = `presence ${seat.online ? "on" : "off"}`;
      dot.textContent = seat.online ? "online" : "away";
      meta.append(" · ", dot);
    }
    if (seat.seat === s.dealer) meta.insertAdjacentHTML("beforeend", ' <span class="chip dealer" title="Dealer">dealer</span>');
    if (was) {
      const t = document.createElement("span");
      t.className = "chip title";
      t.title = "Title from the last deal";
      t.textContent = was;
      meta.append(" ", t);
    }
    li.append(head, meta);
    // Cards held, as backs and a number; none once out (a lone "0" read like a score).
    if (seat.cards > 0 || !seat.place) {
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(seat.cards, 5); i++) backs.insertAdjacentHTML("beforeend", '<span class="back"></span>');
      backs.insertAdjacentHTML("beforeend", `<span class="count">${seat.cards}</span>`);
      li.append(backs);
    }
    const status = [];
    if (seat.place) {
      const badge = document.createElement("span");
      badge.className = "place-badge";
      badge.textContent = placeTitle(seat);
      li.append(badge);
      status.push(placeStatus(seat));
    } else if (acting && s.phase === "play") {
      const t = document.createElement("span");
      t.className = "turn";
      t.textContent = "to play…";
      li.append(t);
      status.push("to play");
    } else if (acting && s.phase === "exchange") {
      const t = document.createElement("span");
      t.className = "turn";
      t.textContent = "to give…";
      li.append(t);
      status.push("to give cards");
    }
    if (acting && app.timerUntil?.player === seat.player) {
      const c = document.createElement("span");
      c.className = "countdown";
      c.title = "The computer moves for them in";
      c.innerHTML = 'computer in <span data-countdown></span>';
      li.append(c);
    }
    if (bubbles.has(seat.seat) && !seat.place) {
      li.insertAdjacentHTML("beforeend", '<span class="bubble">Pass</span>');
      status.push("passed");
    }
    if (scored()) status.push(plural(s.scores[seat.player], "point"));
    const who = [seat.host && friendsTable() ? "host" : levelWords(seat.level), here].filter(Boolean).join(", ");
    li.setAttribute("aria-label", `${seat.name}, ${who}: ${plural(seat.cards, "card")}`
      + `${seat.seat === s.dealer ? ", dealer" : ""}${was ? `, was ${was}` : ""}`
      + `${status.length ? ", " + status.join(", ") : ""}`);
    ul.append(li);
  }
  app.justOut = null;
  const mine = s.seats[me()];
  const my = $("my-seat");
  my.innerHTML = "";
  my.classList.toggle("to-act", myTurn());
  my.append(mine.place ? `You · ${placeTitle(mine)}` : "You");
  if (mine.host && friendsTable()) my.insertAdjacentHTML("beforeend", ' <span class="chip host">host</span>');
  if (mine.seat === s.dealer) my.insertAdjacentHTML("beforeend", ' <span class="chip dealer">dealer</span>');
  const was = previousTitle(mine);
  if (was) my.insertAdjacentHTML("beforeend", ` <span class="chip title">${was}</span>`);
  if (bubbles.has(mine.seat) && !mine.place) my.insertAdjacentHTML("beforeend", '<span class="bubble">Pass</span>');
  layoutSeats();
}

// Place the seats on an oval: you at the bottom (90°), the others clockwise from your left,
// each kept wholly inside the felt; then the pile goes where no seat box covers it (if it
// finds no room, the seats spread to the felt's edge and it looks again).
export function layoutSeats() {
  const felt = $("felt");
  const W = felt.clientWidth;
  const H = felt.clientHeight;
  for (const spread of [0.92, 1]) {
    if (layoutPile(W, H, placeSeats(W, H, spread), spread === 1)) return;
  }
}

export function placeSeats(W, H, spread) {
  const seats = [...document.querySelectorAll("#opponents .seat")];
  const n = seats.length + 1;
  const boxes = [];
  seats.forEach((li, i) => {
    const k = i + 1;
    const angle = (Math.PI / 180) * (90 + (360 * k) / n);
    const w = li.offsetWidth;
    const h = li.offsetHeight;
    let x = W / 2 + (W / 2 - w / 2) * Math.cos(angle) * 0.98;
    let y = H / 2 + (H / 2 - h / 2) * Math.sin(angle) * spread;
    x = Math.min(W - w / 2 - 2, Math.max(w / 2 + 2, x));
    y = Math.min(H - h / 2 - 2, Math.max(h / 2 + 2, y));
    boxes.push({ li, x, y, w, h });
  });
  // On a short felt (a phone with many players, the exchange panel or a hand of several rows
  // under it) neighbours on the ellipse can cover each other: push such pairs apart up and
  // down, each kept on the felt.
  // Your own seat's chip at the bottom stays where it is.
  const mine = $("my-seat");
  const fixed = mine.offsetHeight
    ? [{ x: W / 2, y: mine.offsetTop + mine.offsetHeight / 2, w: mine.offsetWidth, h: mine.offsetHeight, fixed: true }] : [];
  const all = [...boxes, ...fixed];
  for (let round = 0; round < 24; round += 1) {
    let moved = false;
    for (let i = 0; i < all.length; i += 1) {
      for (let j = i + 1; j < all.length; j += 1) {
        const [a, b] = all[i].y <= all[j].y ? [all[i], all[j]] : [all[j], all[i]];
        const across = Math.abs(a.x - b.x) < (a.w + b.w) / 2 + 2;
        const need = (a.h + b.h) / 2 + 3 - (b.y - a.y);
        if (!across || need <= 0.5) continue;
        const upShare = a.fixed ? 0 : b.fixed ? 1 : 0.5;
        a.y = Math.max(a.h / 2 + 2, a.y - need * upShare);
        b.y = Math.min(H - b.h / 2 - 2, b.y + need * (1 - upShare));
        moved = true;
      }
    }
    if (!moved) break;
  }
  for (const b of boxes) {
    b.li.style.left = `${b.x}px`;
    b.li.style.top = `${b.y}px`;
    Object.assign(b, { left: b.x - b.w / 2, right: b.x + b.w / 2, top: b.y - b.h / 2, bottom: b.y + b.h / 2 });
  }
  const my = $("my-seat");
  if (my.offsetHeight) {
    const w = my.offsetWidth;
    boxes.push({ left: W / 2 - w / 2, right: W / 2 + w / 2, top: my.offsetTop, bottom: my.offsetTop + my.offsetHeight });
  }
  return boxes;
}

// The pile sits in the middle (a little above it) unless a seat box would cover it: then it
// moves up or down into a free band of its column, narrower if need be, and last without
// the row of earlier plays (those stay in the pile's hidden text for screen readers).
// False when no band has room (with `last`, it is then left in the middle, compact).
export function layoutPile(W, H, boxes, last) {
  const pile = $("pile");
  const gap = 4;
  pile.style.maxWidth = "";
  pile.style.top = "";
  pile.classList.remove("compact");
  const base = pile.offsetWidth;
  if (!base) return true;
  const want = H * 0.46;
  let best = null;
  for (const compact of [false, true]) {
    pile.classList.toggle("compact", compact);
    for (const scale of [1, 0.85, 0.7, 0.55]) {
      const pw = Math.round(base * scale);
      pile.style.maxWidth = `${pw}px`;
      const ph = pile.offsetHeight;
      const left = W / 2 - pw / 2 - gap;
      const right = W / 2 + pw / 2 + gap;
      const walls = boxes.filter((b) => b.right > left && b.left < right)
        .map((b) => [b.top - gap, b.bottom + gap]).sort((a, b) => a[0] - b[0]);
      // Free bands of the pile's column, top to bottom, and the spot in each nearest the middle.
      let from = 2;
      const bands = [];
      for (const [t, b] of walls) { if (t > from) bands.push([from, t]); from = Math.max(from, b); }
      if (H - 2 > from) bands.push([from, H - 2]);
      for (const [a, b] of bands) {
        if (b - a < ph) continue;
        const centre = Math.min(b - ph / 2, Math.max(a + ph / 2, want));
        const cost = Math.abs(centre - want) + (1 - scale) * 400;
        if (!best || cost < best.cost) best = { cost, centre, pw, compact };
      }
    }
    if (best) break;
  }
  if (!best && !last) return false;
  if (!best) best = { centre: want, pw: base, compact: true };
  pile.classList.toggle("compact", best.compact);
  pile.style.maxWidth = best.pw === base ? "" : `${best.pw}px`;
  pile.style.top = `${best.centre}px`;
  return true;
}

export function renderPile() {
  const s = app.state;
  const toBeat = $("to-beat");
  const cards = $("pile-cards");
  const under = $("pile-under");
  cards.innerHTML = "";
  under.innerHTML = "";
  // At a deal's end its last pile is still on the table (the cards of its last plays are
  // neither in the discard nor in a hand): it stays in view under "The deal is over".
  const pile = s.phase === "exchange" ? [] : s.pile;
  $("pile").classList.toggle("empty", !pile.length);
  if (s.phase === "exchange") {
    toBeat.textContent = "Exchange before the deal";
  } else if (s.phase !== "play") {
    const top = pile[pile.length - 1];
    if (top) {
      cards.append(facesImage(top.cards));
      toBeat.replaceChildren(`The deal is over. Last play: ${playWords(top.cards)} by `,
        ...named`${nameIn(top.seat)}.`);
    } else {
      toBeat.textContent = "The deal is over";
    }
  } else if (s.to_beat) {
    const top = pile[pile.length - 1];
    cards.append(facesImage(top.cards));
    toBeat.innerHTML = "";
    const who = document.createElement("span");
    who.replaceChildren(`To beat: ${playWords(top.cards)} by `, ...named`${nameIn(top.seat)}. `);
    const need = document.createElement("strong");
    need.textContent = s.to_beat.needs;   // the server's words, from the rules kernel
    toBeat.append(who, need);
  } else {
    toBeat.replaceChildren("Empty pile: ", ...named`${nameOf(s.to_act)} ${s.to_act === me() ? "lead" : "leads"} any single, pair, triple or four of a kind`);
    if (s.reversed) toBeat.append(" (the order is reversed: lower ranks beat)");
  }
  // Earlier plays of this pile, tucked under the play to beat (the four latest).
  for (const p of pile.slice(0, -1).slice(-4)) {
    const box = document.createElement("span");
    box.className = "under-play";
    box.append(facesImage(p.cards));
    const who = document.createElement("span");
    who.textContent = nameOf(p.seat);
    box.append(who);
    under.append(box);
  }
  const earlier = pile.slice(0, -1).map((p) => `${isolated(nameOf(p.seat))}: ${p.cards.map(cardText).join(" ")}`);
  $("pile-history").textContent = earlier.length ? `Earlier on this pile — ${earlier.join(" · ")}` : "";
  $("pile").dataset.count = s.to_beat ? String(s.to_beat.count) : "0";
  $("discard-count").textContent = String(s.cleared);
  $("discard").setAttribute("aria-label", `Discard: ${plural(s.cleared, "card")}`);
  layoutSeats();
}

export function renderHand() {
  const s = app.state;
  const hand = $("hand");
  const focused = document.activeElement?.dataset?.card;
  hand.innerHTML = "";
  // By default the cards that cannot be part of any legal action now are dimmed, so the
  // playable ones stand out (Options: "Highlight cards you can play").
  const marking = prefs().highlight && myTurn();
  const playable = marking ? playableCards() : new Set();
  const received = new Set();
  for (const x of s.exchange.mine) if (x.receiver === me()) for (const c of x.cards) received.add(c);
  for (const c of s.hand) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card";
    b.dataset.card = c;
    b.append(cardFace(c));
    const sel = app.selected.has(c);
    b.setAttribute("aria-pressed", sel ? "true" : "false");
    const notes = [];
    if (playable.has(c)) { b.classList.add("playable"); notes.push("playable"); }
    else if (marking) { b.classList.add("dim"); notes.push("cannot be played now"); }
    if (received.has(c) && s.phase !== "match-over") { b.classList.add("received"); notes.push("received in the exchange"); }
    if (notes.length) {
      const extra = document.createElement("span");
      extra.className = "visually-hidden";
      extra.textContent = `, ${notes.join(", ")}`;
      b.append(extra);
    }
    // A press of a finger or the mouse selects at once (bindHandDrag); the click that
    // follows it (detail > 0) is that same press. A click that no press made (Enter, Space,
    // a screen reader: detail 0) toggles the card.
    b.addEventListener("click", (e) => { if (!e.detail) toggle(c); });
    hand.append(b);
  }
  layoutHand();
  if (focused) hand.querySelector(`[data-card="${focused}"]`)?.focus({ preventScroll: true });
}

// The hand: every card keeps a part at least TAP px wide and TAP px tall that a finger can
// hit, with its rank and suit in it. The cards overlap in a row as much as that allows; a
// hand that does not fit in one row takes as many rows as it needs (13 cards on a 360-px
// phone: two rows of 7; 18: three rows of 6), each row over the lower half of the one above
// it. The felt gives up the height of the extra rows, kept for the whole deal so that the
// hand never moves while it shrinks.
export const TAP = 45;          // px: 44 px, the least a finger needs, and 1 px spare for rounding

export const RAISE_ROWS = 7;    // px: how far a selected card rises when the hand has several rows

export function layoutHand() {
  const hand = $("hand");
  const cards = hand.querySelectorAll(".card");
  const n = cards.length;
  if (!n) { hand.style.gridTemplateColumns = ""; hand.style.gridTemplateRows = ""; return; }
  const w = cards[0].offsetWidth || 52;
  const h = cards[0].offsetHeight || Math.round(w * 1.4);
  const room = hand.clientWidth - 2;
  // A short window (a phone on its side) has no height for a second row: one row there,
  // as tight as it must be (18 cards at 740x360: 37 px a card).
  const short = window.matchMedia?.("(max-height: 520px)").matches;
  const fit = short ? n : Math.max(1, Math.floor((room - w) / TAP) + 1);
  const rows = Math.ceil(n / fit);
  const cols = Math.ceil(n / rows);
  const step = cols > 1 ? Math.min(w + 5, Math.floor(((room - w) / (cols - 1)) * 100) / 100) : w;
  const rowStep = TAP + RAISE_ROWS;
  hand.style.gridTemplateColumns = cols > 1 ? `repeat(${cols - 1}, ${step}px) ${w}px` : `${w}px`;
  hand.style.gridTemplateRows = rows > 1 ? `repeat(${rows - 1}, ${rowStep}px) ${h}px` : `${h}px`;
  hand.dataset.rows = String(rows);
  if (rows > 1) hand.style.setProperty("--raise", `${RAISE_ROWS}px`);
  else hand.style.removeProperty("--raise");
  // The extra rows' height, the most this deal has needed, comes off the felt.
  const s = app.state;
  const key = s ? `${s.table.match_number}.${s.deal}.${s.you.seat}` : "";
  if (!app.handRows || app.handRows.key !== key || app.handRows.room !== room) app.handRows = { key, room, rows };
  app.handRows.rows = Math.max(app.handRows.rows, rows);
  const extra = `${(app.handRows.rows - 1) * rowStep}px`;
  if ($("table").style.getPropertyValue("--hand-extra") !== extra) {
    $("table").style.setProperty("--hand-extra", extra);
    layoutSeats();
  }
}

// Sliding a finger (or the mouse, held down) across the hand selects every card it passes
// over, or deselects them when the first card pressed was selected: a whole rank in one move.
export function bindHandDrag() {
  const hand = $("hand");
  let drag = null;   // {id: the pointer, on: select or deselect, seen: cards passed, changed}
  const pass = (card) => {
    drag.seen.add(card);
    if (app.selected.has(card) === drag.on) return;
    drag.changed.push(card);
    setSelected(card, drag.on);
  };
  hand.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !app.state) return;
    const b = e.target.closest(".card");
    if (!b) return;
    const c = b.dataset.card;
    drag = { id: e.pointerId, on: !app.selected.has(c), seen: new Set(), changed: [] };
    if (b.hasPointerCapture(e.pointerId)) b.releasePointerCapture(e.pointerId);
    pass(c);
  });
  window.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const b = document.elementFromPoint(e.clientX, e.clientY)?.closest("#hand .card");
    if (b && !drag.seen.has(b.dataset.card)) pass(b.dataset.card);
  });
  window.addEventListener("pointerup", (e) => { if (drag && e.pointerId === drag.id) drag = null; });
  // The browser took the touch for a scroll of the page: what this touch changed is undone.
  window.addEventListener("pointercancel", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    for (const c of drag.changed) setSelected(c, !drag.on);
    drag = null;
  });
}

export function setSelected(card, on) {
  if (!app.state || on === app.selected.has(card)) return;
  if (on) app.selected.add(card); else app.selected.delete(card);
  $("hand").querySelector(`[data-card="${card}"]`)?.setAttribute("aria-pressed", on ? "true" : "false");
  setMessage("");
  renderControls();
}

export function toggle(card) {
  setSelected(card, !app.selected.has(card));
}

export function renderYou() {
  const s = app.state;
  const seat = s.seats[me()];
  $("your-name").textContent = seat.name;
  // What you are to do comes first: on a phone the line is cut at its end.
  const bits = [];
  if (seat.standin) bits.push(`a computer (${seat.standin}) plays for you now`);
  else if (myTurn()) bits.push(s.phase === "exchange" ? "your turn to give" : "your turn");
  bits.push(plural(seat.cards, "card"));
  if (seat.place) bits.push(placeStatus(seat));
  if (scored()) bits.push(plural(s.scores[seat.player], "point"));
  if (!seat.standin && !myTurn() && seat.place && s.phase === "play") bits.push("the others play on until every place is known");
  const info = $("your-info");
  const shown = document.createElement("span");
  const rest = document.createElement("span");
  rest.className = "visually-hidden";
  shown.textContent = `· ${bits.join(" · ")}`;
  info.replaceChildren(shown, rest);
  if (myTurn() && app.timerUntil?.player === seat.player) {
    info.insertAdjacentHTML("beforeend", ' · <span class="countdown">the computer moves for you in <span data-countdown></span></span>');
  }
  // A line too long for its width (a phone) is shortened, never cut: its last parts go (to
  // screen readers only), the first, what you are to do, always stays; if even that is too
  // long, the line wraps.
  const title = $("you-title");
  title.classList.remove("wrap");
  let keep = bits.length;
  while (keep > 1 && title.scrollWidth > title.clientWidth + 1) {
    keep -= 1;
    shown.textContent = `· ${bits.slice(0, keep).join(" · ")}`;
    rest.textContent = ` · ${bits.slice(keep).join(" · ")}`;
  }
  if (title.scrollWidth > title.clientWidth + 1) title.classList.add("wrap");
  document.querySelector(".you").classList.toggle("to-act", myTurn());
}

// Why Hint cannot help now, or null when it can.
export function hintBlocked() {
  const s = app.state;
  if (!myTurn()) return "not your turn";
  if (s.phase === "play" && s.legal.length === 1 && s.legal[0] === "pass") return "nothing you hold beats the pile";
  if (s.phase === "exchange" && s.exchange.pending?.forced && s.legal.filter((a) => a !== "pass").length <= 1) {
    return "the cards to give are forced";
  }
  return null;
}

export function renderControls() {
  const s = app.state;
  const playing = s.phase === "play" && myTurn();
  const over = dealOver();
  const onlyPass = playing && s.legal.length === 1 && s.legal[0] === "pass";
  $("play").disabled = !playing || app.selected.size === 0;
  $("pass").disabled = !playing || !s.legal.includes("pass");
  // Blocked, Hint stays tappable (greyed, aria-disabled) so that a tap says why: a touch
  // screen never shows the title. It is disabled only while a hint is on its way.
  const blocked = hintBlocked();
  $("hint").disabled = app.hinting;
  $("hint").setAttribute("aria-disabled", String(app.hinting || blocked !== null));
  $("hint").title = blocked ? `Hint: ${blocked}` : "Ask a computer player for a suggestion";
  $("clear").disabled = app.selected.size === 0;
  for (const id of ["play", "pass", "hint", "clear"]) $(id).hidden = over;
  $("show-result").hidden = !over || !$("result").hidden;
  let why = "";
  if (over) why = s.table.kind === "practice" ? "The round is over." : s.phase === "match-over" ? "The match is over." : "The deal is over.";
  else if (s.seats[me()].standin) why = named`A computer plays for you now; ${hostName()} (the host) can give your seat back.`;
  else if (s.phase === "exchange") why = myTurn() ? "Give your cards above the hand." : named`Waiting for ${nameOf(s.to_act)} to give cards…`;
  else if (!myTurn()) why = s.to_act === null ? "" : named`Waiting for ${nameOf(s.to_act)}…`;
  else if (onlyPass) why = `${s.explain.must_pass}; pass.`;   // the server's words
  else if (app.selected.size === 0) {
    why = s.to_beat ? `Select ${plural(s.to_beat.count, "card")} of one rank to play, or pass.`
      : "Select a card, or cards of one rank, to lead.";
  }
  $("play-why").replaceChildren(...[why].flat());
}

export function renderExchange() {
  fillExchange();
  fitExchangeSummary();
}

// The summary after an exchange sits in the page's flow between the announcement and your
// hand (style.css, .exchange.after), never over the cards: the felt gives up that height
// while it shows, so the hand stays where it was; the seats are placed again on the new felt.
export function fitExchangeSummary() {
  const box = $("exchange-panel");
  const felt = $("felt");
  // In the page's flow (the summary after the exchange; on a phone the exchange itself too):
  // the felt gives up the panel's height.
  const inFlow = !box.hidden && getComputedStyle(box).position === "static";
  const want = inFlow ? `${Math.ceil(box.offsetHeight + parseFloat(getComputedStyle(box).marginTop || "0"))}px` : "";
  if (felt.style.getPropertyValue("--felt-less") === want) return;
  if (want) felt.style.setProperty("--felt-less", want);
  else felt.style.removeProperty("--felt-less");
  layoutSeats();
}

export function fillExchange() {
  const s = app.state;
  const box = $("exchange-panel");
  const pending = s.exchange.pending;
  const mine = s.exchange.mine;
  // After the exchange, the summary stays until you first play or pass in this deal.
  const acted = app.dealEvents.some((e) => (e.kind === "played" || e.kind === "passed") && e.seat === me());
  const justAfter = s.phase === "play" && mine.length > 0 && !acted;
  if (s.phase !== "exchange" && !justAfter) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.classList.toggle("after", s.phase !== "exchange");
  box.innerHTML = "";
  const h = document.createElement("h2");
  h.textContent = "Exchange";
  box.append(h);
  for (const x of mine) {
    const p = document.createElement("p");
    p.className = "exchange-done";
    p.append(...(x.giver === me()
      ? [`You gave ${x.cards.map(cardText).join(", ")} to `, ...named`${nameOf(x.receiver)}.`]
      : [...named`${nameOf(x.giver)} gave you `, `${x.cards.map(cardText).join(", ")}.`]));
    box.append(p);
  }
  if (!pending) return;
  const p = document.createElement("p");
  const many = plural(pending.count, "card");
  // The rules' words of the waiting step come from the server (narration.exchange_duty).
  const duty = s.explain.exchange;
  if (pending.giver !== me()) {
    p.append(`Waiting: ${duty}.`);
    if (s.explain.exchange_then) {
      // The one who receives the bottom's best cards gives back as many next.
      const then = document.createElement("span");
      then.className = "then";
      then.append(` ${s.explain.exchange_then}.`);
      p.append(then);
    }
    box.append(p);
    return;
  }
  const actions = document.createElement("div");
  actions.className = "dialog-actions";
  const options = s.legal.filter((a) => a !== "pass");
  if (pending.forced || s.rules.give_back === "lowest") {
    // Your highest (a forced give) or your lowest cards (give_back = lowest): one button per
    // way of giving them, a single one when no cards of equal rank leave a choice.
    p.append(`${duty}${options.length > 1 ? "; choose which of the equal cards." : "."}`);
    for (const opt of options) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = options.length === 1 ? "primary" : "give-option";
      if (options.length === 1) b.id = "give-forced";
      if (options.length === 1 && pending.forced) b.append(`Give ${opt.map(cardText).join(", ")} to `, ...named`${nameOf(pending.receiver)}`);
      else b.textContent = `Give ${opt.map(cardText).join(", ")}`;
      b.onclick = () => sendAction({ type: "give", cards: opt });
      actions.append(b);
    }
  } else {
    p.append(`${duty}, then press Give.`);
    const b = document.createElement("button");
    b.type = "button";
    b.id = "give-selected";
    b.className = "primary";
    b.append("Give selected to ", ...named`${nameOf(pending.receiver)}`);
    b.onclick = () => {
      if (app.selected.size !== pending.count) { setMessage(`Select exactly ${many} to give.`); return; }
      sendAction({ type: "give", cards: [...app.selected] });
    };
    actions.append(b);
  }
  box.append(p, actions);
}

// The scoreboard: a row per player (name, total, then each deal's place and title, the
// latest deal first), so seven players fit a narrow column; more deals scroll inside it.
export function renderScores() {
  const s = app.state;
  const panel = $("scores-panel");
  if (s.table.kind !== "match") { panel.hidden = true; return; }
  panel.hidden = false;
  const points = scored();
  $("scores-title").textContent = points ? "Scores" : "Deals (no points: roles only)";
  const t = $("scores");
  t.innerHTML = "";
  const deals = s.deals.slice().reverse();
  const head = document.createElement("tr");
  head.innerHTML = "<th scope=\"col\">Player</th>";
  if (points) head.insertAdjacentHTML("beforeend", "<th scope=\"col\" class=\"total\">Total</th>");
  for (const d of deals) head.insertAdjacentHTML("beforeend", `<th scope="col" class="deal">Deal ${d.number}</th>`);
  const thead = document.createElement("thead");
  thead.append(head);
  t.append(thead);
  const body = document.createElement("tbody");
  for (let p = 0; p < s.players.length; p++) {
    const tr = document.createElement("tr");
    tr.dataset.player = String(p);
    if (p === s.you.player) tr.className = "me";
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = s.players[p];
    tr.append(th);
    if (points) {
      const td = document.createElement("td");
      td.className = "total";
      td.dataset.player = String(p);
      td.textContent = String(s.scores[p]);
      tr.append(td);
    }
    for (const d of deals) {
      const i = d.order.findIndex((o) => o.player === p);
      const o = d.order[i];
      const td = document.createElement("td");
      const place = document.createElement("span");
      place.className = "place";
      place.textContent = ordinal(i + 1);
      td.append(place, `${o.title}${points && o.points ? ` +${o.points}` : ""}`);
      tr.append(td);
    }
    body.append(tr);
  }
  t.append(body);
}

// Cards of each rank played face up this deal (public information: the server counts them).
export function renderGone() {
  const list = $("gone");
  list.innerHTML = "";
  for (const [rank, n] of app.state.gone || []) {
    const li = document.createElement("li");
    li.dataset.rank = rank;
    li.innerHTML = `<b></b><span></span>`;
    li.querySelector("b").textContent = rank;
    li.querySelector("span").textContent = `${n}/4`;
    li.setAttribute("aria-label", `${RANK_PLURAL[rank]}: ${n} of 4 gone`);
    if (n === 4) li.classList.add("all");
    list.append(li);
  }
}

export function renderRules() {
  const dl = $("rules-text");
  dl.innerHTML = "";
  for (const r of app.rules) {
    const dt = document.createElement("dt");
    dt.textContent = r.label;
    const [q, help] = helpToggle(r.label.toLowerCase(), r.help);
    dt.append(q);
    const dd = document.createElement("dd");
    dd.textContent = r.text.charAt(0).toUpperCase() + r.text.slice(1) + ".";
    dd.append(help);
    dl.append(dt, dd);
  }
}

export function resultKey() { return `${app.state.deal}:${app.state.phase}`; }

export function fullKey(s = app.state) { return `${s.table.match_number || 1}:${s.deal}:${s.phase}`; }

// Move on from this result (next deal or rematch): this page's own view closes when it comes.
export function moveOn(type, force = false) {
  app.askedNext = fullKey();
  send(force ? { type, force: true } : { type });
}

// Friends' tables: "Next deal" / "Play again" says ready; the page then names who it waits
// for, and the host may start at once.
export function readyControls(body, actions, type, label, forceLabel) {
  const s = app.state;
  const ready = new Set(s.table.ready || []);
  const mine = ready.has(s.you.player);
  const waiting = s.seats.filter((x) => x.online && !x.standin && !ready.has(x.player) && x.player !== s.you.player);
  const line = document.createElement("p");
  line.id = "ready-line";
  line.className = "ready-line";
  const list = (seats) => seats.flatMap((x, i) => [i ? (i === seats.length - 1 ? " and " : ", ") : "", ...named`${x.name}`]);
  if (mine) {
    line.append(...(waiting.length ? ["Ready — waiting for ", ...list(waiting), "…"] : ["Ready."]));
  } else {
    actions.append(button(label, "primary", () => moveOn(type)));
    const others = s.seats.filter((x) => ready.has(x.player) && x.player !== s.you.player);
    if (others.length) line.append("Ready: ", ...list(others), ".");
  }
  if (line.childNodes.length) body.append(line);
  if (amHost() && waiting.length) {
    actions.append(button(forceLabel, mine ? "primary" : "", () => moveOn(type, true)));
    // What the two buttons do, for the host who sees both.
    const help = document.createElement("p");
    help.id = "ready-help";
    help.className = "ready-help";
    const what = type === "rematch" ? "the new match" : "the next deal";
    if (!mine) help.append(`"${label}" says you are ready: ${what} starts once everyone is. `);
    help.append(`"${forceLabel}" ${type === "rematch" ? "starts it" : "deals"} without waiting for `, ...list(waiting), ".");
    body.append(help);
  }
}

// A result view kept open while the next deal (or a new match) is played: say so.
export function renderHeldResult() {
  const body = $("result-body");
  const actions = $("result-actions");
  let note = $("result-moved");
  if (!note) {
    note = document.createElement("p");
    note.id = "result-moved";
    note.className = "result-moved";
    note.setAttribute("role", "status");
    body.prepend(note);
  }
  note.textContent = app.heldResult.match
    ? "A new match has started at this table. Close this view to play."
    : `Deal ${app.state.deal} has started. Close this view to play.`;
  // Your turn with the turn timer running: the countdown here too (the table is behind this
  // view). Its ticking is not read out (aria-live off inside the status line).
  if (myTurn() && app.timerUntil?.player === app.state.seats[me()].player) {
    note.insertAdjacentHTML("beforeend", ' <span class="countdown" aria-live="off">It is your turn: '
      + "the computer moves for you in <span data-countdown></span>.</span>");
  }
  $("ready-line")?.remove();
  $("ready-help")?.remove();
  actions.replaceChildren(button("Go to the table", "primary", closeResult));
  $("show-result").hidden = true;
}

export function renderResult() {
  const s = app.state;
  const box = $("result");
  const actions = $("result-actions");
  if (!dealOver()) {
    if (app.heldResult && !box.hidden) { renderHeldResult(); return; }
    app.heldResult = null;
    box.hidden = true;
    return;
  }
  app.heldResult = null;
  if (app.resultClosed === resultKey()) { box.hidden = true; $("show-result").hidden = false; return; }
  const body = $("result-body");
  body.innerHTML = "";
  actions.innerHTML = "";
  const points = scored();
  const last = s.deals[s.deals.length - 1];
  if (s.phase === "match-over" && s.table.kind === "match" && points) {
    // Final standings: totals, highest first (tied leaders share the win).
    const h = document.createElement("h3");
    h.textContent = "Final totals";
    const standings = document.createElement("ol");
    standings.id = "final-standings";
    const order = s.players.map((name, p) => ({ name, p, total: s.scores[p] }))
      .sort((a, b) => b.total - a.total || a.p - b.p);
    for (const o of order) {
      const li = document.createElement("li");
      li.append(...named`${o.name}`, ` — ${plural(o.total, "point")}${s.winners.includes(o.p) ? " (winner)" : ""}`);
      if (o.p === s.you.player) li.classList.add("me");
      standings.append(li);
    }
    body.append(h, standings);
  }
  const caption = document.createElement("h3");
  caption.textContent = s.table.kind === "match" ? `Deal ${last.number}: finishing order` : "Finishing order";
  const ol = document.createElement("ol");
  ol.id = "finish-order";
  for (const o of last.order) {
    const li = document.createElement("li");
    li.append(...named`${o.name}`, ` — ${o.title}${points && o.points ? ` (+${o.points})` : ""}`);
    if (o.player === s.you.player) li.classList.add("me");
    ol.append(li);
  }
  if (s.table.kind === "match") body.append(caption);
  body.append(ol);
  if (s.table.kind === "practice") {
    $("result-title").textContent = "Round over: finishing order";
    actions.append(button("New round", "primary", () => newPractice(false)));
  } else {
    if (points && s.phase !== "match-over") {
      const p = document.createElement("p");
      p.className = "totals-line";
      p.textContent = `Scores: ${scoreLine(s.players, s.scores)}`;
      body.append(p);
    }
    if (s.phase === "match-over") {
      const names = s.winners.map(playerName);
      const mine = s.winners.length === 1 && s.winners[0] === s.you.player;
      $("result-title").replaceChildren(...(names.length === 1
        ? named`Match over: ${names[0]} ${mine ? "win" : "wins"}`
        : ["Match over: ", ...names.flatMap((n, i) => [i ? " and " : "", ...named`${n}`]), " share the win"]));
      // Play again: a new match with the same seats at this table (every page follows).
      if (friendsTable()) readyControls(body, actions, "rematch", "Play again", "Start now");
      else actions.append(button("Play again", "primary", () => moveOn("rematch")));
      actions.append(button("New match", "", () => {
        const saved = store.get(STORE_MATCH);
        if (saved) { store.remove(STORE_MATCH); forgetSeat(saved.table); }
        showStart();
      }));
    } else {
      $("result-title").textContent = `Deal ${s.deal} over`;
      if (friendsTable()) readyControls(body, actions, "next-deal", "Next deal", "Deal now");
      else actions.append(button("Next deal", "primary", () => moveOn("next-deal")));
    }
  }
  actions.append(button("Look at the table", "", closeResult));
  const wasHidden = box.hidden;
  if (wasHidden) landAll();   // the deal's last play lands before its result covers the table
  box.hidden = false;
  $("show-result").hidden = true;
  if (wasHidden) actions.querySelector("button")?.focus();
  else if (!box.contains(document.activeElement)) actions.querySelector("button")?.focus();
}

export function closeResult() {
  if (!app.state) return;
  if (app.heldResult && !dealOver()) {   // the deal someone else started: back to the table
    app.heldResult = null;
    $("result").hidden = true;
    render();
    document.querySelector("#hand .card")?.focus({ preventScroll: true });
    return;
  }
  if (!dealOver()) return;
  app.resultClosed = resultKey();
  $("result").hidden = true;
  renderControls();
  $("show-result").focus();
}

export function openResult() {
  app.resultClosed = null;
  renderResult();
  renderControls();
}

export function button(text, cls, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.className = cls;
  b.onclick = onclick;
  return b;
}

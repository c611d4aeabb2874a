// The waiting room and the friends' rows: seat links, presence, the host's tools.

import { isolated, named, plural } from "./cards.js";
import { $, LOOPBACK } from "./common.js";
import { send } from "./connection.js";
import { notice } from "./screens.js";
import { app } from "./state.js";
import { amHost, button, friendsTable, hostName, renderSeats } from "./table.js";

// Where friends on other devices cannot reach this page: it says so, and how.
export function loopbackNotice() {
  if (!LOOPBACK.includes(location.hostname)) return null;
  const box = document.createElement("div");
  box.className = "notice loopback";
  box.setAttribute("role", "note");
  const p1 = document.createElement("p");
  p1.append("These links point to ");
  const host = document.createElement("code");
  host.textContent = location.host;
  p1.append(host, ", an address only this computer can open: friends on other devices cannot use them.");
  const p2 = document.createElement("p");
  const there = app.options?.friend_url;
  if (there) {   // the server already listens on the network: send the host to that address
    p2.append("This server can also be reached on your network at ");
    const a = document.createElement("a");
    a.href = there;
    a.textContent = there;
    p2.append(a, ": open the game there and make the match again, so the links carry that address.");
  } else {
    p2.append("To play with friends on your network, restart the server with ");
    const cmd = document.createElement("code");
    cmd.textContent = "president serve --host 0.0.0.0";
    p2.append(cmd, ". It prints the address to give your friends: open the game at that address here too, so the links use it.");
  }
  box.append(p1, p2);
  return box;
}

export function seatLink(token) { return `${location.origin}/#join=${app.session.table}.${token}`; }

// Words for a human seat's presence: online / away, waiting in the waiting room, or the
// computer playing for them.
export function presenceWords(seat, lobby = app.state.table.lobby) {
  if (seat.online === null || seat.online === undefined) return null;
  if (lobby) return seat.joined || seat.online ? (seat.online ? "joined · online" : "joined · away") : "waiting";
  const here = seat.online ? "online" : "away";
  return seat.standin ? `${here} · computer playing (${seat.standin})` : here;
}

export function selectText(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

export async function copyLink(link, textEl, status) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(link);
      status.textContent = "Copied.";
      return;
    }
  } catch { /* refused: select it instead */ }
  selectText(textEl);
  let ok = false;
  try { ok = document.execCommand("copy"); } catch { ok = false; }
  status.textContent = ok ? "Copied." : "Selected: copy it with Ctrl+C (or your menu's Copy).";
}

// One row per seat: name, chips, presence; for the host, each friend's link with Copy and
// Share, and the seat handed to the computer or back (after the waiting room).
export function friendRow(seat, { links, tools }) {
  const s = app.state;
  const li = document.createElement("li");
  li.className = "friend-row";
  li.dataset.player = String(seat.player);
  const head = document.createElement("p");
  head.className = "friend-head";
  const name = document.createElement("bdi");
  name.className = "friend-name";
  name.textContent = seat.name;
  head.append(name);
  if (seat.player === s.you.player) head.insertAdjacentHTML("beforeend", ' <span class="chip you-chip">you</span>');
  if (seat.host) head.insertAdjacentHTML("beforeend", ' <span class="chip host">host</span>');
  // Your own row says what your friends see of you (this page is here: joined, online).
  const self = seat.player === s.you.player && seat.online !== null && seat.online !== undefined;
  const words = presenceWords(self ? { ...seat, online: true, joined: true } : seat);
  const status = document.createElement("span");
  status.className = "presence";
  if (words === null) status.textContent = `computer: ${seat.level}`;
  else {
    status.textContent = words;
    status.classList.add(seat.online || self ? "on" : "off");
    if (words === "waiting") status.classList.replace("off", "waiting");
  }
  head.append(" ", status);
  li.append(head);
  const invite = links ? app.invites.find((i) => i.player === seat.player) : null;
  if (invite) {
    const link = seatLink(invite.token);
    const row = document.createElement("div");
    row.className = "link-row";
    const text = document.createElement("code");
    text.className = "link-text";
    text.textContent = link;
    text.tabIndex = 0;
    text.setAttribute("aria-label", `Seat link for ${seat.name}`);
    text.addEventListener("focus", () => selectText(text));
    const note = document.createElement("span");
    note.className = "copy-status";
    note.setAttribute("role", "status");
    const copy = button("Copy", "copy-link", () => copyLink(link, text, note));
    copy.setAttribute("aria-label", `Copy ${seat.name}'s link`);
    row.append(text, copy);
    if (navigator.share) {
      const share = button("Share", "share-link", async () => {
        try {
          await navigator.share({ title: "President", text: `${seat.name}, your seat at our President table:`, url: link });
        } catch { /* closed without sharing */ }
      });
      share.setAttribute("aria-label", `Share ${seat.name}'s link`);
      row.append(share);
    }
    row.append(note);
    li.append(row);
  }
  if (tools && seat.online !== null && seat.player !== s.you.player && !s.table.lobby) {
    const give = seat.standin
      ? button("Give the seat back", "seat-toggle", () => send({ type: "seat", player: seat.player, computer: false }))
      : button("Let the computer play", "seat-toggle", () => send({ type: "seat", player: seat.player, computer: true }));
    give.setAttribute("aria-label", seat.standin ? `Give ${seat.name} their seat back` : `Let the computer play for ${seat.name}`);
    li.append(give);
  }
  return li;
}

export function bySeatOrder(s = app.state) {
  return s.seats.slice().sort((a, b) => a.player - b.player);
}

// The host's links for the whole match (a side panel, opened from the header).
export function renderInvites() {
  const box = $("invites");
  const s = app.state;
  const on = friendsTable() && amHost() && app.invites.length > 0 && !s.table.lobby;
  box.hidden = !on;
  if (!on) return;
  const list = $("invite-list");
  list.replaceChildren(...bySeatOrder().filter((x) => x.online !== null && x.player !== s.you.player)
    .map((seat) => friendRow(seat, { links: true, tools: true })));
  const notice = loopbackNotice();
  $("invites-loopback").replaceChildren(...(notice ? [notice] : []));
}

// The waiting room: every seat, who has come; the host's links and Start.
export function renderLobby() {
  const s = app.state;
  const host = amHost();
  const friends = bySeatOrder().filter((x) => x.online !== null && !x.host);
  const missing = friends.filter((x) => !x.joined && !x.online);
  $("lobby-lead").replaceChildren(...(host
    ? ["Send each friend their own link below. ",
      missing.length ? `Waiting for ${missing.map((x) => isolated(x.name)).join(", ")}.` : "Everyone is here."]
    : named`Waiting for ${hostName()} to start the match.`));
  if (s.table.open) {        // an open table: seats go to whoever joins from the list
    const free = s.table.humans.filter((p) => p !== (s.table.host ?? 0) && !s.table.claimed.includes(p)).length;
    const when = s.table.starts_in === null || s.table.starts_in === undefined ? ""
      : ` It starts within ${s.table.starts_in} seconds, computers taking the seats nobody took.`;
    const seats = free ? `${plural(free, "seat")} still free.` : "Every seat is taken.";
    const soon = free ? when : "";
    $("lobby-lead").textContent = (host
      ? `Your table is open: people on this server see it under “Open tables” and take its seats. ${seats}`
        + (free ? "" : " Start when you like.")
      : `Waiting for ${hostName()} to start the match. ${seats}`) + soon;
  }
  $("lobby-seats").replaceChildren(...bySeatOrder().map((seat) => {
    const row = friendRow(seat, { links: host, tools: false });
    if (host && s.table.open && s.table.claimed.includes(seat.player)) {
      const free = button("Free this seat", "unseat", () => send({ type: "unseat", player: seat.player }));
      free.setAttribute("aria-label", `Free ${seat.name}'s seat for someone else`);
      row.append(free);
    }
    return row;
  }));
  const notice = host && !s.table.open ? loopbackNotice() : null;   // (an open table has no links)
  $("lobby-loopback").replaceChildren(...(notice ? [notice] : []));
  $("lobby-host").hidden = !host;
  if (host && s.table.open) {
    $("start-note").textContent = `Start whenever you like: the computer (${s.table.standin || "simple"}) plays the seats nobody took.`;
  } else if (host) {
    $("start-note").textContent = missing.length
      ? `A seat whose friend has not come yet is played by the computer (${s.table.standin || "simple"}) until they arrive; they get it back when they open their link.`
      : "Everyone has opened their link.";
  }
}

// Seats and the friends' rows again (a presence event changed who is here).
export function renderSeatsAndFriends() {
  if (app.state.table.lobby) renderLobby(); else renderSeats();
  renderInvites();
}

// The table companion ("At a real table" on the start screen): the score sheet of a match
// played with a real deck. The page keeps the sheet in this device's local storage and sends
// it whole to POST /api/companion, which replays it through the engine and answers what to show
// (docs/web.md "At a real table"). This file states no rule of the game: points, titles, the
// next dealer, the seats, the lead, the exchange and the end all come from the server.

const $ = (id) => document.getElementById(id);
const STORE_SHEET = "president.companion";
const HASH = "#table-companion";
const MAX_NAME = 24;   // president.web.names.MAX_NAME_CHARS

const ui = {
  api: null,        // {show, confirmBox, showStart, options} from app.js
  sheet: null,      // the sheet as the server last answered it
  view: null,       // the view of that sheet
  tapped: [],       // names tapped so far for the deal being entered
  redo: [],         // the sheets before each undo, latest last: "Redo" puts one back
  busy: false,
};

// ----- storage (this device only) ----------------------------------------------------------

function loadSheet() {
  try {
    const raw = localStorage.getItem(STORE_SHEET);
    return raw === null ? null : JSON.parse(raw);
  } catch { return null; }
}

function saveSheet(sheet) {
  try { localStorage.setItem(STORE_SHEET, JSON.stringify(sheet)); } catch { /* full or blocked */ }
}

// ----- talking to the server -----------------------------------------------------------------

// POST a body; answer {ok, body} (body: the JSON answer, or {message} when none came back).
async function post(path, body) {
  let r;
  try {
    r = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, body: { message: "The server did not answer (is it still running?)." } };
  }
  let answer;
  try { answer = await r.json(); } catch { answer = {}; }
  if (r.status === 413) answer = { message: "This is more than the server reads at once; start a new match." };
  return { ok: r.ok, body: answer };
}

// The sheet as sent: each order as player indexes (the server answers names), so even a
// long sheet stays far below the server's 16 KiB body limit.
function compact(sheet) {
  if (!sheet || !Array.isArray(sheet.entries) || !Array.isArray(sheet.players)) return sheet;
  return { ...sheet, entries: sheet.entries.map((e) => (Array.isArray(e)
    ? e.map((name) => { const i = sheet.players.indexOf(name); return i < 0 ? name : i; }) : e)) };
}

// Send the sheet (ui.sheet, or `sheet`) with at most one change; on success keep and draw the
// answer, else say why and keep everything as it was. Any change but an undo or a redo ends
// what Redo could put back.
async function change(extra = {}, { sheet = ui.sheet, keepRedo = false } = {}) {
  if (ui.busy) return false;
  ui.busy = true;
  try {
    const { ok, body } = await post("/api/companion", { sheet: compact(sheet), ...extra });
    if (!ok) { message(body.message || "That was refused."); return false; }
    accept(body, { keepRedo });
    return true;
  } finally { ui.busy = false; }
}

function accept(body, { keepRedo = false } = {}) {
  ui.sheet = body.sheet;
  ui.view = body.view;
  ui.tapped = [];
  if (!keepRedo) ui.redo = [];
  saveSheet(ui.sheet);
  render();
}

function message(text, info = false) {
  const m = $("c-message");
  m.textContent = text;
  m.classList.toggle("info", info);
}

// ----- words ---------------------------------------------------------------------------------

function plural(n, one, many = `${one}s`) { return `${n} ${n === 1 ? one : many}`; }
function times(n) { return n === 1 ? "once" : n === 2 ? "twice" : `${n} times`; }
function bdi(text) {
  const b = document.createElement("bdi");
  b.textContent = text;
  return b;
}

// ----- setup ---------------------------------------------------------------------------------

function presetOf(name) { return ui.api.options().presets.find((p) => p.name === name); }

function fillSetup(from = null) {
  const o = ui.api.options();
  const sel = $("c-preset");
  sel.replaceChildren();
  for (const p of o.presets) {
    const opt = document.createElement("option");
    opt.value = p.name;
    opt.textContent = p.name;
    sel.append(opt);
  }
  const [preset, ...twists] = (from?.rules || "house").split("+");
  sel.value = presetOf(preset) ? preset : o.presets[0].name;
  fillTwists(twists);
  fillPlayers(from?.players?.length || 4, from?.players || []);
  if (from && Number.isInteger(from.first_dealer)) $("c-dealer").value = String(from.first_dealer);
  $("c-setup-error").textContent = "";
}

function fillTwists(chosen = []) {
  const p = presetOf($("c-preset").value);
  const box = $("c-twist-list");
  box.replaceChildren();
  if (!p.twists.length) box.textContent = "This preset has no twists.";
  for (const t of p.twists) {
    const row = document.createElement("div");
    row.className = "twist";
    const box2 = document.createElement("input");
    box2.type = "checkbox";
    box2.id = `c-twist-${t.name}`;
    box2.value = t.name;
    box2.checked = chosen.some((c) => c.split(":")[0] === t.name);
    const label = document.createElement("label");
    label.htmlFor = box2.id;
    const strong = document.createElement("strong");
    strong.textContent = t.name;
    label.append(strong, ` — ${t.text}`);
    row.append(box2, " ", label);
    box.append(row);
  }
  const players = $("c-players");
  const before = Number(players.value) || 4;
  players.replaceChildren();
  for (let n = p.min_players; n <= p.max_players; n++) {
    const opt = document.createElement("option");
    opt.value = String(n);
    opt.textContent = String(n);
    players.append(opt);
  }
  players.value = String(Math.min(p.max_players, Math.max(p.min_players, before)));
  fillPlayers(Number(players.value));
}

function fillPlayers(n, names = null) {
  $("c-players").value = String(n);
  const rows = $("c-names");
  const old = names || [...rows.querySelectorAll("input")].map((i) => i.value);
  rows.replaceChildren();
  for (let i = 0; i < Number($("c-players").value); i++) {
    const row = document.createElement("div");
    row.className = "c-name-row";
    const label = document.createElement("label");
    label.htmlFor = `c-name-${i}`;
    label.textContent = `Seat ${i + 1}`;
    const input = document.createElement("input");
    input.id = `c-name-${i}`;
    input.maxLength = 64;   // longer than a name may be, so a long name is refused, not cut
    input.autocomplete = "off";
    input.value = old[i] || "";
    input.addEventListener("input", fillDealer);
    row.append(label, input);
    rows.append(row);
  }
  fillDealer();
}

function setupNames() { return [...$("c-names").querySelectorAll("input")].map((i) => i.value.trim()); }

function fillDealer() {
  const sel = $("c-dealer");
  const before = sel.value;
  const names = setupNames();
  sel.replaceChildren();
  names.forEach((name, i) => {
    const opt = document.createElement("option");
    opt.value = String(i);
    opt.textContent = name ? `${name} (seat ${i + 1})` : `Seat ${i + 1}`;
    sel.append(opt);
  });
  sel.value = before !== "" && Number(before) < names.length ? before : String(names.length - 1);
}

async function startSheet(ev) {
  ev.preventDefault();
  const twists = [...$("c-twist-list").querySelectorAll("input:checked")].map((b) => b.value);
  const names = setupNames();
  const missing = names.findIndex((n) => !n);
  if (missing >= 0) {
    $("c-setup-error").textContent = `Seat ${missing + 1} has no name: give every player a name.`;
    $(`c-name-${missing}`).focus();
    return;
  }
  const long = names.findIndex((n) => [...n].length > MAX_NAME);
  if (long >= 0) {
    $("c-setup-error").textContent = `Seat ${long + 1}'s name has ${[...names[long]].length} characters; a name may have at most ${MAX_NAME}.`;
    $(`c-name-${long}`).focus();
    return;
  }
  const sheet = { rules: [$("c-preset").value, ...twists].join("+"), players: names,
    first_dealer: Number($("c-dealer").value), entries: [] };
  const { ok, body } = await post("/api/companion", { sheet });
  if (!ok) { $("c-setup-error").textContent = body.message || "That was refused."; return; }
  $("c-setup-error").textContent = "";
  accept(body);
  message("");
  $("c-now-title").focus();
}

// ----- drawing -------------------------------------------------------------------------------

function render() {
  const v = ui.view;
  const setup = !v;
  $("companion-setup").hidden = !setup;
  $("companion-sheet").hidden = setup;
  $("companion-title").textContent = setup ? "At a real table" : `At a real table: ${v.rules.name}`;
  if (setup) return;
  renderNow();
  renderEntry();
  renderSheet();
  $("c-undo").disabled = !v.can_undo;
  $("c-redo").disabled = !ui.redo.length;
  $("c-replay").disabled = v.over;
  $("c-result").hidden = !v.over;
  $("c-result-text").textContent = v.result;
}

function renderNow() {
  const v = ui.view;
  const now = v.now;
  $("c-now").hidden = !now;
  if (!now) return;
  $("c-now-title").textContent = `Deal ${now.number}${now.replays ? ` (dealt again ${times(now.replays)})` : ""}`;
  $("c-deal").textContent = now.deal;
  $("c-lead").textContent = now.lead;
  const ex = $("c-exchange");
  ex.replaceChildren();
  for (const line of now.exchange) {
    const li = document.createElement("li");
    li.textContent = line;
    ex.append(li);
  }
  $("c-seats-title").textContent = now.reseated ? "New seats, clockwise" : "Seats, clockwise";
  const circle = $("c-circle");
  circle.replaceChildren();
  circle.dataset.players = String(now.circle.length);
  const n = now.circle.length;
  now.circle.forEach((seat, i) => {
    const li = document.createElement("li");
    li.className = "c-seat";
    li.dataset.angle = String((-90 + (360 * i) / n) * (Math.PI / 180));
    const name = document.createElement("span");
    name.className = "c-seat-name";
    name.textContent = seat.name;
    name.title = seat.name;   // the whole name where it ends in "…"
    li.append(name);
    const tags = [seat.title, seat.dealer ? "deals" : "", seat.leader ? "leads" : ""].filter(Boolean);
    for (const t of tags) {
      const chip = document.createElement("span");
      chip.className = `chip${t === "deals" || t === "leads" ? "" : " title"}`;
      chip.textContent = t;
      li.append(" ", chip);
    }
    circle.append(li);
  });
  placeSeats(circle);
  $("c-seating-words").textContent = now.seating_words;
}

// Each seat on its angle (seat 1 at the top, clockwise), as far out from the middle as its
// whole box stays on the felt (an ellipse): a long name ends in "…" (style.css, .c-seat) and
// never sticks out past the table. Two neighbours that would still cover each other (six or
// seven seats on a phone) get narrower, their names shorter. Placed again when the circle
// changes size.
function placeSeats(circle) {
  const seats = [...circle.querySelectorAll(".c-seat")];
  for (const li of seats) li.style.maxWidth = "";
  const W = circle.clientWidth;
  for (let round = 0; round < 8; round++) {
    placeOnFelt(circle, seats);
    if (!W) return;
    const boxes = seats.map((li) => li.getBoundingClientRect());
    const narrower = new Set();
    boxes.forEach((p, i) => {
      const j = (i + 1) % boxes.length;
      const q = boxes[j];
      if (j !== i && p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
        narrower.add(seats[i]).add(seats[j]);
      }
    });
    if (!narrower.size) return;
    for (const li of narrower) li.style.maxWidth = `${Math.max(0.2 * W, li.offsetWidth - 0.04 * W)}px`;
  }
}

function placeOnFelt(circle, seats) {
  const W = circle.clientWidth;
  const H = circle.clientHeight;
  for (const li of seats) {
    const angle = Number(li.dataset.angle);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    let t = 0.64;   // hidden (no size yet): a fixed oval, placed again once shown
    if (W && H) {
      const a = W / 2;
      const b = H / 2;
      const w = li.offsetWidth / 2 + 3;
      const h = li.offsetHeight / 2 + 3;
      const fits = (r) => ((Math.abs(r * a * cos) + w) / a) ** 2 + ((Math.abs(r * b * sin) + h) / b) ** 2 <= 1;
      t = 0.9;
      while (t > 0.2 && !fits(t)) t -= 0.02;
    }
    li.style.left = `${50 + 50 * t * cos}%`;
    li.style.top = `${50 + 50 * t * sin}%`;
  }
}

function renderEntry() {
  const v = ui.view;
  $("c-entry").hidden = v.over;
  if (v.over) return;
  const now = v.now;
  const n = v.players.length;
  $("c-tap-title").textContent = `Deal ${now.number}: who went out? Tap the names in finishing order`;
  const order = [...ui.tapped];
  if (order.length === n - 1) order.push(now.seating.find((p) => !order.includes(p)));
  const buttons = $("c-tap");
  buttons.replaceChildren();
  for (const name of now.seating) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "c-tap";
    b.textContent = name;
    b.title = name;   // the whole name where a long word ends in "…"
    const at = order.indexOf(name);
    b.disabled = at >= 0;
    if (at >= 0) b.dataset.place = String(at + 1);
    b.onclick = () => tap(name);
    buttons.append(b);
  }
  const list = $("c-order");
  list.replaceChildren();
  order.forEach((name, i) => {
    const li = document.createElement("li");
    li.append(bdi(name));
    if (i === n - 1 && ui.tapped.length === n - 1) li.append(" (last, filled in)");
    list.append(li);
  });
  $("c-order-empty").hidden = order.length > 0;
  $("c-save").textContent = `Save deal ${now.number}`;
  $("c-save").disabled = order.length !== n;
  $("c-back").disabled = !ui.tapped.length;
  $("c-clear").disabled = !ui.tapped.length;
}

function tap(name) {
  if (ui.tapped.includes(name)) return;
  ui.tapped.push(name);
  message("");
  renderEntry();
  const next = [...$("c-tap").querySelectorAll("button:not(:disabled)")][0];
  (next || $("c-save")).focus();
}

async function saveDeal() {
  const n = ui.view.players.length;
  if (ui.tapped.length !== n - 1) return;
  const number = ui.view.now.number;
  if (await change({ order: ui.tapped })) {
    message(`Deal ${number} saved${ui.view.over ? ": the match is over" : ""}.`, true);
    // Next: what the table needs before the next deal (or the result).
    $(ui.view.over ? "c-result-title" : "c-now-title").focus({ preventScroll: false });
  }
}

function renderSheet() {
  const v = ui.view;
  const scored = v.totals !== null;
  const deals = v.deals.filter((d) => !d.replayed);
  const table = $("c-table");
  table.replaceChildren();
  $("c-table-note").textContent = scored ? "Totals, then each deal's title and points."
    : "Each deal's roles (no points: roles are the prize).";
  const head = document.createElement("thead");
  const hr = document.createElement("tr");
  const cells = ["Player", ...(scored ? ["Total"] : []), ...deals.map((d) => `Deal ${d.number}`)];
  for (const text of cells) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    if (text === "Total") th.className = "total";
    hr.append(th);
  }
  head.append(hr);
  const body = document.createElement("tbody");
  v.players.forEach((name, p) => {
    const tr = document.createElement("tr");
    if (v.winners.includes(name)) tr.className = "winner";
    const th = document.createElement("th");
    th.scope = "row";
    th.append(bdi(name));
    if (v.winners.includes(name)) th.append(" ★");
    tr.append(th);
    if (scored) {
      const td = document.createElement("td");
      td.className = "total";
      td.textContent = String(v.totals[p]);
      tr.append(td);
    }
    for (const d of deals) {
      const mine = d.order.find((o) => o.name === name);
      const td = document.createElement("td");
      const title = document.createElement("span");
      title.className = "place";
      title.textContent = mine.title;
      td.append(title);
      if (scored) {
        const pts = document.createElement("span");
        pts.className = "points";
        pts.textContent = mine.points ? `+${mine.points}` : "0";
        td.append(pts);
      }
      tr.append(td);
    }
    body.append(tr);
  });
  table.append(head, body);
  const scroll = table.parentElement;
  scroll.scrollLeft = scroll.scrollWidth;   // the latest deals in view
  // ... and no deal half hidden under the names and totals: its heading would be hidden.
  const stuck = hr.children[scored ? 1 : 0].getBoundingClientRect().right;
  const starts = [...hr.children].slice(scored ? 2 : 1)
    .map((th) => scroll.scrollLeft + th.getBoundingClientRect().left - stuck)
    .filter((x) => x <= scroll.scrollLeft + 0.5);
  if (starts.length) scroll.scrollLeft = Math.max(0, Math.round(starts[starts.length - 1]));
  const again = v.deals.filter((d) => d.replayed).map((d) => d.number);
  const counts = {};
  for (const k of again) counts[k] = (counts[k] || 0) + 1;
  $("c-again").textContent = again.length
    ? `Dealt again (scores and ranks unchanged): ${Object.entries(counts).map(([k, c]) => `deal ${k} ${times(c)}`).join(", ")}.`
    : "";
  $("c-end").textContent = `${v.rules.end} ${plural(v.deals_played, "deal")} played.`;
}

// ----- tools ---------------------------------------------------------------------------------

// The last entry of a sheet in words: "deal 3's finishing order (Blair, Alex, Casey, Drew)" or
// "deal 3 dealt again" (a deal dealt again keeps its number).
function lastEntry(sheet) {
  const entries = sheet.entries || [];
  const last = entries[entries.length - 1];
  const number = entries.slice(0, -1).filter((e) => e !== "replayed").length + 1;
  return last === "replayed" ? `deal ${number} dealt again`
    : `deal ${number}'s finishing order (${last.join(", ")})`;
}

function capital(text) { return text[0].toUpperCase() + text.slice(1); }

async function undo() {
  if (!ui.sheet?.entries?.length) return;
  const what = lastEntry(ui.sheet);
  const yes = await ui.api.confirmBox("Undo the last entry?",
    `${capital(what)} is taken back, with any points it gave. Redo puts it back.`, "Undo");
  if (!yes) return;
  const before = ui.sheet;
  if (await change({ undo: true }, { keepRedo: true })) {
    ui.redo.push(before);
    render();
    message(`Took back ${what}. Redo puts it back.`, true);
  }
}

// Put back the entry the last undo took back: the sheet as it was, checked again by the server.
async function redo() {
  const sheet = ui.redo[ui.redo.length - 1];
  if (!sheet) return;
  if (await change({}, { sheet, keepRedo: true })) {
    ui.redo.pop();
    render();
    message(`Put back ${lastEntry(ui.sheet)}.`, true);
  }
}

async function replayDeal() {
  const number = ui.view.now.number;
  const yes = await ui.api.confirmBox(`Deal ${number} again?`,
    `Deal ${number} is dealt again: nobody scores for it, and the dealer, the seats and the exchange stay as they are.`,
    "Deal again");
  if (yes && await change({ replay: true })) message(`Deal ${number} is dealt again.`, true);
}

async function newMatch() {
  if (ui.view && !ui.view.over && ui.sheet.entries.length) {
    const yes = await ui.api.confirmBox("Start a new match?",
      "This match is not over. A new match starts everyone at zero (the sheet is replaced; export it first to keep it).",
      "New match");
    if (!yes) return;
  }
  const from = ui.sheet;
  ui.view = null;
  render();
  fillSetup(from);
  message("");
  $("c-preset").focus();
}

function cancelSetup() {
  if (ui.sheet && ui.view === null && loadSheet()) { refresh(); return; }
  leave();
}

async function exportSheet() {
  const { ok, body } = await post("/api/companion/export", { sheet: compact(ui.sheet) });
  if (!ok) { message(body.message || "The sheet could not be exported."); return; }
  const blob = new Blob([JSON.stringify(body, null, 2) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `president-sheet-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  message(`Exported the sheet as a game record (${a.download}).`, true);
}

async function importSheet(ev) {
  const file = ev.target.files[0];
  ev.target.value = "";
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    message(`This file is not a score sheet or game record: ${file.name} is not JSON text. Nothing changed.`);
    return;
  }
  if (ui.view && ui.sheet.entries.length) {
    const yes = await ui.api.confirmBox("Replace this sheet?",
      `The sheet in ${file.name} replaces the one on this device.`, "Replace");
    if (!yes) return;
  }
  const { ok, body } = await post("/api/companion/import", record);
  if (!ok) { message(`${body.message || "That record was refused."} Nothing changed.`); return; }
  accept(body);
  message(`Read the sheet from ${file.name}.`, true);
}

// ----- opening and leaving -------------------------------------------------------------------

async function refresh() {
  const saved = loadSheet();
  ui.sheet = saved;
  ui.view = null;
  ui.tapped = [];
  if (saved) {
    const { ok, body } = await post("/api/companion", { sheet: compact(saved) });
    if (ok) { accept(body); return; }
    render();
    fillSetup(saved);
    $("c-setup-error").textContent = `The sheet saved on this device could not be read (${body.message || "refused"}); a new one replaces it.`;
    return;
  }
  render();
  fillSetup();
}

export async function openCompanion() {
  await ui.api.loadOptions();
  ui.api.show("companion");
  if (location.hash !== HASH) history.replaceState(null, "", location.pathname + HASH);
  message("");
  await refresh();
  $("companion-title").focus?.();
}

function leave() {
  if (location.hash === HASH) history.replaceState(null, "", location.pathname);
  ui.api.showStart();
  renderStartPanel();
}

// The start screen's "At a real table" panel: says whether a sheet is saved here.
export function renderStartPanel() {
  const saved = loadSheet();
  const note = $("companion-saved");
  if (!saved || !Array.isArray(saved.players)) { note.hidden = true; $("open-companion").textContent = "Keep score at a real table"; return; }
  const deals = (saved.entries || []).filter((e) => e !== "replayed").length;
  note.hidden = false;
  note.textContent = `A score sheet is in progress, saved on this device: ${saved.rules}, ${saved.players.join(", ")}; ${plural(deals, "deal")} entered.`;
  $("open-companion").textContent = "Continue the score sheet";
}

export function wantsCompanion() { return location.hash === HASH; }

// Called once from app.js main(): api = {show, confirmBox, showStart, loadOptions, options}.
export function initCompanion(api) {
  ui.api = api;
  $("open-companion").onclick = openCompanion;
  $("companion-back").onclick = leave;
  $("companion-setup").addEventListener("submit", startSheet);
  $("c-cancel").onclick = cancelSetup;
  $("c-preset").addEventListener("change", () => fillTwists());
  $("c-players").addEventListener("change", () => fillPlayers(Number($("c-players").value)));
  $("c-save").onclick = saveDeal;
  $("c-back").onclick = () => { ui.tapped.pop(); renderEntry(); };
  $("c-clear").onclick = () => { ui.tapped = []; renderEntry(); };
  $("c-undo").onclick = undo;
  $("c-redo").onclick = redo;
  $("c-replay").onclick = replayDeal;
  $("c-new").onclick = newMatch;
  $("c-new-after").onclick = newMatch;
  $("c-export").onclick = exportSheet;
  $("c-import").addEventListener("change", importSheet);
  $("c-print").onclick = () => window.print();
  if (window.ResizeObserver) new ResizeObserver(() => placeSeats($("c-circle"))).observe($("c-circle"));
  renderStartPanel();
}

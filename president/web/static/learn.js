// Learn: the start screen's Learn section. It lists the lessons of
// GET /api/lessons; one opens in place and steps with Previous / Next. Each step shows what
// happened (the engine's events in words), why, and every hand face up; a move typed in the
// box goes to POST /api/lessons/{id}/try and the engine's answer is shown (the lesson itself
// never changes). This file states no rule of the game: the steps, the reasons and the
// answers all come from the server (president.lessons, docs/web.md "Learn").

const $ = (id) => document.getElementById(id);

const learn = {
  api: null,        // {facesImage, cardLabel, withSymbols, named, plural, notice} from app.js
  lessons: [],      // GET /api/lessons
  lesson: null,     // the lesson open, GET /api/lessons/{id}
  step: 0,          // its step shown
  asked: 0,         // counts questions, so a late answer for an earlier step is dropped
};

/** Wire the Learn section and load the lesson list; `api` lends app.js's card drawing and
 * sentence helpers. */
export function initLearn(api) {
  learn.api = api;
  $("lesson-prev").onclick = () => showLessonStep(learn.step - 1);
  $("lesson-next").onclick = () => showLessonStep(learn.step + 1);
  $("lesson-close").onclick = closeLesson;
  $("lesson-try").addEventListener("submit", tryLessonMove);
  loadLessons();
}

async function loadLessons() {
  const list = $("lesson-list");
  try {
    const r = await fetch("/api/lessons");
    if (!r.ok) throw new Error(`status ${r.status}`);
    learn.lessons = (await r.json()).lessons;
  } catch {
    list.replaceChildren();
    const li = document.createElement("li");
    li.textContent = "The lessons could not be loaded; reload the page to try again.";
    list.append(li);
    return;
  }
  list.replaceChildren();
  for (const lesson of learn.lessons) {
    const li = document.createElement("li");
    const open = document.createElement("button");
    open.type = "button";
    open.className = "lesson-open";
    open.dataset.lesson = lesson.id;
    open.textContent = lesson.title;
    open.onclick = () => openLesson(lesson.id);
    const about = document.createElement("span");
    about.className = "note";
    about.textContent = ` ${learn.api.plural(lesson.steps, "step")} · from ${lesson.source_text}`;
    const summary = document.createElement("p");
    summary.className = "lesson-summary";
    summary.textContent = lesson.summary;
    li.append(open, about, summary);
    list.append(li);
  }
}

async function openLesson(id) {
  let body;
  try {
    const r = await fetch(`/api/lessons/${encodeURIComponent(id)}`);
    body = await r.json();
    if (!r.ok) throw new Error(body.message || `status ${r.status}`);
  } catch (e) {
    learn.api.notice(`That lesson could not be loaded: ${e.message}`);
    return;
  }
  learn.lesson = body;
  $("lesson-title").textContent = body.title;
  $("lesson-meta").textContent = `Rules: ${body.rules} · from ${body.source_text} · every hand face up, as in a lesson`;
  $("lesson-summary").textContent = body.summary;
  $("lesson-list").hidden = true;
  $("lesson").hidden = false;
  showLessonStep(0);
  $("lesson-next").focus();
}

function closeLesson() {
  const id = learn.lesson?.id;
  learn.lesson = null;
  $("lesson").hidden = true;
  $("lesson-list").hidden = false;
  const back = id && $("lesson-list").querySelector(`[data-lesson="${id}"]`);
  if (back) back.focus();
}

function showLessonStep(i) {
  const lesson = learn.lesson;
  if (!lesson) return;
  const n = lesson.steps.length;
  const k = Math.max(0, Math.min(n - 1, i));
  learn.step = k;
  learn.asked += 1;                     // an answer still on its way is for another step
  const step = lesson.steps[k];
  $("lesson").dataset.step = String(k);
  $("lesson-count").textContent = `Step ${k + 1} of ${n}`;
  $("lesson-prev").disabled = k === 0;
  $("lesson-next").disabled = k === n - 1;
  const events = $("lesson-events");
  events.replaceChildren();
  for (const ev of step.events) {
    const li = document.createElement("li");
    li.textContent = learn.api.withSymbols(ev.text);
    events.append(li);
  }
  $("lesson-why").textContent = step.why;
  renderLessonTable(step.position, k === n - 1);
  const pos = step.position;
  const who = pos.to_act === null ? null : pos.seats[pos.to_act].name;
  const label = $("lesson-move-label");
  label.replaceChildren(...(who === null ? ["Try a move here"]
    : [...learn.api.named`Try a move for ${who}`, pos.phase === "exchange" ? " (the cards to give)" : ""]));
  const tries = $("lesson-tries");
  tries.replaceChildren();
  if (step.tries.length) tries.append("Try: ");
  for (const text of step.tries) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "lesson-suggest";
    b.textContent = learn.api.withSymbols(text);
    b.setAttribute("aria-label", `Try ${text}`);
    b.onclick = () => { $("lesson-move").value = text; tryLessonMove(); };
    tries.append(b);
  }
  $("lesson-move").value = "";
  const answer = $("lesson-answer");
  answer.textContent = "";
  answer.className = "lesson-answer";
}

function renderLessonTable(pos, last = false) {
  const box = $("lesson-table");
  box.replaceChildren();
  const pile = document.createElement("div");
  pile.className = "lesson-pile";
  pile.setAttribute("role", "region");
  pile.setAttribute("aria-label", "Pile");
  if (pos.pile.length) {
    for (const play of pos.pile) {
      const row = document.createElement("p");
      row.className = "lesson-play";
      const who = document.createElement("span");
      who.append(...learn.api.named`${play.name}:`);
      row.append(who, learn.api.facesImage(play.cards));
      pile.append(row);
    }
    const beat = document.createElement("p");
    beat.className = "lesson-to-beat";
    if (pos.phase !== "play") {
      beat.textContent = "The deal is over.";
    } else if (last) {
      beat.textContent = `The lesson ends here; the deal would go on, with the ${pos.to_beat} to beat.`;
    } else {
      beat.textContent = `To beat: ${pos.to_beat}.`;
    }
    pile.append(beat);
  } else if (pos.pending) {
    pile.textContent = `Exchange: ${pos.pending.text}.`;   // the server's words (narration)
  } else {
    pile.textContent = pos.phase === "play" ? "The pile is empty." : "The deal is over.";
  }
  const seats = document.createElement("ul");
  seats.className = "lesson-seats";
  for (const s of pos.seats) {
    const li = document.createElement("li");
    li.className = "lesson-seat";
    li.dataset.seat = String(s.seat);
    if (s.seat === pos.to_act) li.classList.add("to-act");
    if (s.place) li.classList.add("out");
    const head = document.createElement("p");
    head.className = "lesson-seat-head";
    const name = document.createElement("bdi");
    name.className = "name";
    name.textContent = s.name;
    const notes = [];
    if (s.seat === pos.to_act) notes.push(pos.phase === "exchange" ? "to give" : "to play");
    if (s.place) notes.push(`out: ${s.title}`);
    else if (s.passed) notes.push("passed");
    if (s.seat === pos.dealer) notes.push("dealer");
    if (s.previous_title) notes.push(`was ${s.previous_title}`);
    head.append(name, notes.length ? ` — ${notes.join(", ")}` : "");
    li.append(head);
    if (s.hand.length) {
      const hand = learn.api.facesImage(s.hand);
      hand.classList.add("lesson-hand");
      hand.setAttribute("aria-label", `${s.name}'s hand: ${s.hand.map(learn.api.cardLabel).join(", ")}`);
      li.append(hand);
    } else {
      const none = document.createElement("p");
      none.className = "note";
      none.textContent = "No cards left.";
      li.append(none);
    }
    seats.append(li);
  }
  box.append(pile, seats);
}

async function tryLessonMove(ev) {
  if (ev) ev.preventDefault();
  const lesson = learn.lesson;
  if (!lesson) return;
  const answer = $("lesson-answer");
  const move = $("lesson-move").value.trim();
  if (!move) {
    answer.className = "lesson-answer";
    answer.textContent = "Type a move first: cards such as KD KS, or pass.";
    return;
  }
  const asked = ++learn.asked;
  let text, legal = false;
  try {
    const r = await fetch(`/api/lessons/${encodeURIComponent(lesson.id)}/try`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ step: learn.step, move }),
    });
    const body = await r.json();
    legal = r.ok && body.legal;
    text = r.ok ? body.reason : body.message;
  } catch {
    text = "The server did not answer; try again.";
  }
  if (asked !== learn.asked) return;    // another step or another try since
  answer.className = `lesson-answer ${legal ? "legal" : "illegal"}`;
  answer.textContent = learn.api.withSymbols(text);
}

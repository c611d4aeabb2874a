"""Issue 35, items 3 and 4: the hand and the controls at the standard of the best card apps,
measured in headless Chromium at 360×740 (a phone) and 1366×900 (a desktop).

- Every card of a hand of 13 or 18 cards has a part at least 44 px wide and 44 px tall that
  a tap on it hits (measured with ``document.elementFromPoint`` over the whole hand, not
  from the boxes: a card under its neighbour is only the part that shows), with its rank and
  suit in that part.
- Sliding a pointer across cards selects them (and across selected ones, deselects them); a
  finger that scrolls the page instead leaves the cards as they were.
- Cards that cannot be part of any legal play are dimmed by default; an option turns it off.
- A live "Play selected cards" is the most prominent control on the bar.
- No status line is cut ("…") through two whole 7-player deals at 360 px (the second with
  its exchange); nothing of a seat box (its title chip included) lies outside the box during
  the exchange at 4 and 7 players, and no two seat boxes cover each other.
- A clearing pile does not fade over the words of the pile ("Empty pile", earlier plays).
- Learn: Previous / Next and the box to try a move stay in the window while a step scrolls.

Screenshots go to ``test-artifacts/screenshots/hand-*.png`` (not committed).
"""

from __future__ import annotations

import pytest

from president import Match, Rules

from .test_web_browser import start_practice, take_turn
from .test_web_findings import new_match, open_exchange

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
SIZES = [pytest.param(PHONE, id="360"), pytest.param(DESKTOP, id="1366")]

# For each card of the hand: the longest run of pixels across (and down) the card at which
# elementFromPoint finds that card, i.e. the part of it a tap hits; and whether its corner
# (rank and suit) lies in that part.
TAP_TARGETS = """() => {
  const cards = [...document.querySelectorAll('#hand .card')];
  return cards.map((card) => {
    const r = card.getBoundingClientRect();
    const hit = (x, y) => { const el = document.elementFromPoint(x, y); return !!el && el.closest('.card') === card; };
    let wide = 0, tall = 0;
    for (let y = Math.ceil(r.top) + 1; y < r.bottom - 1; y += 2) {
      let run = 0;
      for (let x = Math.ceil(r.left); x < r.right; x += 1) {
        if (hit(x, y)) { run += 1; wide = Math.max(wide, run); } else run = 0;
      }
    }
    for (let x = Math.ceil(r.left) + 1; x < r.right - 1; x += 2) {
      let run = 0;
      for (let y = Math.ceil(r.top); y < r.bottom; y += 1) {
        if (hit(x, y)) { run += 1; tall = Math.max(tall, run); } else run = 0;
      }
    }
    const corner = card.querySelector('.corner').getBoundingClientRect();
    const seen = [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]].every(([fx, fy]) =>
      hit(corner.left + corner.width * fx, corner.top + corner.height * fy));
    return {card: card.dataset.card, wide, tall, corner: seen,
            inView: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight};
  });
}"""


def tap_targets(page) -> list[dict]:
    return page.evaluate(TAP_TARGETS)


def seed_with_cards(n: int, players: int, preset: str = "first-night") -> int:
    for seed in range(300):
        m = Match(Rules.preset(preset, players=players), [f"P{i}" for i in range(players)], seed=seed,
                  deal_seed_bits=32)
        if len(m.deal.hand(m.seating.index(0))) == n:
            return seed
    raise AssertionError("no such seed")


def hand_page(browser, served, size, cards: int):
    """A page at a first-night table whose hand holds ``cards`` cards (13: four players, 18:
    three players, 52 cards) on your turn to lead."""
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    players = 4 if cards == 13 else 3
    info, seat = new_match(page, served, preset="first-night", players=players,
                           seed=seed_with_cards(cards, players))
    seat.close()
    page.wait_for_function(f"() => document.querySelectorAll('#hand .card').length === {cards}")
    page.wait_for_timeout(200)
    return context, page


def bar_top(page) -> float:
    return page.evaluate("document.getElementById('action-bar').getBoundingClientRect().top")


@pytest.mark.parametrize("cards", [13, 18])
@pytest.mark.parametrize("size", SIZES)
def test_every_card_has_a_tap_target_of_44_px(browser, served, screenshots, size, cards, request):
    name = request.node.callspec.id
    context, page = hand_page(browser, served, size, cards)
    try:
        page.screenshot(path=str(screenshots / f"hand-{name}.png"))
        targets = tap_targets(page)
        assert len(targets) == cards
        narrowest = min(t["wide"] for t in targets)
        shortest = min(t["tall"] for t in targets)
        print(f"{name}: narrowest tap target {narrowest} px wide, shortest {shortest} px tall")
        assert narrowest >= 44, targets
        assert shortest >= 44, targets
        assert all(t["corner"] for t in targets), targets        # rank and suit in sight
        assert all(t["inView"] for t in targets), targets
        bottom = page.evaluate("Math.max(...[...document.querySelectorAll('#hand .card')]"
                               ".map(e => e.getBoundingClientRect().bottom))")
        assert bottom <= bar_top(page) + 0.5                     # not under the action bar
        assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
        # Every other card selected (raised): the cards still keep 44 px.
        for i in range(0, cards, 2):
            page.locator("#hand .card").nth(i).dispatch_event("click")
        assert page.locator("#hand .card[aria-pressed=true]").count() == (cards + 1) // 2
        page.wait_for_timeout(200)                                # the raise's transition
        raised = tap_targets(page)
        page.screenshot(path=str(screenshots / f"hand-{name}-selected.png"))
        assert min(t["wide"] for t in raised) >= 44, raised
        assert min(t["tall"] for t in raised) >= 44, raised
        assert all(t["corner"] for t in raised), raised
    finally:
        context.close()


def card_point(page, card: str) -> tuple[float, float]:
    """A point in the part of ``card`` that shows (its corner)."""
    box = page.eval_on_selector(f"#hand .card[data-card='{card}'] .corner",
                                "e => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }")
    return box[0], box[1]


def pressed(page) -> list[str]:
    return page.eval_on_selector_all("#hand .card[aria-pressed=true]", "els => els.map(e => e.dataset.card)")


def row_of(page, first: int, count: int) -> list[str]:
    """``count`` cards of one row of the hand, from the ``first``."""
    tops = page.eval_on_selector_all("#hand .card", "els => els.map(e => [e.dataset.card, Math.round(e.getBoundingClientRect().top)])")
    row = [c for c, top in tops if top == tops[first][1]]
    start = row.index(tops[first][0])
    assert len(row) >= start + count
    return row[start:start + count]


def test_a_finger_slid_across_the_hand_selects_and_deselects(browser, served):
    context, page = hand_page(browser, served, PHONE, 13)
    try:
        cards = row_of(page, 1, 4)
        cdp = context.new_cdp_session(page)

        def slide(a: str, b: str) -> None:
            (x0, y0), (x1, _) = card_point(page, a), card_point(page, b)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
            for k in range(1, 13):
                x = x0 + (x1 - x0) * k / 12
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y0}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            page.wait_for_timeout(100)

        slide(cards[0], cards[-1])
        assert pressed(page) == cards
        assert page.is_enabled("#play")     # (the engine says why, if it is no play)
        slide(cards[1], cards[2])                     # from a selected card: deselects
        assert pressed(page) == [cards[0], cards[3]]
        page.tap(f"#hand .card[data-card='{cards[0]}']", position={"x": 8, "y": 14})   # a tap: one card
        assert pressed(page) == [cards[3]]
        page.tap(f"#hand .card[data-card='{cards[1]}']", position={"x": 8, "y": 14})
        assert pressed(page) == [cards[1], cards[3]]
        # A finger moved up the page scrolls it: the card it started on is left as it was.
        x, y = card_point(page, cards[2])
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for k in range(1, 13):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 12 * k}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(300)
        assert page.evaluate("window.scrollY") > 0
        assert pressed(page) == [cards[1], cards[3]]
    finally:
        context.close()


def test_the_mouse_dragged_across_the_hand_selects_cards(browser, served):
    context, page = hand_page(browser, served, DESKTOP, 13)
    try:
        cards = row_of(page, 2, 3)
        (x0, y0), (x1, _) = card_point(page, cards[0]), card_point(page, cards[-1])
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x1, y0, steps=10)
        page.mouse.up()
        assert pressed(page) == cards
        page.click(f"#hand .card[data-card='{cards[1]}']")     # a click: that card only
        assert pressed(page) == [cards[0], cards[2]]
        page.focus(f"#hand .card[data-card='{cards[1]}']")
        page.keyboard.press("Space")                          # the keyboard still toggles
        assert pressed(page) == cards
    finally:
        context.close()


def dimmed(page) -> list[str]:
    return page.eval_on_selector_all("#hand .card.dim", "els => els.map(e => e.dataset.card)")


def test_cards_that_cannot_be_played_are_dimmed_until_turned_off(browser, served, screenshots):
    context = browser.new_context(base_url=served.url, **PHONE)
    page = context.new_page()
    try:
        start_practice(page)
        assert page.is_checked("#highlight")                  # on by default
        assert dimmed(page) == []                             # a lead: every card can be played
        for _ in range(12):                                   # until a pile some cards cannot beat
            take_turn(page)
            if page.is_visible("#result"):
                pytest.skip("the round ended first")
            if dimmed(page) and page.locator("#hand .card.playable").count():
                break
        else:
            pytest.skip("no such turn")
        hand = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
        playable = page.eval_on_selector_all("#hand .card.playable", "els => els.map(e => e.dataset.card)")
        dim = dimmed(page)
        assert sorted(playable + dim) == sorted(hand) and not set(playable) & set(dim)
        page.screenshot(path=str(screenshots / "hand-360-dimmed.png"))
        look = page.evaluate("""() => { const bg = (s) => getComputedStyle(document.querySelector(s)).backgroundColor;
                                        return [bg('#hand .card.dim .face'), bg('#hand .card.playable .face')]; }""")
        assert look[0] != look[1], look
        page.evaluate("document.querySelector('.options-panel').open = true")
        page.uncheck("#highlight")
        assert dimmed(page) == [] and page.locator("#hand .card.playable").count() == 0
    finally:
        context.close()


CONTRAST = """() => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const bar = rgb(getComputedStyle(document.getElementById('action-bar')).backgroundColor);
  const seen = (id) => { const st = getComputedStyle(document.getElementById(id)); const c = rgb(st.backgroundColor);
    const a = c.length > 3 ? c[3] : 1; const mix = [0, 1, 2].map((i) => c[i] * a + bar[i] * (1 - a));
    const l1 = lum(mix), l2 = lum(bar);
    return {contrast: (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05), weight: Number(st.fontWeight)}; };
  return {play: seen('play'), pass: seen('pass'), hint: seen('hint'), clear: seen('clear')};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_live_play_button_stands_out_most(browser, served, screenshots, size, request):
    context, page = hand_page(browser, served, size, 13)
    try:
        idle = page.evaluate(CONTRAST)
        assert page.is_disabled("#play")
        page.locator("#hand .card").nth(0).dispatch_event("click")
        assert page.is_enabled("#play")
        live = page.evaluate(CONTRAST)
        page.screenshot(path=str(screenshots / f"hand-{request.node.callspec.id}-play-live.png"))
        print(f"contrast with the bar: live Play {live['play']['contrast']:.2f}, disabled Play "
              f"{idle['play']['contrast']:.2f}, Pass {live['pass']['contrast']:.2f}, Hint {live['hint']['contrast']:.2f}")
        for other in ("pass", "hint", "clear"):
            assert live["play"]["contrast"] > 2 * live[other]["contrast"], live
            assert live["play"]["weight"] > live[other]["weight"], live
        assert live["play"]["contrast"] > 3 * idle["play"]["contrast"], (live, idle)
    finally:
        context.close()


STATUS = "#announce, #you-title, #play-why, #message, #to-beat, #bar-info, #exchange-panel p, .seat .meta"
WATCH_CUTS = """(sel) => {
  window.__cuts = [];
  const check = () => { for (const el of document.querySelectorAll(sel)) {
    if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1) {
      const line = `${el.id || el.className}: ${el.textContent}`;
      if (!window.__cuts.includes(line)) window.__cuts.push(line); } } };
  new MutationObserver(() => requestAnimationFrame(check))
    .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  check();
}"""


def give(page) -> None:
    """Your part of the exchange, as the page offers it."""
    before = int(page.get_attribute("#table", "data-actions"))
    if page.is_visible("#give-forced"):
        page.click("#give-forced")
    else:
        page.click("#hint")
        page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
        page.click("#give-selected")
    page.wait_for_function(f"() => Number(document.getElementById('table').dataset.actions) > {before}")


def test_no_status_line_is_cut_through_seven_player_deals_on_a_phone(browser, served, screenshots):
    context = browser.new_context(base_url=served.url, **PHONE)
    page = context.new_page()
    try:
        info, seat = new_match(page, served, players=7, seed=5)
        seat.close()
        page.evaluate(WATCH_CUTS, STATUS)
        turns = 0
        for deal in (1, 2):
            while True:
                page.wait_for_function("""() => { const t = document.getElementById('table');
                    return t.dataset.turn === 'you' || !document.getElementById('result').hidden; }""")
                if page.is_visible("#result"):
                    break
                if page.get_attribute("#table", "data-phase") == "exchange":
                    page.screenshot(path=str(screenshots / "hand-360-7p-exchange.png"))
                    give(page)
                else:
                    take_turn(page)
                turns += 1
                if turns == 3:
                    page.screenshot(path=str(screenshots / "hand-360-7p-turn.png"))
            if deal == 1:
                page.click("#result-actions button")         # Next deal
                page.wait_for_function("() => document.getElementById('result').hidden")
        cuts = page.evaluate("window.__cuts")
        print(f"{turns} turns over two 7-player deals at 360 px; lines cut: {len(cuts)}")
        assert cuts == []
    finally:
        context.close()


SEATS = """() => { const out = [], boxes = [];
  for (const seat of document.querySelectorAll('#opponents .seat')) {
    const r = seat.getBoundingClientRect();
    boxes.push(r);
    for (const el of seat.querySelectorAll('*')) {
      const b = el.getBoundingClientRect();
      if (!b.width || el.closest('.bubble')) continue;       // a pass bubble sits on its corner
      if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5)
        out.push(`${seat.querySelector('.name').textContent}: ${el.className} "${el.textContent}"`);
    }
  }
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) out.push('two seats overlap');
  }));
  return out; }"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [4, 7])
def test_nothing_lies_outside_its_seat_during_the_exchange(browser, served, screenshots, players, size, request):
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    try:
        open_exchange(page, served, players)
        page.screenshot(path=str(screenshots / f"hand-{request.node.callspec.id}-exchange.png"))
        assert page.locator("#opponents .chip.title").count() >= 1
        assert page.evaluate(SEATS) == []
    finally:
        context.close()


# Each frame while a cleared pile sweeps to the discard: any visible words of the pile that the
# fading cards lie over.
WATCH_SWEEP = """() => {
  window.__sweeps = 0; window.__over = [];
  const words = () => [...document.querySelectorAll('#to-beat, #discard > span:not(.back), #pile-under')]
    .filter((e) => e.textContent.trim() && getComputedStyle(e).visibility === 'visible');
  const frame = () => {
    const flights = [...document.querySelectorAll('.flying')].filter((f) => f.querySelector('.pile-cards'));
    if (flights.length) window.__sweeps += 1;
    for (const f of flights) { const a = f.getBoundingClientRect();
      for (const w of words()) { const b = w.getBoundingClientRect();
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          window.__over.push(w.textContent); } }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_clearing_pile_fades_over_no_words(browser, served, size):
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    try:
        start_practice(page)
        assert page.get_attribute("#table", "data-motion") == "on"
        page.evaluate(WATCH_SWEEP)
        for _ in range(30):
            take_turn(page)
            if page.is_visible("#result") or page.evaluate("window.__sweeps") > 0:
                break
        page.wait_for_timeout(800)
        if not page.evaluate("window.__sweeps"):
            pytest.skip("no pile was cleared with you watching")
        assert page.evaluate("window.__over") == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_lesson_keeps_its_steps_and_the_try_box_in_reach(browser, served, screenshots, size, request):
    """Learn: Previous / Next stay at the top of the window and the box to try a move at its
    bottom, wherever a long step is scrolled to."""
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    try:
        page.goto("/")
        page.wait_for_selector("#lesson-list .lesson-open")
        page.click("[data-lesson='first-night']")
        page.wait_for_selector("#lesson:not([hidden])")
        for _ in range(3):
            page.click("#lesson-next")
        page.wait_for_function("() => document.getElementById('lesson').dataset.step === '3'")
        height = size["viewport"]["height"]
        for where in ("start", "center", "end"):
            page.evaluate(f"document.getElementById('lesson-table').scrollIntoView({{block: '{where}'}})")
            page.wait_for_timeout(100)
            for selector in ("#lesson-prev", "#lesson-next", "#lesson-move", "#lesson-try-button"):
                box = page.locator(selector).bounding_box()
                assert box["y"] >= 0 and box["y"] + box["height"] <= height, (where, selector, box)
        page.screenshot(path=str(screenshots / f"hand-{request.node.callspec.id}-learn.png"))
        page.fill("#lesson-move", "pass")
        page.click("#lesson-try-button")
        page.wait_for_function("() => document.getElementById('lesson-answer').textContent !== ''")
        box = page.locator("#lesson-answer").bounding_box()
        assert box["y"] + box["height"] <= height
        page.click("#lesson-next")                            # Next works from anywhere
        page.wait_for_function("() => document.getElementById('lesson').dataset.step === '4'")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
    finally:
        context.close()

"""A new player's trial, in headless Chromium at 360×740 (a phone) and 1280×800 (a laptop):

1. after the exchange, the summary ("You gave 2♠ to Blair. Blair gave you 3♥.") stays in view
   until your first play or pass but never covers a card of your hand, and the hint about
   the card to give does not linger under the hand once it is given;
2. "At a real table": every seat of the drawn table stays on the felt with long names (a
   long name ends in "…", the whole name is its title), neighbours do not cover each other,
   and the finishing-order buttons wrap names between words only;
3. the play log says who was left holding cards at a deal's end, as the terminal does, live
   and after a reload;
4. once the deal is over, the line under the table shows "Deal over: …" whole (while cards
   are played it stays one line, so the hand never moves).

Screenshots go to ``test-artifacts/screenshots/trial-*.png`` (not committed).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_web_browser import log_lines, take_turn, wait_ready
from .test_web_companion import open_companion, set_up
from .test_web_findings import new_match, open_exchange, seat0_place_seed

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = [pytest.param(PHONE, id="360"), pytest.param(LAPTOP, id="1280")]

BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return {summary: box(document.getElementById('exchange-panel')),
          announce: box(document.getElementById('announce')),
          hand: box(document.getElementById('hand')),
          bar: box(document.getElementById('action-bar')),
          cards: [...document.querySelectorAll('#hand .card')].map(box)};
}"""


def meets(a, b) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("place", [pytest.param(-1, id="last"), pytest.param(0, id="president")])
def test_the_exchange_summary_never_covers_the_hand(browser, served, screenshots, size, place, request):
    name = request.node.callspec.id
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    try:
        info, seat = new_match(page, served, seed=seat0_place_seed(place))
        seat.play_deal()
        seat.close()
        page.wait_for_selector("#result", state="visible")
        page.click("#result-actions button")                  # Next deal
        if place == -1:     # the bottom gives its highest card; the President leads
            page.wait_for_selector("#give-forced", state="visible")
            page.click("#give-forced")
            wait_ready(page)
            page.wait_for_function("() => document.querySelectorAll('#pile-cards .face').length > 0")
        else:               # the President asks for a hint, gives back that card, then leads
            page.wait_for_selector("#give-selected", state="visible")
            page.click("#hint")
            page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
            page.click("#give-selected")
            wait_ready(page)
        summary = page.locator("#exchange-panel")
        expect(summary).to_be_visible()
        expect(summary).to_contain_text("You gave")
        expect(summary).to_contain_text("gave you")
        # The hint was about the card to give: it goes once that card is given.
        expect(page.locator("#message")).to_have_text("")
        page.wait_for_timeout(300)                             # seats and felt settled
        page.screenshot(path=str(screenshots / f"trial-{name}-after-exchange.png"))
        at = page.evaluate(BOXES)
        assert len(at["cards"]) == 13
        assert not any(meets(at["summary"], card) for card in at["cards"]), at
        # Between the announcement line and the hand, and the hand still above the action bar.
        assert at["announce"]["bottom"] <= at["summary"]["top"] + 1
        assert at["summary"]["bottom"] <= at["hand"]["top"] + 1
        assert max(card["bottom"] for card in at["cards"]) <= at["bar"]["top"] + 1, at
        # The felt gave up the summary's height: the hand does not move when it goes.
        take_turn(page)
        expect(summary).to_be_hidden()
        after = page.evaluate(BOXES)
        assert abs(after["hand"]["top"] - at["hand"]["top"]) <= 1, (after["hand"], at["hand"])
    finally:
        context.close()


LONG_NAMES = {
    4: ["Zoë & <b>Ann</b>", "Bartholomew-Maximilian", "Nguyễn Thị Minh Khai", "O'Brien"],
    7: ["Bartholomew-Maximilian", "Wolfeschlegelsteinhausen", "Anna-Lena Schmidt-Meyer",
        "Alexandrina Victoria", "Nguyễn Thị Minh Khai", "Maximiliana Bartholomea", "Jo"],
}

# Each seat box of the drawn table: how far its farthest corner is from the middle of the
# felt, 1 on the felt's edge (an ellipse inside the table's border); and whether two
# neighbours cover each other.
SEATS = """() => {
  const c = document.getElementById('c-circle');
  const r = c.getBoundingClientRect();
  const bw = parseFloat(getComputedStyle(c).borderLeftWidth);
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const a = r.width / 2 - bw, b = r.height / 2 - bw;
  const seats = [...c.querySelectorAll('.c-seat')];
  const boxes = seats.map((li) => li.getBoundingClientRect());
  const reach = boxes.map((q) => Math.max(...[[q.left, q.top], [q.right, q.top], [q.left, q.bottom],
                                               [q.right, q.bottom]].map(([x, y]) => ((x - cx) / a) ** 2 + ((y - cy) / b) ** 2)));
  const inside = boxes.every((q) => q.left >= r.left && q.right <= r.right && q.top >= r.top && q.bottom <= r.bottom);
  const covered = boxes.some((p, i) => { const q = boxes[(i + 1) % boxes.length];
    return p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1; });
  return {reach, inside, covered, titles: seats.map((li) => li.querySelector('.c-seat-name').title)};
}"""

# The pieces of a name that must each stay on one line in its button: words, a hyphenated
# word broken only after its hyphen. For each button, the pieces drawn on more than one line.
BROKEN = """() => [...document.querySelectorAll('#c-tap .c-tap')].flatMap((b) => {
  const text = b.firstChild;
  const pieces = [];
  for (const m of text.data.matchAll(/[^\\s-]+-?/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].map((q) => Math.round(q.top)));
    if (tops.size > 1) pieces.push(m[0]);
  }
  return pieces;
})"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", [4, 7])
def test_long_names_stay_on_the_drawn_table_and_whole_in_the_buttons(browser, served, screenshots,
                                                                      size, players, request):
    name = request.node.callspec.id
    names = LONG_NAMES[players]
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    try:
        open_companion(page)
        set_up(page, names)
        expect(page.locator("#c-now-title")).to_have_text("Deal 1")
        for deal in (1, 2):
            page.wait_for_timeout(100)                         # placed once shown
            seats = page.evaluate(SEATS)
            page.locator("#c-now").screenshot(path=str(screenshots / f"trial-{name}-seats-deal{deal}.png"))
            assert seats["inside"] and max(seats["reach"]) <= 1, seats
            assert not seats["covered"], seats
            assert sorted(seats["titles"]) == sorted(names)     # the whole name, where it ends in "…"
            # Every name is a button named in full, and no word of it is broken across lines.
            for who in names:
                button = page.locator("#c-tap").get_by_role("button", name=who, exact=True)
                expect(button).to_have_attribute("title", who)
            assert page.evaluate(BROKEN) == []
            if deal == 1:
                page.locator("#c-entry").screenshot(path=str(screenshots / f"trial-{name}-buttons.png"))
                # Titles and chips in deal 2: the longest name first, the shortest last.
                for who in sorted(names, key=len, reverse=True)[:-1]:
                    page.locator("#c-tap").get_by_role("button", name=who, exact=True).click()
                page.get_by_role("button", name="Save deal 1").click()
                expect(page.locator("#c-now-title")).to_have_text("Deal 2")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
    finally:
        context.close()


LEFT = re.compile(r"^(You are|.+ is) left holding \d+ cards?: 4th place \(last\)\.$")


@pytest.mark.parametrize("size", SIZES)
def test_the_log_says_who_is_left_holding_cards(browser, served, screenshots, size, request):
    name = request.node.callspec.id
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    try:
        info, seat = new_match(page, served, seed=3)
        state = seat.play_deal()
        seat.close()
        page.wait_for_selector("#result", state="visible")
        last = state["finish_order"][-1]
        who = "You are" if last == state["you"]["seat"] else f"{state['seats'][last]['name']} is"
        held = state["seats"][last]["cards"]

        def check() -> None:
            lines = log_lines(page)
            at = next(i for i, line in enumerate(lines) if line.startswith("Deal over: "))
            assert LEFT.match(lines[at - 1]), lines[at - 1]
            assert lines[at - 1].startswith(f"{who} left holding {held} card")
            assert sum(bool(LEFT.match(line)) for line in lines) == 1
            # The line under the table says "Deal over: ..." whole once the deal is over (one
            # line, cut with "…", only while cards are played).
            assert page.text_content("#announce") == lines[at]
            assert page.evaluate("(() => { const a = document.getElementById('announce');"
                                 " return a.scrollWidth <= a.clientWidth + 1; })()")

        page.wait_for_function("() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('Deal over: '))")
        check()
        page.click("#result-close")
        page.locator(".log-panel").screenshot(path=str(screenshots / f"trial-{name}-log.png"))
        page.reload()                                           # the log the server sends again
        page.wait_for_selector("#table", state="visible")
        page.wait_for_function("() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('Deal over: '))")
        check()
    finally:
        context.close()


@pytest.mark.parametrize("players", [4, 7])
def test_on_a_phone_the_exchange_panel_covers_no_seat(browser, served, screenshots, players):
    """At 360 px the panel of a pending exchange sat over the felt and covered the side
    seats' levels and titles (a new-user trial): on a phone it sits under the felt, in the
    page's flow, clear of every seat and above the hand."""
    context = browser.new_context(base_url=served.url, **PHONE)
    page = context.new_page()
    try:
        open_exchange(page, served, players)
        page.screenshot(path=str(screenshots / f"trial-exchange-pending-{players}p-360.png"))
        boxes = page.evaluate("""() => {
          const box = (el) => { const r = el.getBoundingClientRect();
                                return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
          return {panel: box(document.getElementById('exchange-panel')),
                  hand: box(document.getElementById('hand')),
                  seats: [...document.querySelectorAll('#felt .seat')].map(box)};
        }""")
        assert len(boxes["seats"]) == players - 1
        for s in boxes["seats"]:
            assert not meets(boxes["panel"], s), (boxes["panel"], s)
        assert boxes["panel"]["bottom"] <= boxes["hand"]["top"]
        assert page.is_visible("#exchange-panel button")
    finally:
        context.close()

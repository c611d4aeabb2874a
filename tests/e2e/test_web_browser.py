"""The browser game played through the page in headless Chromium.

Seed 003 (``003_e6cd2942d7a2654f.txt``): the practice round to its result panel, hint,
refusals in plain words, pausing when the tab is hidden and "Resume game". Seed 000
(``000_2ebb75a2290c9d05.txt``): a house match over two deals with the one-card exchange in
which the President (you) chooses the card to give back, and a reload that brings the match
back ("Saved on this device only").
"""

from __future__ import annotations

import re
import time

import pytest

from president import Match, Rules
from president.cards import Card
from president.players.simple import simple_choice

READY = """() => {
  const t = document.getElementById('table');
  return !t.hidden && (t.dataset.turn === 'you' || !document.getElementById('result').hidden);
}"""


def wait_ready(page) -> None:
    """Until it is the human's turn or a result panel is up."""
    page.wait_for_function(READY)


def actions(page) -> int:
    return int(page.get_attribute("#table", "data-actions"))


def take_turn(page) -> None:
    """One turn as the hint says: Hint, then Play selected cards or Pass."""
    before = actions(page)
    page.evaluate("document.getElementById('message').textContent = ''")
    if page.get_attribute("#hint", "aria-disabled") == "true":
        # Hint cannot help when nothing you hold beats the pile: the page says so; pass.
        assert page.text_content("#play-why").startswith("Nothing you hold beats")
        page.click("#pass")
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.actions) > {before}")
        wait_ready(page)
        return
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
    if page.locator("#hand .card[aria-pressed=true]").count():
        page.click("#play")
    else:
        page.click("#pass")
    page.wait_for_function(f"() => Number(document.getElementById('table').dataset.actions) > {before}")
    wait_ready(page)


def play_to_result(page, shot=None) -> int:
    """Play the human's turns by hints until the result panel shows; returns turns taken."""
    turns = 0
    while True:
        wait_ready(page)
        if page.is_visible("#result"):
            return turns
        take_turn(page)
        turns += 1
        if shot is not None and turns == 3:
            page.screenshot(path=str(shot))


def hand(page) -> list[str]:
    return page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")


def log_lines(page) -> list[str]:
    return page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")


def start_practice(page) -> None:
    page.goto("/")
    page.click("#start-practice")
    wait_ready(page)


def test_practice_round_to_result_panel(page, screenshots):
    start_practice(page)
    # Seed 003: you lead the opening pile against Robin, Alex and Sam, clockwise.
    names = page.eval_on_selector_all("#opponents .opponent .name", "els => els.map(e => e.textContent)")
    assert names == ["Robin", "Alex", "Sam"]
    assert len(hand(page)) == 13
    assert page.get_attribute("#table", "data-turn") == "you"
    assert "Empty pile" in page.text_content("#to-beat")
    turns = play_to_result(page, shot=screenshots / "practice-table.png")
    assert turns >= 1
    page.screenshot(path=str(screenshots / "practice-result.png"))
    order = page.eval_on_selector_all("#finish-order li", "els => els.map(e => e.textContent)")
    finishers = [o.split(" — ")[0] for o in order]
    assert sorted(finishers) == ["Alex", "Robin", "Sam", "You"]
    # The result panel agrees with the announcements of who went out, in order.
    went_out = [re.match(r"(\w+) goe?s? out in ", line).group(1) for line in log_lines(page)
                if re.match(r"\w+ goe?s? out in ", line)]
    assert went_out == finishers[:3]
    # seed 003: first place is "traditionally President", the final player takes last place
    assert order[0].endswith(" — President") and order[3].endswith(" — last")
    # "New round" after the round needs no confirmation and deals again.
    page.click("#result-actions button")
    page.wait_for_selector("#result", state="hidden")
    wait_ready(page)
    assert len(hand(page)) == 13 and page.get_attribute("#table", "data-actions") == "0"


def test_hint_selects_the_lowest_set_when_leading(page):
    start_practice(page)
    cards = [Card.parse(c) for c in hand(page)]
    lowest = min(c.rank for c in cards)
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
    selected = page.eval_on_selector_all("#hand .card[aria-pressed=true]", "els => els.map(e => e.dataset.card)")
    assert sorted(selected) == sorted(str(c) for c in cards if c.rank == lowest)
    assert page.get_attribute("#table", "data-turn") == "you"  # a hint plays nothing
    # a hint is advice, not a refusal: plain ink, not the red of an error
    assert page.eval_on_selector("#message", "e => getComputedStyle(e).color") == "rgb(27, 27, 27)"


def test_illegal_selection_shows_the_engine_reason_by_keyboard(page, screenshots):
    start_practice(page)
    before = actions(page)
    cards = hand(page)
    page.focus("#hand .card >> nth=0")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowLeft")          # wraps to the highest card
    page.keyboard.press("Enter")
    pressed = page.eval_on_selector_all("#hand .card[aria-pressed=true]", "els => els.map(e => e.dataset.card)")
    assert pressed == [cards[0], cards[-1]]
    page.keyboard.press("p")
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
    message = page.text_content("#message")
    assert "mixes ranks" in message and "same rank" in message
    page.screenshot(path=str(screenshots / "illegal-selection.png"))
    assert actions(page) == before and hand(page) == cards   # nothing changed
    page.keyboard.press("c")
    assert page.locator("#hand .card[aria-pressed=true]").count() == 0


def test_a_lead_cannot_pass(page):
    start_practice(page)
    before = actions(page)
    assert page.is_disabled("#pass")       # an empty pile cannot be passed (seed 003)
    page.focus("#hand .card >> nth=0")
    page.keyboard.press("s")
    time.sleep(0.2)
    assert actions(page) == before and page.get_attribute("#table", "data-turn") == "you"


def test_switching_tabs_pauses_and_resume_continues(browser, served_slow, screenshots):
    page = browser.new_page(base_url=served_slow.url)
    try:
        start_practice(page)
        before = actions(page)
        page.click("#hint")
        page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
        page.click("#play")
        page.evaluate("""() => {
            Object.defineProperty(document, 'hidden', {value: true, configurable: true});
            Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }""")
        page.wait_for_selector("#paused", state="visible")
        page.wait_for_function("() => Number(document.getElementById('table').dataset.actions) > %d" % before)
        tables = [t for t in served_slow.tables.tables.values() if t.kind == "practice"]
        assert len(tables) == 1
        table = tables[0]
        deadline = time.monotonic() + 5
        while not table.paused and time.monotonic() < deadline:
            time.sleep(0.02)
        assert table.paused
        held = len(table.log)
        time.sleep(1.0)                      # four bot delays: nobody may move while paused
        assert len(table.log) == held
        assert table.match.to_act != 0              # paused while a computer player was to play
        page.screenshot(path=str(screenshots / "paused.png"))
        page.evaluate("""() => {
            Object.defineProperty(document, 'hidden', {value: false, configurable: true});
            Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }""")
        assert page.is_visible("#paused")   # coming back does not resume by itself
        page.click("#resume")
        page.wait_for_selector("#paused", state="hidden")
        wait_ready(page)
        assert len(table.log) > held and not table.paused
    finally:
        page.close()


def test_new_round_asks_for_confirmation(page):
    start_practice(page)
    first = hand(page)
    page.click("#new-round")
    assert page.is_visible("#confirm")
    page.click("#confirm-no")
    assert page.is_hidden("#confirm") and hand(page) == first
    page.click("#new-round")
    page.click("#confirm-yes")
    page.wait_for_function("(old) => { const h = [...document.querySelectorAll('#hand .card')].map(e => e.dataset.card);"
                           " return h.length === 13 && h.join() !== old; }", arg=",".join(first))


def test_phone_width_has_no_sideways_scrolling(browser, base_url, screenshots):
    page = browser.new_page(base_url=base_url, viewport={"width": 360, "height": 740})
    try:
        start_practice(page)
        page.screenshot(path=str(screenshots / "phone-360.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.goto("/")
        page.wait_for_selector("#start", state="visible")
        page.screenshot(path=str(screenshots / "phone-360-start.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        page.close()


NAMES = ["You", "Alex", "Blair", "Casey"]


def president_seed() -> int:
    """A match seed after whose first deal, played by hints (the simple player's choices) at
    every seat, seat 0 is President: the table's computer players are that same player."""
    for seed in range(500):
        m = Match(Rules.preset("house", players=4), NAMES, seed=seed)
        while m.phase == "play":
            obs = m.observation(m.to_act)
            m.act(m.to_act, simple_choice(obs))
        if m.results[0].finish_order[0] == 0:
            return seed
    raise AssertionError("no seed in 0..499 makes seat 0 President")


def totals(page) -> list[str]:
    return page.eval_on_selector_all("#scores td.total", "els => els.map(e => e.textContent)")


def test_house_match_exchange_and_reload(page, screenshots):
    seed = president_seed()
    page.goto(f"/?seed={seed}")
    page.wait_for_selector("#start", state="visible")
    assert page.input_value("#preset") == "house"
    page.screenshot(path=str(screenshots / "start.png"), full_page=True)
    page.select_option("#players", "4")
    from president.players import available_levels
    assert page.text_content("#level-note") == ("Computer levels, weakest to strongest: "
                                                f"{', '.join(available_levels())}.")
    for i, name in enumerate(NAMES[1:], start=1):
        page.fill(f"#seat-name-{i}", name)
    page.click("#start-match")
    wait_ready(page)
    assert page.is_visible("#scores-panel")
    first = log_lines(page)[0]
    assert first.startswith("Deal 1: Casey deals. You lead the first pile"), first
    play_to_result(page)
    assert page.text_content("#result-title") == "Deal 1 over"
    order = page.eval_on_selector_all("#finish-order li", "els => els.map(e => e.textContent)")
    assert order[0].startswith("You — President")
    score = [int(x) for x in totals(page)]
    assert score[0] == 2 and sorted(score) == [0, 0, 1, 2]
    page.screenshot(path=str(screenshots / "match-deal-1-result.png"))

    # Deal 2: the bottom gives their highest card, then you choose the card to give back.
    page.click("#result-actions button")
    page.wait_for_selector("#give-selected", state="visible")
    text = page.text_content("#exchange-panel")
    received = re.search(r"gave you (\S+)\.", text)
    assert received and "(their highest)" in " ".join(log_lines(page))
    page.screenshot(path=str(screenshots / "exchange.png"))
    cards = hand(page)
    assert len(cards) == 14
    give = cards[0]
    page.click(f"#hand .card[data-card='{give}']")
    page.click("#give-selected")
    page.wait_for_function("() => document.getElementById('table').dataset.phase === 'play'")
    after = hand(page)
    assert give not in after and len(after) == 13
    wait_ready(page)
    assert any(line.startswith("You give") for line in log_lines(page))

    # Reloading brings back the same match: scores, deal, hand.
    before_hand, before_totals = hand(page), totals(page)
    stored = page.evaluate("JSON.parse(localStorage.getItem('president.match'))")
    assert stored["scores"] == [int(x) for x in before_totals] and stored["snapshot"]
    page.reload()
    wait_ready(page)
    assert hand(page) == before_hand and totals(page) == before_totals
    assert "deal 2" in page.text_content("#bar-info")
    assert page.is_hidden("#paused")             # leaving the page is not a pause

    play_to_result(page)
    assert page.text_content("#result-title") == "Deal 2 over"
    final = [int(x) for x in totals(page)]
    assert sum(final) == 6                       # 2 + 1 points per deal
    page.screenshot(path=str(screenshots / "match-deal-2-result.png"))
    columns = page.eval_on_selector_all("#scores thead th.deal", "els => els.map(e => e.textContent)")
    assert columns == ["Deal 2", "Deal 1"]       # the latest deal first, beside the totals
    assert page.eval_on_selector_all("#scores tbody tr", "els => els.length") == 4   # a row per player


def test_highlight_marks_exactly_the_playable_cards(page):
    start_practice(page)
    take_turn(page)
    if page.is_visible("#result"):
        pytest.skip("the round ended at once")
    page.click("summary:has-text('Options')")
    page.check("#highlight")
    cards = [Card.parse(c) for c in hand(page)]
    pile = page.eval_on_selector_all("#pile-cards .face", "els => els.map(e => e.dataset.card)")
    marked = page.eval_on_selector_all("#hand .card.playable", "els => els.map(e => e.dataset.card)")
    if pile:
        top = Card.parse(pile[0]).rank
        held = {r: sum(1 for c in cards if c.rank == r) for r in {c.rank for c in cards}}
        want = [str(c) for c in cards if c.rank > top and held[c.rank] >= len(pile)]
    else:
        want = [str(c) for c in cards]
    assert marked == want
    page.reload()                                   # the option is remembered on this device
    page.wait_for_selector("#start-practice", state="visible")
    page.click("#start-practice")
    wait_ready(page)
    assert page.is_checked("#highlight") and page.locator("#hand .card.playable").count() == 13

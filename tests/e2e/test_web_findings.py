"""The tester's findings in the page, each checked in headless Chromium.

To keep the suite quick, whole deals are played over a second websocket for the same seat
(the ``simple`` hint at every turn, as a player pressing "Hint" then "Play"), while the page
shows the table; the page is then checked at the moment of interest.
"""

from __future__ import annotations

import json
import re

from websockets.sync.client import connect

from president import Match, Rules
from president.players.simple import simple_choice

from .test_web_browser import (actions, hand, log_lines, start_practice, take_turn,  # noqa: F401
                               wait_ready)

CODE = re.compile(r"\b(10|[2-9JQKA])[CDHS]\b")


class Seat:
    """A second socket for the page's seat that plays by hints."""

    def __init__(self, served, table: str, token: str) -> None:
        self._conn = connect(served.url.replace("http", "ws") + "/ws")
        self.ws = self._conn.__enter__()
        self.ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
        self.state = self.until(lambda m: True)

    def until(self, pred):
        while True:
            m = json.loads(self.ws.recv(timeout=20))
            if m["type"] == "state" and pred(m):
                self.state = m
                return m

    def my_turn(self, m) -> bool:
        return m["to_act"] == m["you"]["seat"] or m["phase"] in ("between-deals", "match-over")

    def turn(self) -> None:
        self.ws.send(json.dumps({"type": "hint"}))
        while True:
            hint = json.loads(self.ws.recv(timeout=20))
            if hint["type"] == "hint":
                break
        kind = "give" if self.state["phase"] == "exchange" else "play"
        self.ws.send(json.dumps({"type": "pass"} if hint["pass"] else {"type": kind, "cards": hint["cards"]}))
        self.until(lambda m: (self.my_turn(m) and m["table"]["actions"] > self.state["table"]["actions"])
                   or m["phase"] in ("between-deals", "match-over"))

    def play_deal(self, stop=lambda m: False) -> dict:
        """Take turns until the deal ends or ``stop(state)`` holds at one of your turns."""
        if not self.my_turn(self.state):
            self.until(self.my_turn)
        while self.state["phase"] in ("play", "exchange") and not stop(self.state):
            self.turn()
        return self.state

    def next_deal(self) -> None:
        self.ws.send(json.dumps({"type": "next-deal"}))
        self.until(lambda m: m["phase"] in ("play", "exchange") and self.my_turn(m))

    def close(self) -> None:
        self._conn.__exit__(None, None, None)


def new_match(page, served, *, preset="house", players=4, twists=(), seed=None, width=None):
    """Make a match through the API and open it in the page (as "Continue" would)."""
    body = {"kind": "match", "preset": preset, "players": players, "twists": list(twists)}
    if seed is not None:
        body["seed"] = seed
    info = page.request.post(f"{served.url}/api/tables", data=body).json()
    page.goto("/")
    page.wait_for_selector("#start", state="visible")
    page.evaluate("""(info) => localStorage.setItem('president.match', JSON.stringify({
        table: info.table, token: info.token, rules: 'test', players: [], scores: [], deals: []}))""", info)
    page.reload()
    page.wait_for_selector("#table", state="visible")
    return info, Seat(served, info["table"], info["token"])


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


# ----- 3. layout --------------------------------------------------------------------------

def test_seven_players_scored_deal_fits_a_phone(browser, served, screenshots):
    page = browser.new_page(base_url=served.url, viewport={"width": 360, "height": 740})
    try:
        info, seat = new_match(page, served, players=7, seed=5)
        assert page_width(page) <= 360
        seat.play_deal()
        page.wait_for_selector("#result", state="visible")
        page.wait_for_function("() => document.querySelectorAll('#scores thead th.deal').length === 1")
        assert page.eval_on_selector_all("#scores tbody th", "els => els.map(e => e.textContent)") == [
            "You", "Alex", "Blair", "Casey", "Drew", "Emery", "Frankie"]
        # every name whole: no cell cut short
        assert page.eval_on_selector_all("#scores tbody th", "els => els.every(e => e.scrollWidth <= e.clientWidth)")
        page.screenshot(path=str(screenshots / "phone-360-seven-players.png"), full_page=True)
        assert page_width(page) <= 360
        assert page.evaluate("document.querySelector('#scores-panel').getBoundingClientRect().right") <= 360
        seat.close()
    finally:
        page.close()


def test_desktop_play_column_keeps_its_width_once_scored(browser, served, screenshots):
    page = browser.new_page(base_url=served.url, viewport={"width": 1280, "height": 900})
    try:
        info, seat = new_match(page, served, players=7, seed=6)
        wait_ready(page)
        before = page.evaluate("document.querySelector('.you').getBoundingClientRect().width")
        seat.play_deal()
        page.wait_for_function("() => document.querySelectorAll('#scores thead th.deal').length === 1")
        after = page.evaluate("document.querySelector('.you').getBoundingClientRect().width")
        page.screenshot(path=str(screenshots / "desktop-1280-seven-players.png"))
        assert abs(after - before) < 1 and before > 600
        assert page_width(page) <= 1280
        seat.close()
    finally:
        page.close()


# ----- 7. readable: no points without scoring, final totals, the deal over ------------------

def test_first_night_shows_roles_not_points(browser, served):
    page = browser.new_page(base_url=served.url)
    try:
        info, seat = new_match(page, served, preset="first-night", players=4, seed=2)
        seat.play_deal()
        page.wait_for_selector("#result", state="visible")
        page.wait_for_function("() => document.querySelectorAll('#scores thead th.deal').length === 1")
        text = page.text_content("#table") + page.text_content("#result")
        assert not re.search(r"\bpts?\b|\+0|Total", text), text
        assert page.locator("#scores td.total").count() == 0
        assert page.text_content("#scores-title") == "Deals (no points: roles only)"
        order = page.eval_on_selector_all("#finish-order li", "els => els.map(e => e.textContent)")
        titles = [o.split(" — ")[1] for o in order]
        assert titles == ["President", "Vice-President", "Vice-Scum", "bottom"]  # seed 004
        over = page.text_content("#to-beat")        # not a play to beat: the deal's last play
        assert over.startswith("The deal is over. Last play: ") and "To beat" not in over
        saved = page.evaluate("JSON.parse(localStorage.getItem('president.match'))")
        assert saved["scoring"] is False          # the saved list shows no "You 0" either
        seat.close()
    finally:
        page.close()


def test_match_over_shows_final_totals(browser, served):
    page = browser.new_page(base_url=served.url)
    try:
        info, seat = new_match(page, served, twists=["three-deals"], seed=9)
        for deal in range(3):
            seat.play_deal()
            if deal < 2:
                seat.next_deal()
        page.wait_for_function("() => document.getElementById('table').dataset.phase === 'match-over'")
        scores, players, winners = (seat.state["scores"], seat.state["players"], seat.state["winners"])
        rows = page.eval_on_selector_all("#final-standings li", "els => els.map(e => e.textContent)")
        want = sorted(range(4), key=lambda p: (-scores[p], p))
        assert [r.split(" — ")[0] for r in rows] == [players[p] for p in want]
        assert [int(r.split(" — ")[1].split()[0]) for r in rows] == [scores[p] for p in want]
        assert sum(scores) == 9 and all(f"{players[w]} — " in " ".join(r for r in rows if "winner" in r)
                                        for w in winners)
        assert page.text_content("#result-title").startswith("Match over: ")
        seat.close()
    finally:
        page.close()


def two_on_the_pile_seed() -> int:
    """A house seed where, playing by hints at every seat, seat 0 must answer a single 2."""
    for seed in range(300):
        m = Match(Rules.preset("house", players=4), ["You", "Alex", "Blair", "Casey"], seed=seed)
        while m.phase == "play":
            obs = m.observation(m.to_act)
            if m.to_act == 0 and obs.to_beat is not None and obs.to_beat.rank.symbol == "2":
                return seed
            m.act(m.to_act, simple_choice(obs))
    raise AssertionError("no such seed")


def test_a_two_on_the_pile_says_nothing_beats_it(browser, served):
    page = browser.new_page(base_url=served.url)
    try:
        info, seat = new_match(page, served, seed=two_on_the_pile_seed())
        seat.play_deal(stop=lambda m: m["to_beat"] is not None and m["to_beat"]["cards"][0].startswith("2"))
        page.wait_for_function("(n) => Number(document.getElementById('table').dataset.actions) === n",
                               arg=seat.state["table"]["actions"])
        text = page.text_content("#to-beat")
        assert text.startswith("To beat: a 2 by ") and text.endswith("Nothing beats it: pass."), text
        assert "higher rank" not in text
        seat.close()
    finally:
        page.close()


def test_refusal_shows_suit_symbols(page):
    start_practice(page)
    cards = hand(page)
    page.click(f"#hand .card[data-card='{cards[0]}']")
    page.click(f"#hand .card[data-card='{cards[-1]}']")
    page.click("#play")
    page.wait_for_function("() => document.getElementById('message').textContent.includes('mixes ranks')")
    message = page.text_content("#message")
    assert not CODE.search(message) and re.search("[♣♦♥♠]", message), message


# ----- 4, 5, 6. exchange, log, selection ------------------------------------------------------

def seat0_place_seed(place: int) -> int:
    """A house seed where, every seat playing by hints, seat 0 finishes in ``place`` (index
    into the finish order) and, as the last player, has one card it must give (no tie in
    suits to choose from) in the exchange before deal 2."""
    for seed in range(500):
        m = Match(Rules.preset("house", players=4), ["You", "Alex", "Blair", "Casey"], seed=seed)
        while m.phase == "play":
            obs = m.observation(m.to_act)
            m.act(m.to_act, simple_choice(obs))
        if m.results[0].finish_order[place] != 0:
            continue
        if place == -1:
            m.start_next_deal()
            while m.phase == "exchange" and m.to_act != 0:
                m.act(m.to_act, m.observation(m.to_act).legal_actions[0])
            if m.to_act != 0 or len(m.observation(0).legal_actions) != 1:
                continue
        return seed
    raise AssertionError("no such seed")


def open_exchange(page, served, players: int):
    """A match whose first deal the others played out, at the exchange before deal 2 in the
    page: seat 0 finishes last at 4 players (it has a card to give), at seed 5 otherwise."""
    info, seat = new_match(page, served, players=players,
                           seed=seat0_place_seed(-1) if players == 4 else 5)
    seat.play_deal()
    seat.close()
    page.wait_for_selector("#result", state="visible")
    page.click("#result-actions button")                  # Next deal: the exchange
    page.wait_for_selector("#exchange-panel:not(.after)", state="visible")
    page.wait_for_timeout(300)
    return info


def test_exchange_summary_stays_while_a_computer_leads(browser, served):
    """You finished last: you give your highest card, the President gives one back and leads;
    the summary stays until you first act."""
    page = browser.new_page(base_url=served.url)
    try:
        info, seat = new_match(page, served, seed=seat0_place_seed(-1))
        seat.play_deal()
        seat.close()
        page.wait_for_selector("#result", state="visible")
        page.click("#result-actions button")                  # Next deal
        page.wait_for_selector("#give-forced", state="visible")
        page.click("#give-forced")
        wait_ready(page)
        # The President (a computer) leads; its play may reach the page just after the turn.
        page.wait_for_function("() => document.querySelectorAll('#pile-cards .face').length > 0")
        summary = page.text_content("#exchange-panel")
        assert page.is_visible("#exchange-panel") and "You gave" in summary and "gave you" in summary
        page.wait_for_timeout(1200)                            # it does not vanish by itself
        assert page.is_visible("#exchange-panel")
        take_turn(page)
        assert page.is_hidden("#exchange-panel")
        assert any(line.startswith("You give") for line in log_lines(page))
    finally:
        page.close()


def test_clear_selection_works_while_choosing_cards_to_give(browser, served):
    page = browser.new_page(base_url=served.url)
    try:
        info, seat = new_match(page, served, seed=seat0_place_seed(0))
        seat.play_deal()
        seat.close()
        page.click("#result-actions button")
        page.wait_for_selector("#give-selected", state="visible")
        assert page.is_disabled("#clear")
        page.click("#hand .card >> nth=0")
        assert page.is_enabled("#clear")
        page.click("#clear")
        assert page.locator("#hand .card[aria-pressed=true]").count() == 0 and page.is_disabled("#clear")
    finally:
        page.close()


def test_reload_keeps_this_deals_play_log(browser, served):
    page = browser.new_page(base_url=served.url)
    try:
        info, seat = new_match(page, served, seed=21)
        seat.close()
        wait_ready(page)
        for _ in range(3):
            take_turn(page)
        before = log_lines(page)
        assert sum(" out: " not in line for line in before) >= 5 and before[0].startswith("Deal 1:")
        page.reload()
        wait_ready(page)
        assert log_lines(page) == before
        page.click("#leave-match")
        page.click("#confirm-yes")
        page.click("#saved-list button")                       # Continue
        wait_ready(page)
        assert log_lines(page) == before
    finally:
        page.close()


# ----- 8, 9, 11. keyboard, names, hint level --------------------------------------------------

def test_keyboard_escape_focus_after_play(page):
    start_practice(page)
    page.click("#new-round")
    assert page.is_visible("#confirm")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#confirm') !== null")   # Tab stays inside
    page.keyboard.press("Escape")
    assert page.is_hidden("#confirm") and len(hand(page)) == 13                    # cancelled
    before = actions(page)
    page.keyboard.press("h")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
    page.keyboard.press("p")
    page.wait_for_function(f"() => Number(document.getElementById('table').dataset.actions) > {before}")
    wait_ready(page)
    assert page.evaluate("document.activeElement.closest('#hand') !== null")


def test_pause_panel_takes_the_focus(browser, served_slow):
    page = browser.new_page(base_url=served_slow.url)
    try:
        start_practice(page)
        page.evaluate("""() => {
            Object.defineProperty(document, 'hidden', {value: true, configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
        }""")
        page.wait_for_selector("#paused", state="visible")
        assert page.evaluate("document.activeElement.id") == "resume"
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.id") == "resume"
    finally:
        page.close()


def test_start_form_refuses_duplicate_names(page, served):
    page.goto("/")
    page.wait_for_selector("#start", state="visible")
    page.select_option("#players", "4")
    page.fill("#seat-name-0", "Alex")
    page.fill("#seat-name-2", " alex")
    before = set(served.tables.tables)
    page.click("#start-match")
    assert "both named" in page.text_content("#form-error")
    assert not set(served.tables.tables) - before and page.is_visible("#start")   # no new table


def test_hint_level_is_chosen_and_sent(page):
    from president.players import available_levels
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    start_practice(page)
    page.click("summary:has-text('Options')")
    options = page.eval_on_selector_all("#hint-level option", "els => els.map(e => e.value)")
    assert options == available_levels() and page.input_value("#hint-level") == "simple"
    level = "intermediate" if "intermediate" in options else options[0]
    page.select_option("#hint-level", level)
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
    asked = [json.loads(p) for p in sent if '"hint"' in p]
    assert asked[-1] == {"type": "hint", "level": level}
    assert page.locator("#hand .card[aria-pressed=true]").count() >= 1
    page.reload()                                             # remembered on this device
    page.wait_for_selector("#start-practice", state="visible")
    page.click("#start-practice")
    wait_ready(page)
    assert page.input_value("#hint-level") == level


# ----- a new user's reloads (helper, ninth session) -------------------------------------------

def leave_a_match(page, served) -> None:
    """Open a match, then leave it ("Leave match", confirmed): the start screen shows, the
    match saved on this device."""
    info, seat = new_match(page, served, seed=21)
    seat.close()
    wait_ready(page)
    page.click("#leave-match")
    page.click("#confirm-yes")
    page.wait_for_selector("#start", state="visible")


def test_a_match_left_stays_left_after_a_reload(browser, served):
    """"Leave match" then a reload opened the match again; the tab now stays on the start
    screen, and Continue still opens it."""
    page = browser.new_page(base_url=served.url)
    try:
        leave_a_match(page, served)
        page.reload()
        page.wait_for_selector("#saved-list button", state="visible")
        assert page.is_visible("#start") and not page.is_visible("#table")
        page.click("#saved-list button")                        # Continue
        wait_ready(page)
        page.reload()                                           # at the table: back to it
        wait_ready(page)
        assert page.is_visible("#table")
    finally:
        page.close()


def test_reloading_a_practice_round_says_so_even_with_a_saved_match(browser, served):
    """With a saved match, a reload during a practice round opened that match without a
    word; it now shows the start screen with the notice (docs/web.md, seed 003)."""
    page = browser.new_page(base_url=served.url)
    try:
        leave_a_match(page, served)
        page.click("#start-practice")
        wait_ready(page)
        take_turn(page)
        page.reload()
        page.wait_for_selector("#start", state="visible")
        assert "ended your practice round" in page.text_content("#notice")
        assert not page.is_visible("#table")
    finally:
        page.close()


def test_the_last_play_of_a_deal_stays_in_view_at_its_end(page):
    """At the end of a round the pile said only "The deal is over": the last plays were in
    neither the discard nor a hand. The last play stays on the pile, named."""
    start_practice(page)
    while not page.is_visible("#result"):
        take_turn(page)
        wait_ready(page)
    page.click("#result-close")
    text = page.text_content("#to-beat")
    assert text.startswith("The deal is over. Last play: ") and text.endswith(".")
    assert page.locator("#pile-cards > *").count() >= 1
    assert "empty" not in (page.get_attribute("#pile", "class") or "")
    assert int(page.text_content("#discard-count")) < 52

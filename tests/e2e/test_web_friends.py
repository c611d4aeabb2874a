"""Friends at one table (issue 11) in headless Chromium, one browser context per person:
the waiting room, presence, a friend leaving on their turn and coming back, a hidden tab
that stops nobody, the host's pause, "Next deal" waiting for everyone, a rematch every page
follows, and seat links (the host trying a friend's link, a link pasted into an open tab).

To keep it quick, most moves are made over extra websockets (one per human seat, each
playing its first legal option) while the pages show the table; the pages are checked at
the moments that matter. Screenshots: ``test-artifacts/screenshots/friends-*.png``.
"""

from __future__ import annotations

import json
import time

from websockets.sync.client import connect

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
HIDE = """() => {
    Object.defineProperty(document, 'hidden', {value: true, configurable: true});
    Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


class Hands:
    """Extra websockets for human seats; whoever of them is to act plays its biggest legal
    set (or passes, or gives the first legal choice). The server sees them as open pages of those seats."""

    def __init__(self, served, table: str, tokens: dict[int, str]) -> None:
        self.url = served.url.replace("http", "ws") + "/ws"
        self.table = table
        self.conns: dict[int, object] = {}
        self.ws: dict[int, object] = {}
        self.state: dict[int, dict] = {}
        for player, token in tokens.items():
            self.add(player, token)

    def add(self, player: int, token: str) -> dict:
        conn = connect(self.url)
        self.conns[player] = conn
        self.ws[player] = conn.__enter__()
        self.ws[player].send(json.dumps({"type": "hello", "table": self.table, "token": token}))
        while player not in self.state:
            self._drain(player, wait=10)
        return self.state[player]

    def _drain(self, player: int, wait: float = 0.0) -> None:
        ws = self.ws[player]
        first = True
        while True:
            try:
                raw = ws.recv(timeout=wait if first else 0)
            except TimeoutError:
                return
            first = False
            m = json.loads(raw)
            for x in m["messages"] if m["type"] == "batch" else [m]:
                if x["type"] == "state":
                    self.state[player] = x
                elif x["type"] == "error":
                    raise AssertionError(x)

    def drain(self) -> None:
        for player in list(self.ws):
            self._drain(player)

    def to_act(self) -> int | None:
        for player, st in self.state.items():
            me = st["you"]["seat"]
            if (st["phase"] in ("play", "exchange") and not st["table"]["lobby"] and st["to_act"] == me
                    and st["legal"] and not st["seats"][me]["standin"]):
                return player
        return None

    def act(self, player: int) -> None:
        st = self.state[player]
        before = st["table"]["actions"]
        moves = [a for a in st["legal"] if a != "pass"]
        kind = "give" if st["phase"] == "exchange" else "play"
        if kind == "play":   # the biggest set first: the deal ends sooner
            moves = sorted(moves, key=len, reverse=True)
        self.ws[player].send(json.dumps({"type": kind, "cards": moves[0]} if moves else {"type": "pass"}))
        deadline = time.monotonic() + 10
        while self.state[player]["table"]["actions"] <= before:
            assert time.monotonic() < deadline, "no answer to a move"
            self._drain(player, wait=1)

    def run(self, stop, timeout: float = 40) -> None:
        """Act for these seats until ``stop(self)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            self.drain()
            if stop(self):
                return
            assert time.monotonic() < deadline, "the table did not get there"
            player = self.to_act()
            if player is None:
                time.sleep(0.02)
            else:
                self.act(player)

    def phase(self, player: int) -> str:
        return self.state[player]["phase"]

    def send(self, player: int, message: dict) -> None:
        self.ws[player].send(json.dumps(message))

    def close(self, player: int | None = None) -> None:
        for p in [player] if player is not None else list(self.conns):
            self.conns.pop(p).__exit__(None, None, None)
            self.ws.pop(p)
            self.state.pop(p, None)


def new_table(request_context, served, names, levels, **extra) -> dict:
    body = {"kind": "match", "preset": "house", "players": len(names), "names": names,
            "levels": levels, "grace_seconds": 1, "seed": 11, **extra}
    r = request_context.post(f"{served.url}/api/tables", data=body)
    assert r.ok, r.text()
    return r.json()


def tokens(info) -> dict[int, str]:
    return {0: info["token"], **{i["player"]: i["token"] for i in info["invites"]}}


def link(served, info, player: int) -> str:
    return f"{served.url}/#join={info['table']}.{tokens(info)[player]}"


def open_seat(browser, served, info, player: int, size=DESKTOP):
    context = browser.new_context(base_url=served.url, **size)
    context.add_init_script("localStorage.setItem('president.guide-seen', 'true')")
    page = context.new_page()
    page.goto(link(served, info, player))
    page.wait_for_selector("#table", state="visible")
    return context, page


def log_text(page) -> str:
    return page.text_content("#log") or ""


def wait_log(page, text: str, timeout: float = 8000) -> None:
    page.wait_for_function("(t) => document.getElementById('log').textContent.includes(t)", arg=text,
                           timeout=timeout)


def seat_box(page, player: int):
    """The felt's seat of match player ``player`` (found by name through the page's state)."""
    return page.locator("#opponents .seat", has_text=page.evaluate(
        "(p) => [...document.querySelectorAll('#scores tbody tr')][p].querySelector('th').textContent", player))


def hand(page) -> list[str]:
    return page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")


def table_of(served, info):
    return served.tables.tables[info["table"]]


# ----- the waiting room, a whole deal, the exchange, "Next deal" --------------------------

def test_three_friends_and_a_computer(browser, served, screenshots):
    names = ["Alex", "Blair", "Casey", "Drew"]
    contexts = []
    try:
        host_ctx = browser.new_context(base_url=served.url, **DESKTOP)
        contexts.append(host_ctx)
        info = new_table(host_ctx.request, served, names, ["human", "human", "human", "simple"])
        host = host_ctx.new_page()
        host.goto(link(served, info, 0))
        host.wait_for_selector("#lobby", state="visible")
        # The host's waiting room: each friend waiting, with their link, Copy, and the
        # loopback notice; Start for the host.
        rows = host.locator("#lobby-seats .friend-row")
        assert rows.count() == 4
        assert "waiting" in rows.nth(1).text_content() and "waiting" in rows.nth(2).text_content()
        assert "computer: simple" in rows.nth(3).text_content()
        assert "host" in rows.nth(0).text_content()
        # The host's own row says what the friends see of him: joined and online.
        assert "joined · online" in rows.nth(0).text_content()
        links = host.eval_on_selector_all("#lobby-seats .link-text", "els => els.map(e => e.textContent)")
        assert links == [link(served, info, 1), link(served, info, 2)]
        assert "president serve --host 0.0.0.0" in host.text_content("#lobby-loopback")
        host_ctx.grant_permissions(["clipboard-read", "clipboard-write"])
        host.get_by_role("button", name="Copy Blair's link").click()
        host.wait_for_function("() => document.querySelector('#lobby-seats .copy-status').textContent !== ''")
        assert host.text_content("#lobby-seats .copy-status") in ("Copied.", "Selected: copy it with Ctrl+C (or your menu's Copy).")
        assert host.get_by_role("button", name="Start the match").is_visible()
        assert "computer (simple) until they arrive" in host.text_content("#start-note")
        host.screenshot(path=str(screenshots / "friends-lobby-desktop.png"), full_page=True)

        # Blair on a phone: the waiting room says who starts; the host sees Blair arrive.
        blair_ctx, blair = open_seat(browser, served, info, 1, PHONE)
        contexts.append(blair_ctx)
        blair.wait_for_selector("#lobby", state="visible")
        assert "Waiting for Alex to start the match" in blair.text_content("#lobby-lead")
        assert blair.locator("#lobby-host").is_hidden() and blair.locator(".link-text").count() == 0
        assert "Welcome, Blair" in log_text(blair)
        wait_log(host, "Blair joined the table.")
        host.wait_for_function("() => document.querySelectorAll('#lobby-seats .friend-row')[1].textContent.includes('joined')")
        # The host's waiting room on a phone too (a second page of the host's seat).
        phone_ctx = browser.new_context(base_url=served.url, **PHONE)
        contexts.append(phone_ctx)
        host_phone = phone_ctx.new_page()
        host_phone.goto(link(served, info, 0))
        host_phone.wait_for_selector("#lobby", state="visible")
        host_phone.screenshot(path=str(screenshots / "friends-lobby-phone.png"), full_page=True)
        assert host_phone.evaluate("document.documentElement.scrollWidth") <= 360
        phone_ctx.close()
        contexts.remove(phone_ctx)
        blair.screenshot(path=str(screenshots / "friends-lobby-friend-phone.png"), full_page=True)

        casey_ctx, casey = open_seat(browser, served, info, 2)
        contexts.append(casey_ctx)
        casey.wait_for_selector("#lobby", state="visible")
        wait_log(host, "Casey joined the table.")
        wait_log(blair, "Casey joined the table.")
        assert host.text_content("#lobby-lead").endswith("Everyone is here.")

        # Only the host starts; every page goes to the table with its own 13 cards.
        host.get_by_role("button", name="Start the match").click()
        for page in (host, blair, casey):
            page.wait_for_selector("#lobby", state="hidden")
            page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 13")
        hands = [set(hand(p)) for p in (host, blair, casey)]
        assert not (hands[0] & hands[1]) and not (hands[0] & hands[2]) and not (hands[1] & hands[2])
        # Presence on the felt: Blair online, the host marked as host.
        assert "online" in seat_box(host, 1).text_content()
        assert "host" in seat_box(blair, 0).text_content()
        blair.screenshot(path=str(screenshots / "friends-table-phone.png"))

        # A whole deal, played over the extra sockets while the pages follow.
        hands_ws = Hands(served, info["table"], tokens(info))
        hands_ws.run(lambda h: all(h.phase(p) == "between-deals" for p in (0, 1, 2)))
        for page in (host, blair, casey):
            page.wait_for_selector("#result", state="visible")
        hands_ws.close()
        # "Next deal" says ready and waits for everyone (online) else; the host may deal now.
        blair.get_by_role("button", name="Next deal").click()
        blair.wait_for_function("() => (document.getElementById('ready-line')?.textContent || '').startsWith('Ready — waiting for')")
        ready = blair.text_content("#ready-line")
        assert "Alex" in ready and "Casey" in ready
        host.wait_for_function("() => (document.getElementById('ready-line')?.textContent || '').includes('Blair')")
        assert host.get_by_role("button", name="Deal now").is_visible()
        assert casey.get_by_role("button", name="Deal now").count() == 0
        # A line says what the host's two buttons do; friends have only "Next deal".
        help_text = host.text_content("#ready-help")
        assert '"Next deal" says you are ready' in help_text and '"Deal now" deals without waiting for' in help_text
        assert "Casey" in help_text and casey.locator("#ready-help").count() == 0
        host.get_by_role("button", name="Next deal").click()
        host.wait_for_function("() => document.getElementById('ready-line').textContent.includes('Casey')")
        assert "Alex" not in host.text_content("#ready-line")
        host.wait_for_function("() => !document.getElementById('ready-help').textContent.includes('Next deal:')")
        assert '"Deal now" deals without waiting for Casey.' == host.text_content("#ready-help")
        assert host.get_attribute("#table", "data-phase") == "between-deals"
        host.screenshot(path=str(screenshots / "friends-ready.png"))
        # The host deals now: the pages that asked close their result; Casey, still reading,
        # keeps hers open with a line saying the next deal has started.
        host.get_by_role("button", name="Deal now").click()
        for page in (host, blair):
            page.wait_for_selector("#result", state="hidden")
        casey.wait_for_selector("#result-moved", state="visible")
        assert casey.is_visible("#result")
        assert "Deal 2 has started" in casey.text_content("#result-moved")
        casey.screenshot(path=str(screenshots / "friends-result-kept-open.png"))
        casey.get_by_role("button", name="Go to the table").click()
        casey.wait_for_selector("#result", state="hidden")

        # The exchange: with three people and one computer, two people always swap.
        state = Hands(served, info["table"], {0: tokens(info)[0]})
        st = state.state[0]
        state.close()
        assert st["phase"] == "exchange"
        pending = st["exchange"]["pending"]
        seat_player = {s["seat"]: s["player"] for s in st["seats"]}
        pages = {0: host, 1: blair, 2: casey}
        giver, receiver = seat_player[pending["giver"]], seat_player[pending["receiver"]]
        if giver in pages:
            # The giver's page: the forced give; everyone else sees that seat "to give".
            other = pages[next(p for p in pages if p != giver)]
            other.wait_for_function("(n) => [...document.querySelectorAll('#opponents .seat')].some("
                                    "s => s.textContent.includes(n) && s.textContent.includes('to give'))",
                                    arg=st["players"][giver])
        if receiver in pages and pending["forced"]:
            text = pages[receiver].text_content("#exchange-panel")
            assert "Then choose" in text, text
        hands_ws = Hands(served, info["table"], tokens(info))
        hands_ws.run(lambda h: h.phase(0) == "play")
        mine = hands_ws.state[0]["exchange"]["mine"]
        hands_ws.close()
        # Each person's page shows what they gave or received, and nothing of the others'.
        for page in pages.values():
            page.wait_for_function("() => document.getElementById('table').dataset.phase === 'play'")
        summaries = {p: pages[p].text_content("#exchange-panel") for p in pages}
        people = [p for p in pages if p in (giver, receiver)]
        assert len(people) >= 1
        for p in people:
            assert "gave" in summaries[p], (p, summaries[p])
        assert mine is not None
    finally:
        for c in contexts:
            c.close()


# ----- leaving and returning; a hidden tab; the host's pause ------------------------------

def test_a_friend_leaves_on_their_turn_and_comes_back(browser, served, screenshots):
    names = ["Alex", "Blair", "Robin", "Sam"]
    host_ctx = browser.new_context(base_url=served.url, **DESKTOP)
    contexts = [host_ctx]
    try:
        info = new_table(host_ctx.request, served, names, ["human", "human", "simple", "simple"])
        host = host_ctx.new_page()
        host.goto(link(served, info, 0))
        blair_ctx, blair = open_seat(browser, served, info, 1, PHONE)
        contexts.append(blair_ctx)
        blair.wait_for_selector("#lobby", state="visible")
        wait_log(host, "Blair joined the table.")
        host.get_by_role("button", name="Start the match").click()
        blair.wait_for_function("() => document.querySelectorAll('#hand .card').length === 13")

        # A hidden tab pauses nobody at a table for friends.
        sent = []
        blair.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
        blair.evaluate(HIDE)
        blair.wait_for_timeout(200)
        assert not table_of(served, info).paused
        assert blair.is_hidden("#paused") and host.is_hidden("#paused")

        # Play (the host over a socket) until Blair is to act, then Blair closes her page.
        hands_ws = Hands(served, info["table"], {0: tokens(info)[0]})

        def blair_to_act(h):
            st = h.state[0]
            return st["phase"] == "play" and st["to_act"] is not None and \
                st["seats"][st["to_act"]]["player"] == 1

        hands_ws.run(blair_to_act)
        cards_before = len(hand(blair))
        blair.close()
        wait_log(host, "Blair left the table.")
        host.wait_for_function("() => [...document.querySelectorAll('#opponents .seat')].some("
                               "s => s.textContent.includes('Blair') && s.textContent.includes('away'))")
        # After the grace period (1 s here) the stand-in plays Blair's turn.
        wait_log(host, "plays for Blair")
        hands_ws.run(lambda h: not blair_to_act(h) and h.state[0]["seats"][
            next(s["seat"] for s in h.state[0]["seats"] if s["player"] == 1)]["standin"] is not None)
        host.screenshot(path=str(screenshots / "friends-standin.png"))
        assert "computer (simple)" in seat_box(host, 1).text_content()

        # Blair comes back (her seat is kept on her device): the seat is hers again, with
        # her hand as the stand-in left it.
        blair = blair_ctx.new_page()
        blair.goto("/")
        blair.wait_for_selector("#hand .card")
        wait_log(host, "Blair is back.")
        truth = Hands(served, info["table"], {1: tokens(info)[1]})
        blair.wait_for_function("(n) => document.querySelectorAll('#hand .card').length === n",
                                arg=len(truth.state[1]["hand"]))
        assert sorted(hand(blair)) == sorted(truth.state[1]["hand"])
        assert len(hand(blair)) <= cards_before
        assert truth.state[1]["seats"][truth.state[1]["you"]["seat"]]["standin"] is None
        truth.close()
        assert "computer plays for you" not in blair.text_content("#your-info")

        # The host's tools, for the whole match: the links, and a seat handed to the computer
        # and back.
        host.click("#invite-toggle")
        assert host.locator("#invites").evaluate("e => e.open")
        assert host.text_content("#invite-list .link-text") == link(served, info, 1)
        host.get_by_role("button", name="Let the computer play for Blair").click()
        blair.wait_for_function("() => document.getElementById('your-info').textContent.includes('plays for you now')")
        assert "Alex (the host) can give your seat back" in blair.text_content("#play-why")
        host.get_by_role("button", name="Give Blair their seat back").click()
        blair.wait_for_function("() => !document.getElementById('your-info').textContent.includes('plays for you now')")
        wait_log(blair, "Blair has their seat back (the computer made")

        # The host's pause: everyone's window says who paused; only the host resumes.
        host.get_by_role("button", name="Pause", exact=True).click()
        for page in (host, blair):
            page.wait_for_selector("#paused", state="visible")
        assert "Paused by Alex" in blair.text_content("#paused-text")
        assert blair.is_hidden("#resume") and host.is_visible("#resume")
        assert "Paused by you" in host.text_content("#paused-text")
        blair.screenshot(path=str(screenshots / "friends-paused-friend.png"))
        host.click("#resume")
        for page in (host, blair):
            page.wait_for_selector("#paused", state="hidden")
        hands_ws.close()
    finally:
        for c in contexts:
            c.close()


# ----- the rematch ------------------------------------------------------------------------

def test_rematch_is_followed_by_every_page(browser, served, screenshots):
    names = ["Alex", "Blair", "Robin", "Sam"]
    host_ctx = browser.new_context(base_url=served.url, **DESKTOP)
    contexts = [host_ctx]
    try:
        info = new_table(host_ctx.request, served, names, ["human", "human", "simple", "simple"],
                         twists=["three-deals"])
        host = host_ctx.new_page()
        host.goto(link(served, info, 0))
        blair_ctx, blair = open_seat(browser, served, info, 1)
        contexts.append(blair_ctx)
        wait_log(host, "Blair joined the table.")
        host.get_by_role("button", name="Start the match").click()
        hands_ws = Hands(served, info["table"], tokens(info))
        for deal in range(3):
            hands_ws.run(lambda h: all(h.phase(p) in ("between-deals", "match-over") for p in (0, 1)))
            if deal < 2:
                for p in (0, 1):
                    hands_ws.send(p, {"type": "next-deal"})
                hands_ws.run(lambda h: all(h.phase(p) in ("exchange", "play") for p in (0, 1)))
        hands_ws.close()
        for page in (host, blair):   # (a busy machine once took longer than the default 30 s)
            page.wait_for_function("() => document.getElementById('result-title').textContent.startsWith('Match over')",
                                   timeout=90_000)
        # The host may start the new match before everyone is ready ("Start now").
        assert host.get_by_role("button", name="Start now").is_visible()
        assert '"Start now" starts it without waiting for' in host.text_content("#ready-help")
        blair.get_by_role("button", name="Play again").click()
        blair.wait_for_function("() => (document.getElementById('ready-line')?.textContent || '').includes('Alex')")
        host.wait_for_function("() => (document.getElementById('ready-line')?.textContent || '').includes('Ready: Blair')")
        assert host.get_by_role("button", name="Start now").count() == 0   # everyone else is ready
        host.get_by_role("button", name="Play again").click()
        for page in (host, blair):
            page.wait_for_function("() => document.getElementById('bar-info').textContent.includes('match 2')")
            page.wait_for_selector("#result", state="hidden")
            page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 13")
            history = page.evaluate("JSON.parse(localStorage.getItem('president.history'))")
            assert len(history) == 1 and history[0]["deals"] == 3 and history[0]["winners"]
            saved = page.evaluate("JSON.parse(localStorage.getItem('president.match'))")
            assert saved["match_number"] == 2 and not saved.get("finished") and saved["deals"] == []
        wait_log(blair, "A new match")
        blair.screenshot(path=str(screenshots / "friends-rematch.png"))
    finally:
        for c in contexts:
            c.close()


# ----- the turn timer's countdown on the felt ----------------------------------------------

def test_a_seat_with_a_countdown_is_not_covered_by_the_pile(browser, served, screenshots):
    """1366x768, four seats: the top seat (a friend) to play with "computer in N s", the pile
    holding earlier plays; no seat box and the pile overlap."""
    names = ["Alex", "Robin", "Blair", "Sam"]
    host_ctx = browser.new_context(base_url=served.url, viewport={"width": 1366, "height": 768})
    host_ctx.add_init_script("localStorage.setItem('president.guide-seen', 'true')")
    try:
        info = new_table(host_ctx.request, served, names, ["human", "simple", "human", "simple"],
                         standin="simple", grace_seconds=1, turn_seconds=60)
        host = host_ctx.new_page()
        host.goto(link(served, info, 0))
        host.wait_for_selector("#lobby", state="visible")   # the host's page is in, then Blair
        hands_ws = Hands(served, info["table"], {2: tokens(info)[2]})
        wait_log(host, "Blair joined the table.")
        host.get_by_role("button", name="Start the match").click()
        hands_ws.add(0, tokens(info)[0])

        def blair_on_a_pile(h):
            st = h.state[2]
            return (st["phase"] == "play" and st["to_act"] == st["you"]["seat"] and len(st["pile"]) >= 2
                    and st["table"]["timer"] is not None)
        hands_ws.run(blair_on_a_pile, timeout=60)
        blair = seat_box(host, 2)
        host.wait_for_function("() => /computer in \\d+ s/.test(document.querySelector('#opponents .countdown')?.textContent || '')")
        assert blair.locator(".countdown").is_visible()
        host.wait_for_function("() => document.querySelectorAll('#pile-under .under-play').length >= 1")
        time.sleep(0.3)
        pile = host.locator("#pile").bounding_box()
        boxes = [host.locator("#opponents .seat").nth(i).bounding_box() for i in range(3)]
        boxes.append(host.locator("#my-seat").bounding_box())

        def overlap(a, b):
            return (min(a["x"] + a["width"], b["x"] + b["width"]) > max(a["x"], b["x"])
                    and min(a["y"] + a["height"], b["y"] + b["height"]) > max(a["y"], b["y"]))
        for box in boxes:
            assert not overlap(box, pile), (box, pile)
        # Blair's box is the top one, and its countdown wholly visible above the pile.
        top = blair.bounding_box()
        assert top["y"] == min(b["y"] for b in boxes)
        count = blair.locator(".countdown").bounding_box()
        assert count["y"] + count["height"] <= pile["y"]
        host.screenshot(path=str(screenshots / "friends-countdown-1366x768.png"))
        hands_ws.close()
    finally:
        host_ctx.close()


# ----- seat links -------------------------------------------------------------------------

def test_host_trying_a_friends_link_keeps_the_host_seat_and_pasted_links_work(browser, served, screenshots):
    names = ["Alex", "Blair", "Casey", "Sam"]
    host_ctx = browser.new_context(base_url=served.url, **DESKTOP)
    contexts = [host_ctx]
    try:
        info = new_table(host_ctx.request, served, names, ["human", "human", "human", "simple"])
        host = host_ctx.new_page()
        host.goto(link(served, info, 0))
        host.wait_for_selector("#lobby", state="visible")
        # The host opens Blair's link in another tab of the same browser: asked which seat to
        # keep; keeping (the default) stays the host.
        tab = host_ctx.new_page()
        tab.goto(link(served, info, 1))
        tab.wait_for_selector("#confirm", state="visible")
        assert "Which seat" in tab.text_content("#confirm-title")
        assert "Alex" in tab.text_content("#confirm-text") and "Blair" in tab.text_content("#confirm-text")
        assert tab.evaluate("document.activeElement.id") == "confirm-no"     # the default keeps
        # Keeping is also the green (primary) button; taking the friend's seat a plain one.
        assert tab.get_attribute("#confirm-no", "class") == "primary"
        assert "primary" not in (tab.get_attribute("#confirm-yes", "class") or "")
        tab.screenshot(path=str(screenshots / "friends-which-seat.png"))
        tab.get_by_role("button", name="Keep my seat").click()
        tab.wait_for_selector("#lobby", state="visible")
        assert tab.is_visible("#lobby-host")                                  # still the host
        saved = tab.evaluate("JSON.parse(localStorage.getItem('president.match'))")
        assert saved["token"] == info["token"]
        tab.reload()
        tab.wait_for_selector("#lobby-host", state="visible")
        assert "Blair" in tab.text_content("#lobby-seats") and tab.locator("#lobby-seats .link-text").count() == 2
        # Pasting Blair's link into the same tab asks again (no reload); Escape keeps.
        tab.evaluate("window.marker = 1")
        tab.evaluate("(h) => { location.hash = h; }", f"#join={info['table']}.{tokens(info)[1]}")
        tab.wait_for_selector("#confirm", state="visible")
        tab.keyboard.press("Escape")
        tab.wait_for_selector("#confirm", state="hidden")
        assert tab.evaluate("window.marker") == 1 and tab.is_visible("#lobby-host")
        assert tab.evaluate("location.hash") == ""
        tab.close()

        # Casey's tab is on the start screen; her link pasted into it opens her seat at once.
        casey_ctx = browser.new_context(base_url=served.url, **PHONE)
        contexts.append(casey_ctx)
        casey = casey_ctx.new_page()
        casey.goto("/")
        casey.wait_for_selector("#start", state="visible")
        casey.evaluate("window.marker = 1")
        casey.evaluate("(h) => { location.hash = h; }", f"#join={info['table']}.{tokens(info)[2]}")
        casey.wait_for_selector("#lobby", state="visible")
        assert casey.evaluate("window.marker") == 1                          # no reload
        assert "Waiting for Alex" in casey.text_content("#lobby-lead")
        wait_log(host, "Casey joined the table.")
        saved = casey.evaluate("JSON.parse(localStorage.getItem('president.seats'))")
        assert saved[info["table"]]["token"] == tokens(info)[2]
    finally:
        for c in contexts:
            c.close()


def test_start_form_asks_for_the_stand_in_with_a_friend(page, served):
    page.goto("/")
    page.wait_for_selector("#start", state="visible")
    assert page.is_hidden("#friend-options")
    page.fill("#seat-name-0", "Morgan")
    page.select_option("#seat-level-1", "human")
    assert page.is_visible("#friend-options")
    page.select_option("#standin-level", "beginner")
    page.select_option("#turn-timer", "60")
    page.click("#start-match")
    page.wait_for_selector("#lobby", state="visible")
    table = served.tables.tables[page.evaluate("JSON.parse(localStorage.getItem('president.match')).table")]
    assert table.standin == "beginner" and table.turn_seconds == 60
    assert page.is_visible("#lobby-host") and page.locator("#lobby-seats .link-text").count() == 1


def test_damaged_and_dead_seat_links_say_so_at_the_top_and_a_trailing_full_stop_is_forgiven(
        browser, served):
    """A new user's trial: a cut-short link, or one to a table the server does not have, showed
    the start screen with no word (or the word far below on a phone)."""
    context = browser.new_context(base_url=served.url, viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        page.goto("/#join=garbage")
        page.wait_for_selector("#notice", state="visible")
        assert "cut short or damaged" in page.text_content("#notice")
        box = page.locator("#notice").bounding_box()
        assert box["y"] + box["height"] <= 740                  # in the first screen of a phone
        page.goto("/#join=" + "T" * 22 + "." + "K" * 32)        # well formed, no such table
        page.wait_for_function("() => document.getElementById('notice').textContent.includes('opens no game')")
        assert page.locator("#notice").bounding_box()["y"] < 740
        info = new_table(context.request, served, ["Alex", "Blair", "Casey", "Drew"],
                         ["human", "human", "simple", "simple"])
        page.goto(link(served, info, 1) + ".")                   # pasted at the end of a sentence
        page.wait_for_selector("#lobby", state="visible")
        assert page.evaluate("JSON.parse(localStorage.getItem('president.match')).token") == tokens(info)[1]
    finally:
        context.close()

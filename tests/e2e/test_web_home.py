"""The home screen (issue 35, item 2): on a 360x740 phone every part of the game is one tap
away without scrolling, and each part opens on its own view with a way back."""

from __future__ import annotations

from tests.e2e.test_web_friends import DESKTOP, PHONE

PARTS = {"Practice": "practice", "Play now": "open-start", "New match": "match-form", "With friends": "match-form",
         "Learn": "learn", "At a real table": "companion-start", "Saved matches": "saved"}


def test_every_part_is_one_tap_away_on_a_phone(browser, served, screenshots):
    for size, name in ((PHONE, "360"), (DESKTOP, "1366")):
        context = browser.new_context(base_url=served.url, **size)
        context.add_init_script("localStorage.setItem('president.guide-seen', 'true')")
        page = context.new_page()
        try:
            page.goto("/")
            page.wait_for_selector("#parts")
            height = size["viewport"]["height"]
            tiles = page.locator("#parts .home-go")
            assert tiles.count() == 7
            for i in range(7):
                box = tiles.nth(i).bounding_box()
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
                assert box["height"] >= 44 and box["width"] >= 44
            page.screenshot(path=str(screenshots / f"home-{name}.png"))
            for label, part in PARTS.items():
                page.locator("#parts .home-go", has_text=label).click()
                assert page.locator(f"#{part}").is_visible()
                others = page.eval_on_selector_all(
                    "#start > .panel", "els => els.filter(e => e.offsetParent !== null)"
                    ".map(e => e.id)")
                assert others == [part], (label, others)
                if label == "With friends":
                    assert page.input_value("#seat-level-1") == "human"
                page.get_by_role("button", name="← All parts").click()
                assert page.locator("#parts").is_visible()
            page.locator("#parts .home-go", has_text="Practice").click()
            page.click("#start-practice")
            page.wait_for_selector("#table", state="visible")
        finally:
            context.close()

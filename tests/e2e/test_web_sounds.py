"""Soft sounds (issue 35, item 4): off by default; once turned on in Options, a chime when it
becomes your turn and a tick for each play; none while the system asks for reduced motion."""

from __future__ import annotations

from tests.e2e.test_web_browser import start_practice


def _play_once(page) -> None:
    """On this page's turn, play the first card it can play (or pass), then wait until the
    table has moved on."""
    page.wait_for_selector("#table[data-turn='you']")
    actions = page.evaluate("() => document.getElementById('log').textContent.length")
    playable = page.locator("#hand .card:not(.dim)")
    if playable.count():
        playable.first.click(position={"x": 6, "y": 12})
        page.click("#play")
    else:
        page.click("#pass")
    page.wait_for_function("(n) => document.getElementById('log').textContent.length > n",
                           arg=actions)


def counts(page) -> dict:
    return page.evaluate("() => ({...window.presidentSounds})")


def test_sounds_are_off_until_turned_on(browser, served):
    for reduced, want_sounds in (("no-preference", True), ("reduce", False)):
        context = browser.new_context(base_url=served.url, reduced_motion=reduced)
        context.add_init_script("localStorage.setItem('president.guide-seen', 'true')")
        page = context.new_page()
        try:
            start_practice(page)
            _play_once(page)
            page.wait_for_timeout(300)
            assert counts(page) == {"turn": 0, "play": 0}      # off by default
            page.locator("summary", has_text="Options").click()
            page.check("#sounds")
            assert page.evaluate("JSON.parse(localStorage.getItem('president.options')).sounds")
            _play_once(page)
            _play_once(page)
            page.wait_for_timeout(300)
            got = counts(page)
            if want_sounds:
                assert got["play"] >= 1 and got["turn"] >= 1, got
            else:
                assert got == {"turn": 0, "play": 0}, got
        finally:
            context.close()

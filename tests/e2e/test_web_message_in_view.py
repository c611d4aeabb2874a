"""A long message at the table (a refusal of three lines on a phone) is scrolled into view
above the fixed action bar: a new player's refusals were cut off under it."""

from __future__ import annotations

from tests.e2e.test_web_browser import start_practice
from tests.e2e.test_web_friends import PHONE

LONG = ("a long refusal that goes on about what was wrong with that play and what would "
        "be right instead, three lines at least on a phone")


def test_a_long_message_is_not_under_the_action_bar(browser, served):
    context = browser.new_context(base_url=served.url, **PHONE)
    context.add_init_script("localStorage.setItem('president.guide-seen', 'true')")
    page = context.new_page()
    try:
        start_practice(page)
        page.evaluate("(t) => import('/static/connection.js').then(m => m.setMessage(t))", LONG)
        page.wait_for_timeout(300)
        message, bar = page.evaluate("""() => [
            document.getElementById('message').getBoundingClientRect().bottom,
            document.getElementById('action-bar').getBoundingClientRect().top]""")
        assert message <= bar, (message, bar)
        assert page.text_content("#message").startswith("A long refusal")
    finally:
        context.close()


def test_five_cards_played_are_refused_in_a_players_words(browser, served):
    """A new player slid over five cards and pressed Play: the answer was the protocol's
    words for programs ("List should have at most 4 items after validation")."""
    context = browser.new_context(base_url=served.url, **PHONE)
    context.add_init_script("localStorage.setItem('president.guide-seen', 'true')")
    page = context.new_page()
    try:
        start_practice(page)
        for i in range(5):
            page.locator("#hand .card").nth(i).dispatch_event("click")
        page.click("#play")
        page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
        message = page.text_content("#message")
        assert message == ("That is 5 cards: a play is at most 4 cards, all of one rank (a "
                           "single, a pair, a triple or four of a kind)"), message
    finally:
        context.close()

"""At a real table (issue 10, item 1) in headless Chromium: a whole ``house`` match entered
deal by deal by tapping names, with bad input refused, an undo (asked first, then redone), a
deal dealt again and a
reload in the middle; the sheet exported as a game record that ``president replay`` reads
with the same totals, and imported back to the same sheet; family reseating drawn as a
circle; roles only under first-night; the print view. On a 360 px phone and a 1366 px desktop.

Screenshots go to ``test-artifacts/screenshots/companion-*.png`` (not committed).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from president import records
from president.companion import Sheet, view

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
HOUSE = ["Alex", "Blair", "Casey", "Drew"]
# Seed 000's match to 11: Alex and Blair reach 11 together in deal 8 and share the win.
ORDERS = [["Blair", "Alex", "Casey"], ["Alex", "Blair", "Casey"], ["Blair", "Alex", "Casey"],
          ["Alex", "Blair", "Casey"], ["Blair", "Alex", "Casey"], ["Blair", "Casey", "Alex"],
          ["Alex", "Casey", "Blair"], ["Alex", "Blair", "Casey"]]


def open_companion(page) -> None:
    page.goto("/")
    page.get_by_role("button", name="Keep score at a real table").click()
    expect(page.locator("#companion")).to_be_visible()


def set_up(page, names, *, preset="house", twists=(), dealer=None) -> None:
    page.select_option("#c-preset", preset)
    for twist in twists:
        page.check(f"#c-twist-{twist}")
    page.select_option("#c-players", str(len(names)))
    for i, name in enumerate(names):
        page.fill(f"#c-name-{i}", name)
    if dealer is not None:
        page.select_option("#c-dealer", str(dealer))
    page.get_by_role("button", name="Start keeping score").click()


def tap_order(page, order) -> None:
    expect(page.locator("#c-save")).to_have_text(re.compile(r"^Save deal \d+$"))
    number = page.text_content("#c-save").split()[-1]
    for name in order:
        page.locator("#c-tap").get_by_role("button", name=name, exact=True).click()
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.locator("#c-message")).to_have_text(
        re.compile(rf"^Deal {number} saved(: the match is over)?\.$"))


def undo(page, *, confirm: bool = True) -> str:
    """Press "Undo last entry" and answer its question; the question's text."""
    page.get_by_role("button", name="Undo last entry").click()
    dialog = page.get_by_role("alertdialog", name="Undo the last entry?")
    expect(dialog).to_be_visible()
    text = page.text_content("#confirm-text")
    dialog.get_by_role("button", name="Undo" if confirm else "Cancel", exact=True).click()
    expect(dialog).to_be_hidden()
    return text


def saved_sheet(page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('president.companion')"))


def totals(page) -> list[int]:
    return [int(t) for t in page.locator("#c-table td.total").all_text_contents()]


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_house_match_with_a_reload_then_export_and_import(browser, served, screenshots,
                                                                  size, request, tmp_path):
    name = request.node.callspec.id
    context = browser.new_context(base_url=served.url, accept_downloads=True, **size)
    page = context.new_page()
    try:
        open_companion(page)
        page.screenshot(path=str(screenshots / f"companion-{name}-setup.png"), full_page=True)
        # Two seats with one name: a clear message, and nothing typed is lost.
        set_up(page, ["Alex", "Blair", "alex", "Drew"])
        expect(page.locator("#c-setup-error")).to_contain_text("Seats 1 and 3")
        assert page.input_value("#c-name-3") == "Drew"
        page.fill("#c-name-2", "")
        page.get_by_role("button", name="Start keeping score").click()
        expect(page.locator("#c-setup-error")).to_contain_text("Seat 3 has no name")
        page.fill("#c-name-2", "Casey")
        page.get_by_role("button", name="Start keeping score").click()
        expect(page.locator("#c-now-title")).to_have_text("Deal 1")
        expect(page.locator("#c-deal")).to_contain_text("Drew deals")
        expect(page.locator("#c-exchange")).to_have_text("No exchange before the first deal of a match.")
        # The last name is filled in; a tap can be taken back.
        page.locator("#c-tap").get_by_role("button", name="Casey", exact=True).click()
        page.get_by_role("button", name="Take back a tap").click()
        for who in ["Blair", "Alex", "Casey"]:
            page.locator("#c-tap").get_by_role("button", name=who, exact=True).click()
        expect(page.locator("#c-order li")).to_have_text(["Blair", "Alex", "Casey",
                                                          "Drew (last, filled in)"])
        page.screenshot(path=str(screenshots / f"companion-{name}-tapped.png"), full_page=True)
        page.get_by_role("button", name="Save deal 1").click()
        expect(page.locator("#c-now-title")).to_have_text("Deal 2")
        assert totals(page) == [1, 2, 0, 0]
        expect(page.locator("#c-exchange")).to_contain_text(
            "Drew must give their highest card to Blair; Blair gives back 1 card to Drew.")
        # A wrong entry, undone; a deal dealt again changes nothing but its count.
        tap_order(page, ["Drew", "Casey", "Blair"])
        undo(page)
        expect(page.locator("#c-message")).to_have_text(
            "Took back deal 2's finishing order (Drew, Casey, Blair, Alex). Redo puts it back.")
        page.get_by_role("button", name="Replay this deal").click()
        page.get_by_role("button", name="Deal again").click()
        expect(page.locator("#c-now-title")).to_have_text("Deal 2 (dealt again once)")
        assert totals(page) == [1, 2, 0, 0]
        for order in ORDERS[1:4]:
            tap_order(page, order)
        assert totals(page) == [6, 6, 0, 0]
        # A reload in the middle: the sheet is still there, on this device.
        page.reload()
        expect(page.locator("#companion-sheet")).to_be_visible()
        expect(page.locator("#c-now-title")).to_have_text("Deal 5")
        assert totals(page) == [6, 6, 0, 0]
        expect(page.locator("#c-again")).to_contain_text("deal 2 once")
        page.screenshot(path=str(screenshots / f"companion-{name}-sheet.png"), full_page=True)
        assert no_sideways_scroll(page)
        for order in ORDERS[4:]:
            tap_order(page, order)
        expect(page.locator("#c-result")).to_be_visible()
        expect(page.locator("#c-result-text")).to_have_text(
            "Alex and Blair share the win with 11 points each.")
        expect(page.locator("#c-entry")).to_be_hidden()
        assert totals(page) == [11, 11, 2, 0]
        assert page.get_by_role("button", name="Replay this deal").is_disabled()
        page.screenshot(path=str(screenshots / f"companion-{name}-over.png"), full_page=True)
        assert no_sideways_scroll(page)
        # No deal column half hidden under the names and totals (its heading hidden with it).
        assert page.evaluate("""() => {
            const row = document.querySelector("#c-table thead tr");
            const edge = row.children[1].getBoundingClientRect().right;
            return [...row.children].slice(2).every((th) => {
                const r = th.getBoundingClientRect();
                return r.right <= edge + 1 || r.left >= edge - 1;
            });
        }""")
        sheet = saved_sheet(page)
        assert view(Sheet.from_dict(sheet))["winners"] == ["Alex", "Blair"]
        # Export: a president/2 record that replay reads with the same totals.
        with page.expect_download() as got:
            page.get_by_role("button", name="Export").click()
        path = tmp_path / "sheet.json"
        got.value.save_as(path)
        result = records.replay(records.loads(path.read_text()))
        assert result.ok and result.scores == [11, 11, 2, 0] and result.winners == [0, 1]
        # Import after changing the sheet gives the same sheet back.
        undo(page)
        expect(page.locator("#c-result")).to_be_hidden()
        page.set_input_files("#c-import", str(path))
        page.get_by_role("button", name="Replace").click()
        expect(page.locator("#c-message")).to_contain_text("Read the sheet from")
        assert saved_sheet(page) == sheet and totals(page) == [11, 11, 2, 0]
        # A file that is not a record: a clear message, and nothing changes.
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "president/9"}')
        page.set_input_files("#c-import", str(bad))
        page.get_by_role("button", name="Replace").click()
        expect(page.locator("#c-message")).to_contain_text("not a score sheet or game record")
        assert saved_sheet(page) == sheet
        # Print view: the sheet without the buttons.
        page.emulate_media(media="print")
        page.screenshot(path=str(screenshots / f"companion-{name}-print.png"), full_page=True)
        assert page.locator("#c-tools, .c-tools").first.is_hidden()
        assert page.locator("#c-table").is_visible()
        page.emulate_media(media="screen")
        # Back to the start screen: the panel says a sheet is saved here.
        page.get_by_role("button", name="Back to start").click()
        expect(page.locator("#companion-saved")).to_contain_text("house, Alex, Blair, Casey, Drew")
        expect(page.get_by_role("button", name="Continue the score sheet")).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_family_reseating_as_a_circle_and_a_new_match(browser, served, screenshots, size, request):
    """Seed ``001_6a3b64d15368b01c.txt``: sit in finishing order; seed
    ``000_2ebb75a2290c9d05.txt``: players change only between matches."""
    name = request.node.callspec.id
    context = browser.new_context(base_url=served.url, **size)
    page = context.new_page()
    try:
        open_companion(page)
        set_up(page, ["Ann", "Bo", "Cy", "Di", "Ed"], preset="family")
        tap_order(page, ["Cy", "Ann", "Ed", "Bo"])
        expect(page.locator("#c-seats-title")).to_have_text("New seats, clockwise")
        expect(page.locator("#c-circle .c-seat-name")).to_have_text(["Cy", "Ann", "Ed", "Bo", "Di"])
        expect(page.locator("#c-seating-words")).to_contain_text("Ann sits on Cy's left.")
        expect(page.locator("#c-deal")).to_contain_text("Di deals")
        expect(page.locator("#c-lead")).to_have_text("Cy leads (the President).")
        # The circle's seats go clockwise from the top: Cy above the middle, Ann to its right.
        boxes = [page.locator("#c-circle .c-seat").nth(i).bounding_box() for i in range(5)]
        assert boxes[0]["y"] < boxes[2]["y"] and boxes[1]["x"] > boxes[0]["x"]
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= size["viewport"]["width"] for b in boxes)
        page.screenshot(path=str(screenshots / f"companion-{name}-family.png"), full_page=True)
        assert no_sideways_scroll(page)
        # A new match while this one is not over: asked first; then the players may change.
        page.get_by_role("button", name="New match").click()
        page.get_by_role("button", name="New match").last.click()
        expect(page.locator("#companion-setup")).to_be_visible()
        assert page.input_value("#c-name-0") == "Ann"
        page.get_by_role("button", name="Cancel").click()
        expect(page.locator("#c-now-title")).to_have_text("Deal 2")
        page.get_by_role("button", name="New match").click()
        page.get_by_role("button", name="New match").last.click()
        set_up(page, ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"], preset="family", dealer=0)
        expect(page.locator("#c-now-title")).to_have_text("Deal 1")
        expect(page.locator("#c-deal")).to_contain_text("Ann deals")
        assert totals(page) == [0] * 6
    finally:
        context.close()


def test_first_night_shows_roles_and_the_swap(browser, served, screenshots):
    """Seed ``004_7dd5a514fa081721.txt``: roles are the prize (no points); the swap at three."""
    context = browser.new_context(base_url=served.url, **PHONE)
    page = context.new_page()
    try:
        open_companion(page)
        set_up(page, ["Ann", "Bo", "Cy"], preset="first-night", twists=["swap"])
        tap_order(page, ["Bo", "Cy"])
        expect(page.locator("#c-exchange li")).to_have_text([
            "Ann must give their highest card to Bo; Bo gives back their lowest card to Ann.",
            "Cy (Neutral) keeps their cards."])
        assert page.locator("#c-table td.total").count() == 0
        expect(page.locator("#c-table tbody tr").first).to_contain_text("bottom")
        expect(page.locator("#c-end")).to_contain_text("roles are the prize")
        page.screenshot(path=str(screenshots / "companion-phone-first-night.png"), full_page=True)
    finally:
        context.close()


def test_a_long_name_on_a_phone_keeps_the_page_narrow_and_a_longer_one_is_refused(
        browser, served):
    context = browser.new_context(base_url=served.url, **PHONE)
    page = context.new_page()
    try:
        open_companion(page)
        long = "Maximiliana Wolfeschlegel"[:24]
        assert len(long) == 24
        page.select_option("#c-players", "4")
        for i, name in enumerate([long, "Blair", "Casey", "Drew"]):
            page.fill(f"#c-name-{i}", name)
        page.select_option("#c-dealer", "0")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        start = page.get_by_role("button", name="Start keeping score")
        box = start.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        # One character more is refused with a message, not cut.
        page.fill("#c-name-0", long + "x")
        assert page.input_value("#c-name-0") == long + "x"
        start.click()
        expect(page.locator("#c-setup-error")).to_have_text(
            "Seat 1's name has 25 characters; a name may have at most 24.")
        page.fill("#c-name-0", long)
        start.click()
        expect(page.locator("#c-save")).to_have_text("Save deal 1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_undo_asks_first_and_redo_puts_the_entry_back(browser, served, screenshots):
    context = browser.new_context(base_url=served.url, **DESKTOP)
    page = context.new_page()
    try:
        open_companion(page)
        set_up(page, HOUSE)
        redo = page.get_by_role("button", name="Redo", exact=True)
        expect(redo).to_be_disabled()
        for order in ORDERS[:2]:
            tap_order(page, order)
        two = saved_sheet(page)
        want = {k: view(Sheet("house", HOUSE, 3, tuple(tuple(o) for o in
                                                      [*ORDERS[:k]])))["totals"]
                for k in range(3)}
        assert totals(page) == want[2] == [3, 3, 0, 0]
        # The question names the entry; Cancel keeps it.
        assert undo(page, confirm=False) == ("Deal 2's finishing order (Alex, Blair, Casey, "
                                             "Drew) is taken back, with any points it gave. "
                                             "Redo puts it back.")
        assert saved_sheet(page) == two and totals(page) == want[2]
        expect(redo).to_be_disabled()
        # Two undos, then two redos: the same sheet as before, stored too.
        undo(page)
        expect(page.locator("#c-message")).to_have_text(
            "Took back deal 2's finishing order (Alex, Blair, Casey, Drew). Redo puts it back.")
        expect(page.locator("#c-now-title")).to_have_text("Deal 2")
        assert totals(page) == want[1] and len(saved_sheet(page)["entries"]) == 1
        expect(redo).to_be_enabled()
        undo(page)
        expect(page.locator("#c-now-title")).to_have_text("Deal 1")   # (the server answered)
        assert totals(page) == want[0] and saved_sheet(page)["entries"] == []
        expect(page.get_by_role("button", name="Undo last entry")).to_be_disabled()
        redo.click()
        expect(page.locator("#c-message")).to_have_text(
            "Put back deal 1's finishing order (Blair, Alex, Casey, Drew).")
        assert totals(page) == want[1]
        redo.click()
        expect(page.locator("#c-message")).to_have_text(
            "Put back deal 2's finishing order (Alex, Blair, Casey, Drew).")
        expect(page.locator("#c-now-title")).to_have_text("Deal 3")
        assert saved_sheet(page) == two and totals(page) == want[2]
        expect(redo).to_be_disabled()
        # A deal dealt again is undone and redone the same way.
        page.get_by_role("button", name="Replay this deal").click()
        page.get_by_role("button", name="Deal again").click()
        expect(page.locator("#c-now-title")).to_have_text("Deal 3 (dealt again once)")
        assert undo(page).startswith("Deal 3 dealt again is taken back")
        expect(page.locator("#c-now-title")).to_have_text("Deal 3")
        redo.click()
        expect(page.locator("#c-now-title")).to_have_text("Deal 3 (dealt again once)")
        page.screenshot(path=str(screenshots / "companion-desktop-redo.png"), full_page=True)
        # Something new after an undo: nothing left to redo.
        undo(page)
        expect(redo).to_be_enabled()
        tap_order(page, ORDERS[2])
        expect(redo).to_be_disabled()
        assert totals(page) == view(Sheet("house", HOUSE, 3, tuple(
            tuple(o) for o in ORDERS[:3])))["totals"]
    finally:
        context.close()

"""Names that could deceive, in the page (issue 9): a right-to-left override in a name is
refused by the server with a clear message (the form shows it), and a name written right to
left ("שרה") shown among other words does not reorder them."""

from __future__ import annotations

from .test_web_findings import Seat

HEBREW = "שרה"

# Where the name and the first visible character after it are drawn, inside an element (its
# text may be split over <bdi> elements and hold FSI … PDI isolates).
PLACES = """([el, name]) => {
  const nodes = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) nodes.push(walk.currentNode);
  const at = [];
  let text = "";
  for (const n of nodes) for (let i = 0; i < n.data.length; i++) { at.push([n, i]); text += n.data[i]; }
  const start = text.indexOf(name);
  if (start < 0) return null;
  let next = start + name.length;
  while (next < text.length && /[\\s\\u2066-\\u2069]/.test(text[next])) next++;
  const rect = (from, to) => {
    const r = document.createRange();
    r.setStart(at[from][0], at[from][1]);
    r.setEnd(at[to - 1][0], at[to - 1][1] + 1);
    return r.getBoundingClientRect();
  };
  const a = rect(start, start + name.length), b = rect(next, next + 1);
  return {name: [a.left, a.right], after: [b.left, b.right], text};
}"""


def places(page, selector: str, name: str = HEBREW) -> dict:
    found = page.evaluate(f"(name) => ({PLACES})([document.querySelector({selector!r}), name])", name)
    assert found is not None, f"{name} is not in {selector}"
    return found


def test_a_right_to_left_override_in_a_name_is_refused(page, served):
    r = page.request.post(f"{served.url}/api/tables", data={
        "kind": "match", "players": 4, "names": ["Me", "Al\u202eex", "Sam", "Drew"]})
    assert r.status == 400
    body = r.json()
    assert body["error"] == "bad-table"
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in body["message"]
    assert "letters of any script" in body["message"] and "\u202e" not in body["message"]
    # The start form shows the server's words and makes no table.
    page.goto("/")
    page.wait_for_selector("#start", state="visible")
    page.select_option("#players", "4")
    page.fill("#seat-name-0", "Me")
    page.fill("#seat-name-1", "Al\u202eex")
    before = set(served.tables.tables)
    page.click("#start-match")
    page.wait_for_function("() => document.getElementById('form-error').textContent.includes('U+202E')")
    shown = page.text_content("#form-error")
    assert "seat 2" in shown and "\u202e" not in shown
    assert not set(served.tables.tables) - before and page.is_visible("#start")


def test_a_right_to_left_name_does_not_reorder_the_words_around_it(browser, served, screenshots):
    page = browser.new_page(base_url=served.url)
    try:
        info = page.request.post(f"{served.url}/api/tables", data={
            "kind": "match", "players": 4, "names": ["Me", HEBREW, "Sam", "Drew"], "seed": 5}).json()
        page.goto("/")
        page.wait_for_selector("#start", state="visible")
        page.evaluate("""(info) => localStorage.setItem('president.match', JSON.stringify({
            table: info.table, token: info.token, rules: 'test', players: [], scores: [], deals: []}))""",
                      info)
        page.reload()
        page.wait_for_selector("#table", state="visible")
        seat = Seat(served, info["table"], info["token"])
        # Every element showing a name isolates it.
        isolation = page.eval_on_selector_all(
            ".seat .name, #your-name", "els => els.map(e => getComputedStyle(e).unicodeBidi)")
        assert isolation and set(isolation) == {"isolate"}
        seat.play_deal()
        page.wait_for_selector("#result .totals-line", state="visible")
        page.screenshot(path=str(screenshots / "names-right-to-left.png"))
        # "Scores: Me 2, שרה 1, Sam 0, …": the number after the name stays after it.
        line = places(page, "#result .totals-line")
        assert line["after"][0] >= line["name"][1] - 1, line
        # The same words without isolation would put the number before the name: the
        # measure sees a reordering when there is one.
        page.evaluate("""(text) => {
            const p = document.createElement('p');
            p.id = 'control';
            p.textContent = text;
            document.getElementById('result').append(p);
        }""", line["text"].replace("\u2068", "").replace("\u2069", ""))
        control = places(page, "#control")
        assert control["after"][1] <= control["name"][0] + 1, control
        # The finishing order names the players in <bdi> elements.
        names = page.eval_on_selector_all("#finish-order li bdi", "els => els.map(e => e.textContent)")
        assert HEBREW in names
        scores = page.eval_on_selector_all(".scores tbody th", "els => els.map(e => getComputedStyle(e).unicodeBidi)")
        assert set(scores) == {"isolate"}
        seat.close()
    finally:
        page.close()

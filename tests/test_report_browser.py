"""The HTML report opened in a real headless browser (Debian's chromium, driven over the DevTools protocol).

Asserts what a reader sees: the verdict, every finding code of the sheet, evidence images loaded and visible,
charts drawn, no console error, no network request, collapsed sections open in print; and that a sheet
holding <script> and markup shows it as text. Screenshots go to artifacts/ (gitignored) for people to look
at. Skipped cleanly when chromium is absent. Run as a script to screenshot any report:

    .venv/bin/python tests/test_report_browser.py report.html out.png [--print out.pdf]
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("SHEETAUDIT_ARTIFACTS", ROOT / "artifacts" / "report"))
CORPUS = Path(os.environ.get("SHEETAUDIT_CORPUS", ROOT.parent / "shared" / "corpus"))
SAMPLES = ROOT / "samples"
HOSTILE = ROOT / "tests" / "hostile" / "files"


def find_chromium() -> str | None:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


class Browser:
    """A headless chromium and one page, spoken to over the DevTools protocol (websocket-client)."""

    def __init__(self, exe: str, width: int = 1200, height: int = 900):
        import websocket

        self.profile = tempfile.mkdtemp(prefix="sheetaudit-chromium-")
        args = [
            exe,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-default-apps",
            "--disable-dev-shm-usage",
            "--mute-audio",
            "--hide-scrollbars",
            f"--user-data-dir={self.profile}",
            "--remote-debugging-port=0",
            f"--window-size={width},{height}",
            "about:blank",
        ]
        self.proc = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True
        )
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.time() + 30
        while not (port_file.exists() and len(port_file.read_text().split()) >= 2):
            if self.proc.poll() is not None or time.time() > deadline:
                self.close()
                raise RuntimeError("chromium did not start (no DevToolsActivePort)")
            time.sleep(0.05)
        port, path = port_file.read_text().split()[:2]
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", timeout=60, suppress_origin=True)
        self._id = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=False,
        )
        self.width = width

    def call(self, method: str, session: bool = False, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._event(reply)

    def _event(self, ev: dict):
        if "method" not in ev:
            return
        self.events.append(ev)
        if ev["method"] == "Page.javascriptDialogOpening":  # an alert() would block the page: dismiss, record
            self.ws.send(
                json.dumps(
                    {
                        "id": 0,
                        "method": "Page.handleJavaScriptDialog",
                        "sessionId": self.session,
                        "params": {"accept": False},
                    }
                )
            )

    def pump(self, seconds: float, until: str | None = None) -> bool:
        deadline = time.time() + seconds
        self.ws.settimeout(0.1)
        try:
            while time.time() < deadline:
                try:
                    ev = json.loads(self.ws.recv())
                except Exception:
                    continue
                self._event(ev)
                if until and ev.get("method") == until:
                    return True
        finally:
            self.ws.settimeout(60)
        return False

    def open(self, path: Path, media: str = "screen"):
        self.events.clear()
        self.call("Emulation.setEmulatedMedia", session=True, media=media)
        self.call("Page.navigate", session=True, url=path.resolve().as_uri())
        if not self.pump(30, until="Page.loadEventFired"):
            raise RuntimeError(f"{path}: page did not load")
        self.pump(0.3)

    def js(self, expression: str):
        r = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"script failed: {r['exceptionDetails']}")
        return r["result"].get("value")

    def console_errors(self) -> list[str]:
        out = []
        for ev in self.events:
            m, p = ev["method"], ev.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif m == "Runtime.exceptionThrown":
                out.append(json.dumps(p.get("exceptionDetails", {}))[:300])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                out.append(p["entry"].get("text", ""))
        return out

    def requests(self, page: Path) -> list[str]:
        """Every URL the page asked for except itself and inline data: URIs."""
        own = page.resolve().as_uri()
        return [
            u
            for ev in self.events
            if ev["method"] == "Network.requestWillBeSent"
            for u in [ev["params"]["request"]["url"]]
            if u != own and not u.startswith("data:")
        ]

    def dialogs(self) -> list[str]:
        return [ev["params"].get("message", "") for ev in self.events if ev["method"] == "Page.javascriptDialogOpening"]

    def screenshot(self, out: Path, full: bool = True):
        out.parent.mkdir(parents=True, exist_ok=True)
        params = {"format": "png"}
        if full:
            metrics = self.call("Page.getLayoutMetrics", session=True)
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            params.update(
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": self.width, "height": min(size["height"], 16000), "scale": 1},
            )
        data = self.call("Page.captureScreenshot", session=True, **params)["data"]
        out.write_bytes(base64.b64decode(data))

    def print_pdf(self, out: Path, letter: bool = False):
        w, h = (8.5, 11) if letter else (8.27, 11.69)
        data = self.call(
            "Page.printToPDF", session=True, paperWidth=w, paperHeight=h, printBackground=True, preferCSSPageSize=False
        )["data"]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    exe = find_chromium()
    if not exe:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    pytest.importorskip("websocket", reason="websocket-client is not installed (pip install -e '.[dev]')")
    b = Browser(exe)
    yield b
    b.close()


def write_report(sheet: Path, out: Path, *extra: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    r = run_cli("check", sheet, "--format", "html", "-o", out, "--fail-on", "never", *extra)
    assert r.returncode == 0, r.stderr
    assert out.exists()


def contract(sheet: Path) -> dict:
    r = run_cli("check", sheet, "--format", "json", "--fail-on", "never")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


VISIBLE = """(function (el) { if (!el) return false; var r = el.getBoundingClientRect(), s = getComputedStyle(el);
  return r.width > 2 && r.height > 2 && s.visibility !== 'hidden' && s.display !== 'none' && +s.opacity > 0; })"""

PDF_SHEETS = [
    SAMPLES / "borealis-bx72-rack.pdf",
    SAMPLES / "xuanwu-x8-server-zh.pdf",
    SAMPLES / "pelican-pn5164-ethernet-switch.pdf",
]


@pytest.mark.parametrize("sheet", PDF_SHEETS, ids=lambda p: p.stem)
def test_sheet_report_in_browser(browser, sheet, tmp_path):
    if not sheet.exists():
        pytest.skip(f"{sheet} not present")
    out = tmp_path / f"{sheet.stem}.html"
    write_report(sheet, out)
    data = contract(sheet)
    browser.open(out)
    page = browser.js
    # the verdict first, visible, and the same sentence as the other formats
    assert page(f"{VISIBLE}(document.getElementById('verdict'))")
    verdict = page("document.getElementById('verdict').textContent")
    assert len(verdict) > 20 and verdict.endswith(".")
    assert page("document.querySelector('main section').classList.contains('verdict')"), (
        "the verdict is the first section"
    )
    # every finding code of the sheet is shown, each as a visible finding
    codes = {f["check"] for f in data["findings"]}
    shown = set(page("Array.from(document.querySelectorAll('article.finding')).map(a => a.dataset.check)"))
    assert codes and codes == shown
    for code in codes:
        assert page(f"{VISIBLE}(document.querySelector('article.finding[data-check=\"{code}\"]'))"), code
    # evidence images: decoded, with alt text, visible
    imgs = page(
        """Array.from(document.querySelectorAll('img.page-crop')).map(i => ({ok: i.complete && i.naturalWidth > 0,
        alt: i.alt, src: i.src.slice(0, 22), vis: (%s)(i)}))"""
        % VISIBLE
    )
    assert imgs, "no evidence image"
    assert all(i["ok"] and i["vis"] and len(i["alt"]) > 20 and i["src"] == "data:image/png;base64," for i in imgs)
    # charts: drawn and visible, with a title for assistive technology
    # charts: each drawn and visible in the layout for this width, with a title for assistive technology
    svgs = page(
        """Array.from(document.querySelectorAll('.chart-box')).map(box => Array.from(box.querySelectorAll('svg.chart'))
        .filter(s => (%s)(s)).map(s => ({title: (s.querySelector('title') || {}).textContent,
        marks: s.querySelectorAll('rect.bar, .pt').length})))"""
        % VISIBLE
    )
    assert svgs and all(len(box) == 1 and box[0]["title"] and box[0]["marks"] > 0 for box in svgs)
    # the figure table: a row per figure, sortable with the script
    assert page("document.querySelectorAll('#figures-table tbody tr').length") == len(data["figures"])
    assert page("!document.getElementById('figure-tools').hidden")
    page("document.querySelector('#figures-table thead th:nth-child(5) button').click()")
    assert (
        page("document.querySelector('#figures-table thead th:nth-child(5)').getAttribute('aria-sort')") == "ascending"
    )
    page(
        "var i = document.getElementById('figure-filter'); i.value = 'zzzz-nothing'; i.dispatchEvent(new Event('input'))"
    )
    assert page("document.querySelectorAll('#figures-table tbody tr:not([hidden])').length") == 0
    # headings in order: one h1, no level skipped
    levels = page("Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6')).map(h => +h.tagName[1])")
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:]))
    assert browser.console_errors() == []
    assert browser.requests(out) == []
    browser.screenshot(ARTIFACTS / f"{sheet.stem}.png")


def test_print_opens_every_collapsed_section(browser, tmp_path):
    sheet = SAMPLES / "borealis-bx72-rack.pdf"
    if not sheet.exists():
        pytest.skip("corpus not present")
    out = tmp_path / "print.html"
    write_report(sheet, out)
    browser.open(out, media="print")
    # every collapsed section opens on paper, except a finding's further places (one line names them), the
    # figures no question rests on (the appendix prints the cited rows; the HTML keeps them all), and the lists a
    # brief leaves to the screen: the passed checks of each step and the scaling model's assumptions
    shown = "details:not(.more):not(.passed):not(.assumptions)"
    hidden = browser.js(f"""Array.from(document.querySelectorAll('{shown} li, {shown} .evidence'))
        .filter(e => e.getBoundingClientRect().height === 0).length""")
    total = browser.js(f"document.querySelectorAll('{shown} li, {shown} .evidence').length")
    assert hidden == 0, (hidden, total)
    rows = browser.js("""Array.from(document.querySelectorAll('#figures-table tbody tr'))
        .map(r => [r.classList.contains('cited'), r.getBoundingClientRect().height > 0])""")
    assert rows and all(cited == shown for cited, shown in rows) and any(c for c, _ in rows)
    more = browser.js(
        "Array.from(document.querySelectorAll('.finding:not(.finding-info) .more-print'))"
        ".map(p => p.getBoundingClientRect().height)"
    )  # a note's places are not printed
    assert all(h > 0 for h in more)
    assert browser.js("getComputedStyle(document.getElementById('figure-tools')).display") == "none"
    browser.print_pdf(ARTIFACTS / "orion-nvl72-rack.a4.pdf")
    browser.print_pdf(ARTIFACTS / "orion-nvl72-rack.letter.pdf", letter=True)
    import pdfplumber

    for name, width in (("orion-nvl72-rack.a4.pdf", 595.3), ("orion-nvl72-rack.letter.pdf", 612)):
        with pdfplumber.open(ARTIFACTS / name) as pdf:
            assert abs(pdf.pages[0].width - width) < 2
            text = "".join(p.extract_text() or "" for p in pdf.pages)
            assert "Ask the vendor" in text and "Appendix: every figure read" in text
            # nothing runs off the right edge of the paper
            assert all(c["x1"] <= p.width + 0.5 for p in pdf.pages for c in p.chars)
    browser.open(out)  # back to screen for the next test
    assert browser.console_errors() == []


def test_injection_sheet_shows_markup_as_text(browser, tmp_path):
    sheet = HOSTILE / "injection.pdf"
    out = tmp_path / "injection.html"
    write_report(sheet, out)
    browser.open(out)
    assert browser.dialogs() == [], "a script from the sheet ran"
    assert browser.js("document.querySelectorAll('script').length") == 1
    assert browser.js("document.querySelectorAll('img:not(.page-crop)').length") == 0
    assert (
        browser.js("Array.from(document.querySelectorAll('b')).filter(b => /power/i.test(b.textContent)).length") == 0
    )
    text = browser.js("document.body.innerText")
    data = contract(sheet)
    payloads = [
        p
        for p in ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "{{ 7*7 }}", "<b>Typical power</b>")
        if any(p in (f.get("context") or "") or p in (f.get("label") or "") for f in data["figures"])
        or p in (data["source"].get("title") or "")
    ]
    assert payloads, "the injection sheet's payloads are not in the audit any more"
    for p in payloads:
        assert p in text, p
    assert browser.console_errors() == []
    assert browser.requests(out) == []
    browser.screenshot(ARTIFACTS / "injection.png")


def test_text_input_report_without_images(browser, tmp_path):
    sheet = SAMPLES / "cormorant-c8x-platform.md"
    out = tmp_path / "md.html"
    write_report(sheet, out)
    browser.open(out)
    assert browser.js("document.querySelectorAll('img').length") == 0
    assert browser.js("document.querySelectorAll('article.finding blockquote').length") > 0
    assert browser.console_errors() == [] and browser.requests(out) == []
    browser.screenshot(ARTIFACTS / "cormorant-c8x-platform.png")


# What a page looks like at one width: how far it overflows the viewport sideways, and every chart text smaller
# than 11 px as rendered (its font size times the scale the SVG is drawn at; hidden layouts are skipped).
LAYOUT = """(function () {
  var small = [], charts = 0;
  Array.prototype.forEach.call(document.querySelectorAll('svg.chart'), function (svg) {
    var r = svg.getBoundingClientRect();
    if (r.width < 2) { return; }
    charts += 1;
    var scale = r.width / svg.viewBox.baseVal.width;
    Array.prototype.forEach.call(svg.querySelectorAll('text'), function (t) {
      var px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < 11) { small.push(t.textContent + ': ' + px.toFixed(1) + ' px'); }
    });
  });
  var wide = Array.prototype.filter.call(document.querySelectorAll('body *'), function (e) {
    var r = e.getBoundingClientRect(); return r.right > window.innerWidth + 1 && !e.closest('.table-wrap, .wrap');
  }).map(function (e) { return e.tagName + '.' + e.className; }).slice(0, 5);
  return {overflow: document.documentElement.scrollWidth - window.innerWidth, wide: wide, charts: charts,
          small: small};
})()"""


def layout(b: Browser) -> dict:
    return b.js(LAYOUT)


@pytest.fixture(scope="module", params=[1280, 390], ids=["1280px", "390px"])
def sized(request):
    exe = find_chromium()
    if not exe:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    pytest.importorskip("websocket", reason="websocket-client is not installed (pip install -e '.[dev]')")
    b = Browser(exe, width=request.param, height=900)
    yield b
    b.close()


@pytest.mark.parametrize("sheet", PDF_SHEETS, ids=lambda p: p.stem)
def test_report_fits_the_screen_and_chart_text_stays_legible(sized, sheet, tmp_path):
    """At 1280 px and on a 390 px phone: no sideways scrolling of the page, chart text at least 11 px as drawn,
    and the first thing after the verdict is the list of questions for the vendor, most severe first."""
    out = tmp_path / f"{sheet.stem}.html"
    write_report(sheet, out)
    sized.open(out)
    got = layout(sized)
    assert got["overflow"] <= 0 and got["wide"] == [], got
    assert got["charts"] >= 1 and got["small"] == [], got["small"][:5]
    order = sized.js(
        "Array.from(document.querySelectorAll('main > section')).slice(0, 2).map(s => s.id || s.className)"
    )
    assert order[1] == "ask"
    rank = {"error": 0, "warning": 1}
    asked = sized.js("Array.from(document.querySelectorAll('#ask li[data-severity]')).map(l => l.dataset.severity)")
    status = sized.js("document.getElementById('status').dataset.status")
    if status == "pass":  # a complete sheet (pelican): nothing to ask, and the section says so
        assert asked == [] and sized.js(f"{VISIBLE}(document.querySelector('#ask p.ok'))")
    else:
        assert asked and [rank[a] for a in asked] == sorted(rank[a] for a in asked)
        assert sized.js(f"{VISIBLE}(document.querySelector('#ask ol'))")
    assert sized.js("document.getElementById('status').dataset.status") in ("fail", "review", "pass", "incomplete")
    assert sized.console_errors() == []
    sized.screenshot(ARTIFACTS / f"{sheet.stem}-{sized.width}px.png")


if __name__ == "__main__":  # screenshot any report: python tests/test_report_browser.py in.html out.png [--print x.pdf]
    b = Browser(find_chromium() or "chromium")
    try:
        src, png = Path(sys.argv[1]), Path(sys.argv[2])
        b.open(src, media="print" if "--print" in sys.argv else "screen")
        if "--print" in sys.argv:
            b.print_pdf(Path(sys.argv[sys.argv.index("--print") + 1]))
        b.screenshot(png)
        print("console:", b.console_errors(), "requests:", b.requests(src))
    finally:
        b.close()


def test_system_report_shows_what_it_means_at_scale(browser, tmp_path):
    """A system sheet's report ends with the model's section: visible, labelled a model, the efficiency curve with
    the domain edge marked, the assumptions listed; a switch's report has no such section."""
    out = tmp_path / "kestrel.html"
    write_report(SAMPLES / "kestrel-k8x-gpu-server.pdf", out)
    browser.open(out)
    page = browser.js
    assert page(f"{VISIBLE}(document.getElementById('scale'))")
    assert "a model, not a measurement" in page("document.querySelector('#scale .model-note').textContent").lower()
    assert page(f"{VISIBLE}(document.querySelector('#scale svg.scale-curve polyline.curve'))")
    assert page("document.querySelectorAll('#scale .chart-wide svg g.edge').length") == 1
    assert "scale_up_efficiency" in page("document.querySelector('#scale details.assumptions').textContent")
    assert page("document.querySelectorAll('#scale table.scale-points tbody tr').length") == 4
    assert not browser.console_errors()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.screenshot(ARTIFACTS / "scale-section.png")
    switch = tmp_path / "pelican.html"
    write_report(SAMPLES / "pelican-pn5164-ethernet-switch.pdf", switch)
    browser.open(switch)
    assert page("document.getElementById('scale')") is None

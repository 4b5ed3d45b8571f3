"""Open an HTML page in headless Chromium and say what a reader would see go wrong.

Chromium is driven through its DevTools protocol over a pipe (``--remote-debugging-pipe``:
JSON messages separated by NUL bytes on file descriptors 3 and 4), so nothing beyond the
standard library and Debian's ``chromium`` package is needed. :func:`inspect_page` loads a
page at a desktop viewport, waits for it to load, and returns a :class:`PageReport`: every
image and whether it loaded, the page's scroll width against the viewport, the elements
wider than the viewport, the text elements (headings, table cells, the table of contents,
captions) whose boxes overlap, every console error, uncaught exception and failed load, and a
full-page screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
VIEWPORT = (1280, 900)
# A report is read from a checkout, perhaps offline: every host but localhost fails to resolve, so a
# page that loads scripts, fonts or images from the network shows it as a failed load (a console error).
BLOCK_NETWORK = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost"
MAX_SHOT_HEIGHT = 16_000  # Chromium cannot capture a texture taller than about 16k pixels

# The elements whose text must not overlap another's (the check draws their boxes, not the glyphs).
TEXT_SELECTOR = ("h1, h2, h3, h4, th, td, figcaption, #simlab-toc a, #simlab-summary li, .simlab-takeaway, "
                 ".study h2, .study p")
# After the load event: two animation frames, then one turn of the task queue (a zero-delay timer), so that
# work a page schedules at load (a frame callback, a zero-delay timer) has run before the page is probed.
SETTLED = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))))"
# Run in the page after it has loaded: images, widths, the elements wider than the viewport, and overlapping text.
PROBE = r"""
(() => {
  const TEXT_SELECTOR = '__TEXT_SELECTOR__';
  const vw = window.innerWidth;
  const images = Array.from(document.images).map(img => ({
    src: (img.currentSrc || img.src || '').slice(0, 80), complete: img.complete,
    naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, alt: img.getAttribute('alt')}));
  const describe = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '');
  const wide = [], seen = [];
  for (const el of document.querySelectorAll('body *')) {  // document order: outermost first
    const r = el.getBoundingClientRect();
    if (r.width > vw + 0.5 || r.right > vw + 0.5) {
      if (!seen.some(outer => outer.contains(el))) {
        const cell = el.closest('.jp-Cell, .cell');
        wide.push({element: describe(el).slice(0, 120), width: Math.round(r.width), right: Math.round(r.right),
                   text: (el.innerText || '').trim().slice(0, 80).replace(/\s+/g, ' '),
                   cell: cell ? Array.from(document.querySelectorAll('.jp-Cell, .cell')).indexOf(cell) : -1});
      }
      seen.push(el);
    }
  }
  // text that overlaps other text: headings, table cells, the table of contents, captions, list items
  const texts = [];
  for (const el of document.querySelectorAll(TEXT_SELECTOR)) {
    const r = el.getBoundingClientRect();
    const style = window.getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || style.visibility === 'hidden' || !(el.innerText || '').trim()) continue;
    texts.push({el, r: {left: r.left + window.scrollX, right: r.right + window.scrollX,
                        top: r.top + window.scrollY, bottom: r.bottom + window.scrollY}});
  }
  texts.sort((a, b) => a.r.top - b.r.top);
  const overlaps = [];
  for (let i = 0; i < texts.length && overlaps.length < 20; i++) {
    const a = texts[i];
    for (let j = i + 1; j < texts.length && texts[j].r.top < a.r.bottom - 2; j++) {
      const b = texts[j];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 2 && h > 2) {
        overlaps.push({a: describe(a.el).slice(0, 60), b: describe(b.el).slice(0, 60),
                       aText: (a.el.innerText || '').trim().slice(0, 40).replace(/\s+/g, ' '),
                       bText: (b.el.innerText || '').trim().slice(0, 40).replace(/\s+/g, ' ')});
      }
    }
  }
  return {images, wide, overlaps, scrollWidth: document.documentElement.scrollWidth,
          bodyScrollWidth: document.body ? document.body.scrollWidth : 0, innerWidth: vw,
          innerHeight: window.innerHeight, title: document.title,
          textLength: (document.body ? document.body.innerText : '').length};
})()
""".replace("__TEXT_SELECTOR__", TEXT_SELECTOR)


class BrowserError(RuntimeError):
    """Chromium could not be started or did not answer."""


def find_chromium() -> str | None:
    """The path of a Chromium (or Chrome) binary on PATH, or None."""
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class PageReport:
    """What loading one page showed."""

    url: str
    images: list[dict[str, Any]] = field(default_factory=list)
    wide: list[dict[str, Any]] = field(default_factory=list)
    overlaps: list[dict[str, Any]] = field(default_factory=list)
    scroll_width: int = 0
    inner_width: int = 0
    console_errors: list[str] = field(default_factory=list)
    screenshot: Path | None = None
    text_length: int = 0
    results: list[Any] = field(default_factory=list)  # what each ("eval", expression) action returned

    @property
    def broken_images(self) -> list[dict[str, Any]]:
        return [img for img in self.images if not img["complete"] or img["naturalWidth"] <= 0]

    def problems(self) -> list[str]:
        """One line per thing a reader would see go wrong (empty: the page is fine)."""
        out = [f"image did not load: {img['src']}" for img in self.broken_images]
        if self.scroll_width > self.inner_width:
            out.append(f"page scrolls sideways: scrollWidth {self.scroll_width} > viewport {self.inner_width}")
        out += [f"element wider than the viewport ({self.inner_width}px): {w['element']} in cell {w['cell']} "
                f"(width {w['width']}, right edge {w['right']}): {w['text']!r}" for w in self.wide]
        out += [f"text overlaps: {o['a']} {o['aText']!r} and {o['b']} {o['bText']!r}" for o in self.overlaps]
        out += [f"console: {line}" for line in self.console_errors]
        return out


class _Pipe:
    """A DevTools protocol session over Chromium's ``--remote-debugging-pipe``."""

    def __init__(self, binary: str, profile: Path, timeout: float) -> None:
        # Chromium reads commands from fd 3 and writes replies and events to fd 4.
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        self.timeout = timeout

        def wire() -> None:  # in the child, before exec: put the pipe ends at 3 and 4
            import fcntl

            a, b = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)  # inheritable, unlike the pipe ends themselves
            os.dup2(b, 4)
            os.close(a)
            os.close(b)

        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                "--hide-scrollbars", f"--user-data-dir={profile}", BLOCK_NETWORK, "--remote-debugging-pipe",
                f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "about:blank"]
        self._log = open(profile / "chromium.log", "wb")  # noqa: SIM115 - closed in close()
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                                         preexec_fn=wire, close_fds=False)
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send one command and wait for its reply (events that arrive meanwhile are kept)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._to_child, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise BrowserError(f"Chromium closed its DevTools pipe (exit {self.proc.poll()}): "
                               f"{self._log_tail()}") from None
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float) -> dict[str, Any] | None:
        """The first event named ``method`` (already received or arriving within ``timeout`` s)."""
        for event in self.events:
            if event.get("method") == method:
                return event
        deadline = time.monotonic() + timeout
        while True:
            try:
                event = self._read(deadline)
            except TimeoutError:
                return None
            self.events.append(event)
            if event.get("method") == method:
                return event

    def drain(self, seconds: float) -> None:
        """Collect the events that arrive in the next ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                self.events.append(self._read(deadline))
            except TimeoutError:
                return

    def _read(self, deadline: float) -> dict[str, Any]:
        import select

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from Chromium in time")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium closed its DevTools pipe (exit {self.proc.poll()}): "
                                   f"{self._log_tail()}")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def _log_tail(self) -> str:
        self._log.flush()
        return Path(self._log.name).read_text(errors="replace")[-2000:]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._to_child, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()
        os.close(self._to_child)
        os.close(self._from_child)


def _console_errors(events: list[dict[str, Any]]) -> list[str]:
    """Console errors, uncaught exceptions and failed loads among the DevTools events."""
    out = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            out.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            out.append(f"uncaught exception: {text}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            out.append(f"{entry.get('source', 'log')}: {entry.get('text', '')} {entry.get('url', '')}".strip())
    return out


KEY_CODES = {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35, "v": 86}


def _act(pipe: _Pipe, session: str, action: tuple[str, str], report: PageReport) -> None:
    """One user action: ("key", name) presses a key as a keyboard does; ("eval", expression) evaluates JavaScript
    (awaiting a promise) and keeps its value in ``report.results``."""
    kind, what = action
    if kind == "key":
        for event in ("keyDown", "keyUp"):
            pipe.send("Input.dispatchKeyEvent", {"type": event, "key": what, "code": what if len(what) > 1 else
                      f"Key{what.upper()}", "windowsVirtualKeyCode": KEY_CODES[what]}, session=session)
    elif kind == "eval":
        reply = pipe.send("Runtime.evaluate", {"expression": what, "returnByValue": True, "awaitPromise": True},
                          session=session)
        if "exceptionDetails" in reply:
            raise BrowserError(f"{what[:80]}: {reply['exceptionDetails']}")
        report.results.append(reply["result"].get("value"))
    else:
        raise ValueError(f"unknown action {kind!r}")


def inspect_page(page: Path, screenshot: Path | None = None, binary: str | None = None,
                 timeout: float = 60.0, settle: float = 0.1,
                 actions: list[tuple[str, str]] | None = None) -> PageReport:
    """Load ``page`` in headless Chromium at a 1280x900 viewport and report what went wrong.

    Waits for the load event, then for the page to settle (:data:`SETTLED`: two frames drawn and the
    task queue run once, so that what a script starts at load or in its first frames has run and logged
    its errors), then ``settle`` seconds more for the last events to arrive. A page that defers work
    longer (a timer of its own) is not waited for: simlab's pages have none. ``screenshot`` (a .png
    path) gets a full-page capture, taken after ``actions`` (key presses and JavaScript evaluations,
    see :func:`_act`) have run.
    """
    binary = binary or find_chromium()
    if binary is None:
        raise BrowserError("no Chromium on PATH (Debian: apt-get install chromium)")
    url = Path(page).resolve().as_uri()
    with tempfile.TemporaryDirectory(prefix="simlab-chromium-") as profile:
        pipe = _Pipe(binary, Path(profile), timeout)
        try:
            target = pipe.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                pipe.send(f"{domain}.enable", session=session)
            pipe.send("Emulation.setDeviceMetricsOverride", {"width": VIEWPORT[0], "height": VIEWPORT[1],
                      "deviceScaleFactor": 1, "mobile": False}, session=session)
            pipe.events.clear()
            pipe.send("Page.navigate", {"url": url}, session=session)
            if pipe.wait_for("Page.loadEventFired", timeout) is None:
                raise BrowserError(f"{url} did not finish loading in {timeout:.0f} s")
            settled = pipe.send("Runtime.evaluate", {"expression": SETTLED, "awaitPromise": True}, session=session)
            if "exceptionDetails" in settled:
                raise BrowserError(f"waiting for the page to settle failed: {settled['exceptionDetails']}")
            pipe.drain(settle)
            probe = pipe.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=session)
            if "exceptionDetails" in probe:
                raise BrowserError(f"probe failed: {probe['exceptionDetails']}")
            found = probe["result"]["value"]
            report = PageReport(url=url, images=found["images"], wide=found["wide"], overlaps=found["overlaps"],
                                scroll_width=found["scrollWidth"], inner_width=found["innerWidth"],
                                text_length=found["textLength"])
            for action in actions or []:
                _act(pipe, session, action, report)
            if screenshot is not None:
                metrics = pipe.send("Page.getLayoutMetrics", session=session)
                size = metrics.get("cssContentSize") or metrics["contentSize"]
                height = min(int(size["height"]), MAX_SHOT_HEIGHT)
                shot = pipe.send("Page.captureScreenshot", {
                    "format": "png", "captureBeyondViewport": True,
                    "clip": {"x": 0, "y": 0, "width": VIEWPORT[0], "height": height, "scale": 1}}, session=session)
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                screenshot.write_bytes(base64.b64decode(shot["data"]))
                report.screenshot = screenshot
            pipe.drain(0.2)
            report.console_errors = _console_errors(pipe.events)
            return report
        finally:
            pipe.close()

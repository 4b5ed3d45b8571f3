"""Small helpers for drawing a position as SVG (the game contract's ``Game.render_svg``).

A game's board renderer builds its picture from these: :func:`svg_document` wraps the elements in one ``<svg>``
with a ``viewBox`` (it scales with the page), :func:`esc` makes text safe inside SVG, and :func:`text_board` is the
fallback for a game without a board of its own: its text rendering, one ``<text>`` line per line.
"""

from __future__ import annotations

from html import escape

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
MONO = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace"


def esc(text: object) -> str:
    """``text`` made safe inside SVG text and attribute values."""
    return escape(str(text), quote=True)


def svg_document(width: float, height: float, body: str, title: str = "") -> str:
    """A complete ``<svg>`` element of ``width`` x ``height`` user units holding ``body`` (scales to its box)."""
    label = f'<title>{esc(title)}</title>' if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
            f'width="100%" role="img" aria-label="{esc(title)}" font-family="{FONT}">{label}{body}</svg>')


def text_board(text: str, title: str = "") -> str:
    """``text`` (a game's text rendering) as an SVG of monospaced lines: the board of a game without its own."""
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines) * 7.8 + 24
    height = len(lines) * 17 + 24
    body = "".join(f'<text x="12" y="{26 + 17 * i}" font-family="{MONO}" font-size="13" xml:space="preserve" '
                   f'class="line">{esc(line)}</text>' for i, line in enumerate(lines))
    return svg_document(width, height, f'<rect width="100%" height="100%" fill="#fbfaf7"/>{body}', title)

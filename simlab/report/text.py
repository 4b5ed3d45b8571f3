"""Text a notebook writes into a page: user-supplied names made inert before they reach Markdown or HTML.

A report shows names users chose (player labels, player files, variants, a spec's description,
data file names). A notebook that writes them with ``display(Markdown(...))`` or ``HTML(...)``
must pass each through :func:`escape_md` (Markdown) or :func:`escape_html` (HTML): markup they
carry (``<script>``, ``<img onerror=...>``, ``[link](javascript:...)``, emphasis) is shown as
text, never run or rendered. The page is also sanitised when rendered (a second wall, see
:mod:`simlab.report.build`), but a notebook must not rely on it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

# every character Markdown (CommonMark + GFM tables) gives a meaning to, and '<' '>' '&' for HTML
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


def escape_html(text: object) -> str:
    """``text`` as HTML text: ``<``, ``>``, ``&`` and quotes escaped."""
    return html.escape(str(text), quote=True)


def escape_md(text: object) -> str:
    """``text`` as literal Markdown text: HTML escaped, every Markdown punctuation backslash-escaped.

    ``escape_md("<script>alert(3)</script>")`` renders as the characters typed, and
    ``escape_md("[x](javascript:alert(1))")`` as text, not a link.
    """
    # quotes stay as typed: escaped to "&#x27;", their '#' would be backslash-escaped and the page would show
    # "&#x27;" instead of an apostrophe; outside a tag (every '<' is escaped) a quote is plain text
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def markdown_list(items: Iterable[str]) -> str:
    """A Markdown bullet list of sentences the notebook composed (escape the names inside them first)."""
    return "\n".join(f"- {item}" for item in items)

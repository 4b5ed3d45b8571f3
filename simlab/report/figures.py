"""Figures for reports: a colour-blind-safe palette, sizes that follow the data, and each figure
shown as an image with alt text under a caption.

The palette is Okabe–Ito. A data label that names a colour (a game's player colours)
is drawn in that colour's Okabe–Ito shade (:func:`named_colour`); other labels (players,
variants) get the remaining shades, skipping any hue a label of the same figure is called, so a
line called 'base' is never blue beside a colour called blue (:func:`palette`).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Iterable, Sequence
from typing import Any

# Okabe & Ito (2008), "Color Universal Design": shade -> (hex, the hue a reader would call it)
OKABE_ITO: dict[str, tuple[str, str]] = {
    "orange": ("#E69F00", "orange"),
    "sky blue": ("#56B4E9", "blue"),
    "bluish green": ("#009E73", "green"),
    "blue": ("#0072B2", "blue"),
    "vermillion": ("#D55E00", "red"),
    "reddish purple": ("#CC79A7", "purple"),
    "yellow": ("#F0E442", "yellow"),
    "black": ("#000000", "black"),
}
# a data label that is a colour's name -> the shade drawn for it (white as a light grey, with an edge)
NAMED: dict[str, str] = {
    "blue": "#0072B2", "yellow": "#E6C700", "green": "#009E73", "red": "#D55E00", "white": "#BBBBBB",
    "orange": "#E69F00", "purple": "#CC79A7", "black": "#000000", "pink": "#CC79A7", "grey": "#999999",
    "gray": "#999999",
}
HUES = {"blue", "yellow", "green", "red", "white", "orange", "purple", "black", "pink", "grey", "gray"}
MARKERS = ["o", "s", "D", "^", "v", "P", "X", "*"]


def named_colour(name: str, default: str = "#000000") -> str:
    """The Okabe–Ito shade for a data label naming a colour ('blue' -> '#0072B2'), else ``default``."""
    return NAMED.get(str(name).lower().split(" ")[0], default)


def palette(labels: Sequence[str], avoid: Iterable[str] = ()) -> dict[str, str]:
    """A colour per label: the label's own colour when it names one, else an Okabe–Ito shade whose
    hue no label (and nothing in ``avoid``) is called. Shades repeat only past eight labels."""
    names = {str(x).lower().split(" ")[0] for x in [*labels, *avoid]} & HUES
    free = [hexa for hexa, hue in OKABE_ITO.values() if hue not in names] or [h for h, _ in OKABE_ITO.values()]
    out, i = {}, 0
    for lab in labels:
        own = str(lab).lower().split(" ")[0]
        if own in NAMED:
            out[lab] = NAMED[own]
        else:
            out[lab] = free[i % len(free)]
            i += 1
    return out


def panels(n: int, per_panel: float = 3.4, height: float = 3.4, most_width: float = 14.0,
           least_width: float = 5.0) -> tuple[float, float]:
    """A figure size for ``n`` side-by-side panels: ``per_panel`` inches each, within [least, most] width."""
    return (min(most_width, max(least_width, per_panel * n + 0.8)), height)


def rows_height(rows: int, per_row: float = 0.32, extra: float = 1.4, least: float = 2.2) -> float:
    """A figure height for a plot of ``rows`` labelled rows."""
    return max(least, per_row * rows + extra)


def integer_ticks(ax: Any, axis: str = "x") -> None:
    """Whole-number ticks on ``axis`` (seats, rounds)."""
    from matplotlib.ticker import MaxNLocator

    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def legend_outside(ax: Any, title: str | None = None, **kwargs: Any) -> Any:
    """A legend to the right of ``ax``, outside the data."""
    return ax.legend(title=title, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False,
                     **kwargs)


def interval_heatmap(ax: Any, values: Any, lo: Any, hi: Any, xlabels: Sequence[str], ylabels: Sequence[str],
                     digits: int = 2, center: float = 0.0, vmin: float | None = None, vmax: float | None = None,
                     cmap: str = "RdBu_r", cbar_label: str = "", scale: float = 1.0) -> Any:
    """A heat map whose cells read "x\\n[lo, hi]" (estimate over its 95% interval); NaN cells stay empty.

    ``values``, ``lo`` and ``hi`` are 2-d arrays (rows = ``ylabels``); ``scale`` multiplies every
    number shown (100 for percentage points). Returns the image (for a colour bar).
    """
    import numpy as np

    v = np.asarray(values, dtype=float) * scale
    a = np.asarray(lo, dtype=float) * scale
    b = np.asarray(hi, dtype=float) * scale
    if vmin is None or vmax is None:
        span = np.nanmax(np.abs(v - center)) if np.isfinite(v).any() else 1.0
        span = span or 1.0
        vmin, vmax = center - span, center + span
    image = ax.imshow(np.ma.masked_invalid(v), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(len(xlabels)), xlabels)
    ax.set_yticks(range(len(ylabels)), ylabels)
    ax.grid(False)
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            if not np.isfinite(v[i, j]):
                continue
            strong = abs(v[i, j] - center) > 0.6 * (vmax - center)
            ax.text(j, i, f"{v[i, j]:.{digits}f}\n[{a[i, j]:.{digits}f}, {b[i, j]:.{digits}f}]", ha="center",
                    va="center", fontsize=8, color="white" if strong else "black")
    if cbar_label:
        ax.figure.colorbar(image, ax=ax, label=cbar_label, fraction=0.046, pad=0.04)
    return image


def figure_html(fig: Any, caption: str, alt: str, dpi: int = 110) -> str:
    """The figure as ``<figure><img alt=…><figcaption>…</figcaption></figure>``: PNG inline, never wider
    than the page."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    from PIL import Image

    width, _ = Image.open(io.BytesIO(buf.getvalue())).size
    return (f'<figure style="margin: 1em 0">'
            f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt, quote=True)}" '
            f'style="width: {width * 96 // dpi}px; max-width: 100%; height: auto">'
            f'<figcaption style="font-size: 0.9em; color: #444; max-width: 60em">{html.escape(caption)}</figcaption>'
            f"</figure>")


def show(fig: Any, caption: str, alt: str) -> None:
    """Display ``fig`` in the notebook as an image with ``alt`` text under its ``caption``, then close it."""
    import matplotlib.pyplot as plt
    from IPython.display import HTML, display

    try:
        display(HTML(figure_html(fig, caption, alt)))
    finally:
        plt.close(fig)


def style() -> None:
    """The report style: seaborn's white grid with the colour-blind-safe palette."""
    import seaborn as sns

    sns.set_theme(style="whitegrid", palette=[h for h, _ in OKABE_ITO.values()])

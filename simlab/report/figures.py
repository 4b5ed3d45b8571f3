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

from simlab.core.errors import SimlabError

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
    check_figure(fig, caption)
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


# ------------------------------------------------------------------ the save-time check

# the attribute an axes carries to say which of its axes need no label (see :func:`unlabelled_ok`)
UNLABELLED_OK = "simlab_unlabelled_ok"
_TOLERANCE = 1.0  # pixels two text boxes may share before they count as overlapping


class FigureCheckError(SimlabError):
    """A report figure with overlapping text or an axis that carries ticks but no label."""


def unlabelled_ok(ax: Any, axis: str, reason: str) -> None:
    """Declare that ``ax``'s ``axis`` ("x", "y" or "xy") needs no label: its tick labels say what it is
    (e.g. a heat map's rows of player names). ``reason`` is required, to be read beside the code."""
    if axis not in ("x", "y", "xy") or not reason.strip():
        raise ValueError(f"unlabelled_ok: axis must be 'x', 'y' or 'xy' and a reason given, not {axis!r}, {reason!r}")
    exempt = dict(getattr(ax, UNLABELLED_OK, {}))
    for a in axis:
        exempt[a] = reason
    setattr(ax, UNLABELLED_OK, exempt)


def _drawn_ticks(axis: Any) -> list[Any]:
    """The ticks matplotlib drew on ``axis`` (those inside the view limits)."""
    try:
        return list(axis._update_ticks())  # the ticks draw() uses
    except AttributeError:  # pragma: no cover - a matplotlib without the private helper
        lo, hi = sorted(axis.get_view_interval())
        return [t for t in axis.get_major_ticks() if lo <= t.get_loc() <= hi]


def _tick_labels(axis: Any) -> list[Any]:
    out = []
    for tick in _drawn_ticks(axis):
        for label in (tick.label1, tick.label2):
            if label.get_visible() and label.get_text().strip():
                out.append(label)
    return out


def _axes_name(fig: Any, ax: Any) -> str:
    if getattr(ax, "_colorbar", None) is not None:
        return f"axes {fig.axes.index(ax)} (colour bar)"
    title = ax.get_title() or ax.get_title(loc="left")
    return f"axes {fig.axes.index(ax)}" + (f" ({title!r})" if title else "")


def _texts(fig: Any) -> list[tuple[Any, str]]:
    """Every visible non-empty text of ``fig`` with a name for the error message."""
    out: list[tuple[Any, str]] = []
    seen: set[int] = set()

    def add(t: Any, what: str) -> None:
        if id(t) in seen or t is None or not t.get_visible() or not str(t.get_text()).strip():
            return
        seen.add(id(t))
        out.append((t, what))

    for t in (getattr(fig, "_suptitle", None), getattr(fig, "_supxlabel", None), getattr(fig, "_supylabel", None)):
        add(t, "figure title")
    for t in fig.texts:
        add(t, "figure text")
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        name = _axes_name(fig, ax)
        if ax.axison:
            for axis_name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
                for t in _tick_labels(axis):
                    add(t, f"{name} {axis_name} tick label")
                add(axis.label, f"{name} {axis_name} label")
                add(axis.get_offset_text(), f"{name} {axis_name} offset text")
        for t in (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None)):
            add(t, f"{name} title")
        for t in ax.texts:
            add(t, f"{name} text")
        for table in ax.tables:
            for cell in table.get_celld().values():
                add(cell.get_text(), f"{name} table cell")
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            add(legend.get_title(), f"{name} legend title")
            for t in legend.get_texts():
                add(t, f"{name} legend")
    for legend in fig.legends:
        add(legend.get_title(), "figure legend title")
        for t in legend.get_texts():
            add(t, "figure legend")
    return out


def figure_problems(fig: Any) -> list[str]:
    """What :func:`check_figure` objects to in ``fig`` (empty: it passes): overlapping texts, and axes
    with drawn tick labels but no label (unless declared with :func:`unlabelled_ok`)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    problems = []
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison:
            continue
        exempt = getattr(ax, UNLABELLED_OK, {})
        for axis_name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if axis_name in exempt or not _tick_labels(axis) or axis.label.get_text().strip():
                continue
            what = "colour bar" if getattr(ax, "_colorbar", None) is not None else f"{axis_name} axis"
            problems.append(f"{_axes_name(fig, ax)}: the {what} has tick labels but no label (set one, or declare "
                            "it self-explanatory with simlab.report.figures.unlabelled_ok)")
    texts = [(t, what, t.get_window_extent(renderer)) for t, what in _texts(fig)]
    for i, (a, what_a, box_a) in enumerate(texts):
        for b, what_b, box_b in texts[i + 1:]:
            width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if width > _TOLERANCE and height > _TOLERANCE:
                problems.append(f"{what_a} {a.get_text()!r} overlaps {what_b} {b.get_text()!r}")
    return problems


def check_figure(fig: Any, name: str = "") -> None:
    """Draw ``fig`` and raise :class:`FigureCheckError` if any two of its texts overlap (tick labels,
    axis labels, titles, annotations, table cells, legends) or an axis with tick labels has no label.

    Every figure a report shows passes through here: :func:`figure_html` calls it, and
    :func:`install` (run by ``simlab report`` before a notebook's first cell) checks every figure
    the notebook renders any other way. ``name`` (e.g. the caption) goes into the message.
    """
    problems = figure_problems(fig)
    fig._simlab_checked = not problems  # print_figure need not check it again while it is unchanged
    if problems:
        label = name or (fig.get_suptitle() if hasattr(fig, "get_suptitle") else "") or "a figure"
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise FigureCheckError(f"figure {label!r}: " + "; ".join(problems[:5]) + more)


_INSTALLED = False


def install() -> None:
    """Check every figure rendered in this process: wrap matplotlib's ``print_figure`` (what
    ``savefig``, the inline backend and ``display(fig)`` all call) with :func:`check_figure`.

    In a notebook kernel a failing figure shows as an error output named ``FigureCheckError``
    (IPython's display machinery catches it); ``simlab report`` fails on any such output.
    """
    global _INSTALLED
    if _INSTALLED:
        return
    from matplotlib.backend_bases import FigureCanvasBase

    original = FigureCanvasBase.print_figure

    def print_figure(self: Any, *args: Any, **kwargs: Any) -> Any:
        fig = self.figure
        if not (getattr(fig, "_simlab_checked", False) and not fig.stale):
            check_figure(fig)
        return original(self, *args, **kwargs)

    print_figure.__wrapped__ = original  # type: ignore[attr-defined]
    FigureCanvasBase.print_figure = print_figure  # type: ignore[method-assign]
    _INSTALLED = True


def uninstall() -> None:
    """Undo :func:`install` (for tests that share a process with unchecked figures)."""
    global _INSTALLED
    from matplotlib.backend_bases import FigureCanvasBase

    wrapped = getattr(FigureCanvasBase.print_figure, "__wrapped__", None)
    if wrapped is not None:
        FigureCanvasBase.print_figure = wrapped  # type: ignore[method-assign]
    _INSTALLED = False

"""Steel Arena as text: names, action descriptions and menus, the arena map, trace events and the readable log.

One module per job (the names below stay importable from ``simlab.games.steel_arena.render``):

* :mod:`.names`: identities (docs/trace.md, "Steel Arena events"): a physical tile by its instance name
  ``DESIGN#k`` (``G1-A-PUSHKA-M1#3``), a design in words as the reports name it (``tile_id (English name)``), a
  robot by ``P1``..``P4`` (seat + 1; trace fields ``seat`` keep the 0-based seat), a cell by ``[q, r]`` (axial,
  NOTES I.17), a facing by 0..5 (drawn as the arrows of ``ARROWS``);
* :mod:`.actions`: action codes, one-line descriptions and the menu a person picks from;
* :mod:`.board`: the arena map from a seat's view and the legend of its notation;
* :mod:`.trace`: kernel event-log rows as trace events. Every event carries ``event``, ``type`` (NOTES.md
  "What a trace must carry"), ``seq`` (0 for ``game_start``, then 1, 2, ...), ``turn`` (0 = setup) and
  ``active`` (the seat whose turn it is, null before the first player is known);
* :mod:`.game_events`: the trace's ``game_start`` header and ``final`` event;
* :mod:`.log`: the readable log.
"""

from __future__ import annotations

from simlab.games.steel_arena.render.actions import (
    action_menu,
    decode_action,
    decode_params,
    describe_action,
)
from simlab.games.steel_arena.render.board import (
    LEGEND,
    LEGEND_SHORT,
    PHASE_TEXT,
    expert_of,
    legend,
    render_state,
)
from simlab.games.steel_arena.render.game_events import (
    final_event,
    start_event,
)
from simlab.games.steel_arena.render.log import (
    log_lines,
)
from simlab.games.steel_arena.render.names import (
    ARROWS,
    COLOUR_LETTER,
    HIDDEN,
    SECTORS,
    TYPE_LETTER,
    _cell_text,
    _instance_names,
    central_side,
    central_summary,
    module_label,
    robot_name,
    tile_name,
    tile_name_printed,
    tile_summary,
)
from simlab.games.steel_arena.render.trace import (
    log_to_events,
)

__all__ = [
    "ARROWS",
    "COLOUR_LETTER",
    "HIDDEN",
    "LEGEND",
    "LEGEND_SHORT",
    "PHASE_TEXT",
    "SECTORS",
    "TYPE_LETTER",
    "_cell_text",
    "_instance_names",
    "action_menu",
    "central_side",
    "central_summary",
    "decode_action",
    "decode_params",
    "describe_action",
    "expert_of",
    "final_event",
    "legend",
    "log_lines",
    "log_to_events",
    "module_label",
    "render_state",
    "robot_name",
    "start_event",
    "tile_name",
    "tile_name_printed",
    "tile_summary",
]

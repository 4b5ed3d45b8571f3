"""Pendulum as text: names, words, actions and menus, the board, the trace events and the readable log.

One module per job (the names below stay importable from ``simlab.games.pendulum.render``):

* :mod:`.names`: how agents, spaces and cards are named (docs/trace.md, "Pendulum events"): agents
  ``"P1"``..``"P5"`` for seats 0..4 (``"human"`` for the seat of a solo game), ``"neutral"``,
  ``"automa1"``, ``"automa2"``, ``"system"``; spaces by their ``action_spaces.csv`` id; council cards
  by printed id; effects by their token text (NOTES V.1); a seat's worker ``w`` as ``W1``..``W4``;
* :mod:`.words`: effects, spaces, stratagems, cards and workers in words;
* :mod:`.actions`: action codes, one-line descriptions and the menu a person picks from;
* :mod:`.board`: the position as text and the legend of its notation;
* :mod:`.trace`: kernel event-log rows as trace events (each rules module's ``EVENT_FIELDS``);
* :mod:`.game_events`: the trace's ``game_start`` header and ``final`` event;
* :mod:`.log`: the readable log, every event in words (players by their labels).
"""

from __future__ import annotations

from simlab.games.pendulum.render.actions import (
    action_codes,
    action_menu,
    action_name,
    decode_action,
    describe_action,
)
from simlab.games.pendulum.render.board import (
    LEGEND,
    PHASE_TEXT,
    legend,
    render_state,
)
from simlab.games.pendulum.render.game_events import (
    final_event,
    start_event,
)
from simlab.games.pendulum.render.log import (
    event_line,
    log_lines,
)
from simlab.games.pendulum.render.names import (
    PART_NAMES,
    acard_id,
    achievement_id,
    actor_name,
    agent_name,
    character_name,
    council_id,
    province_id,
    seat_tag,
    space_id,
    strat_name,
    symbol_name,
)
from simlab.games.pendulum.render.trace import (
    FIELD_KINDS,
    RULES_MODULES,
    TRACE_PHASES,
    choose_layout,
    deck_values,
    decode_field,
    decode_row,
    event_fields,
    event_layouts,
    log_to_events,
)
from simlab.games.pendulum.render.words import (
    acard_words,
    achievement_words,
    alt_words,
    council_words,
    effect_text,
    effect_words,
    province_words,
    space_short,
    space_words,
    strat_words,
    worker_words,
)

__all__ = [
    "FIELD_KINDS",
    "LEGEND",
    "PART_NAMES",
    "PHASE_TEXT",
    "RULES_MODULES",
    "TRACE_PHASES",
    "acard_id",
    "acard_words",
    "achievement_id",
    "achievement_words",
    "action_codes",
    "action_menu",
    "action_name",
    "actor_name",
    "agent_name",
    "alt_words",
    "character_name",
    "choose_layout",
    "council_id",
    "council_words",
    "deck_values",
    "decode_action",
    "decode_field",
    "decode_row",
    "describe_action",
    "effect_text",
    "effect_words",
    "event_fields",
    "event_layouts",
    "event_line",
    "final_event",
    "legend",
    "log_lines",
    "log_to_events",
    "province_id",
    "province_words",
    "render_state",
    "seat_tag",
    "space_id",
    "space_short",
    "space_words",
    "start_event",
    "strat_name",
    "strat_words",
    "symbol_name",
    "worker_words",
]

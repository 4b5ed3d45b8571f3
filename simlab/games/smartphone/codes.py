"""Smartphone Inc.'s kernel codes: symbols, layers, slot columns, technologies and effects,
bonuses, region and buyer columns, office sources, extra phase-6 stages, and the action codes (``A_*``, see
:mod:`simlab.games.smartphone.rules` for their meaning).
"""

from __future__ import annotations

from simlab.games.smartphone.state import (
    MAX_HAND,
    ST_END,
)

# Symbols (data.SYMBOLS order).
GOODS, PRICE_DOWN, PRICE_UP, UPGRADE, RESEARCH, LOGISTICS, BLANK = range(7)
# Layers (arrangements.py).
EMPTY, LOWER, UPPER, BOTH = 0, 1, 2, 3
# Slot columns and levels (upgrades.py).
SL_A, SL_B, SL_LEVEL, SL_OVERHANG, SL_FLEX = range(5)
TOP, UNDER = 0, 1
# Technologies (data.TECHNOLOGIES order) and effect codes (data.EFFECTS order).
GPS, WIFI, GAMEPAD, LIION, NFC, G4 = range(6)
(E_GPS_DOUBLE, E_GPS_GAIN5, E_WIFI_SECOND, E_WIFI_KEEP, E_GAMEPAD_DISCOUNT, E_GAMEPAD_SMALL, E_LIION_PRICE_UP,
 E_LIION_GOODS, E_NFC_DIRECT, E_NFC_PLUS1, E_4G_OVERHANG, E_4G_OUTSIDE) = range(12)
# Retailer bonuses (data.BONUSES order).
BONUS_NONE, BONUS_GOODS, BONUS_RESEARCH, BONUS_PRICE, BONUS_SECOND, BONUS_MOVE = range(6)
# Region array columns (data.region_array).
RG_SIZE, RG_SIZE_NUMBER, RG_START_COLOUR, RG_FIRST_PLACE, RG_PLACES, RG_FIRST_BUYER, RG_BUYERS = range(7)
# Buyer array columns.
BY_REGION, BY_POS, BY_KIND, BY_CAP, BY_TECH = range(5)
RED, PURPLE = 0, 1
# Placement rules (data.PLACEMENT_RULES order).
PL_REGION, PL_ALL_MEDIUM, PL_ONE_MEDIUM, PL_NONE = range(4)
SIZE_MEDIUM = 1
# Office sources (events).
OFF_LOGISTICS, OFF_WIFI, OFF_GAMEPAD, OFF_SECOND, OFF_MOVE = range(5)
# Phase-6 stages beyond state.ST_*: the GAMEPAD office while the WI-FI office is still owed (WI-FI face had
# no target yet), and the WI-FI office placed after it (the GAMEPAD office may open its only target, O17).
ST_GAMEPAD_WIFI_OWED = ST_END + 1
ST_WIFI_LATE = ST_END + 2

MAX_SLOTS = 32
A_DONE = 0
A_ARR = 1
A_PLACE = 1024
A_PICK = A_PLACE + MAX_HAND * MAX_SLOTS * 2
A_RESEARCH = A_PICK + 16
A_LOGISTICS = A_RESEARCH + 16
A_WIFI = A_LOGISTICS + 16
A_GAMEPAD = A_WIFI + 16
A_NFC = A_GAMEPAD + 16
A_SELL = A_NFC + 16
A_RB_RESEARCH = A_SELL + 128
A_RB_PRICE = A_RB_RESEARCH + 16
A_RB_SECOND = A_RB_PRICE + 16
A_MOVE_FROM = A_RB_SECOND + 16
A_MOVE_TO = A_MOVE_FROM + 16
A_END = A_MOVE_TO + 16
N_ACTIONS = 1200  # the most legal actions of one decision (upgrade placements) fit easily


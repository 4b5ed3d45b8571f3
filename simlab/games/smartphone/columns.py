"""Column layout of Smartphone Inc.'s result arrays (games, seats) and event log rows."""

from __future__ import annotations

from simlab.games.smartphone.state import N_ROUNDS

# ---- per game
GAME_COLUMNS = ["n_winners", "winner_mask", "steps", "retailers", "tech_back_mask", "upgrades_left"]
(G_N_WINNERS, G_WINNER_MASK, G_STEPS, G_RETAILERS, G_TECH_BACK, G_UPGRADES_LEFT) = range(len(GAME_COLUMNS))

# ---- per seat (game-major, one row per game and seat)
SEAT_COLUMNS = [
    "score",  # final total: VP track + patents + retailers
    "rank",  # 1 = best; tied players share a rank
    "winner",
    "colour",  # categorical: constants.toml colours
    "start_region",  # categorical: region ids
    "vp_track",  # VP earned during the game (sales, NFC direct sales, control)
    "sales_vp",  # phase-8 sales (goods on buyers x price)
    "nfc_vp",  # NFC face direct sales in phase 6
    "control_vp",
    "patent_vp",
    "retailer_vp",
    "goods_produced",
    "goods_sold",  # on buyers and by NFC
    "goods_lost",  # unsold at the end of phase 7 (not kept by WI-FI back)
    "offices",  # offices built on the map during the game (moves not counted)
    "controls",  # region-control awards won
    "technologies",
    "patents",
    "upgrades_taken",
    "tokens_taken",
    "price_sum",  # sum of the phase-2 price over the 5 rounds
    "first_in_priority",  # rounds in which the seat was first in phase-4 priority
    *[f"round{r + 1}_vp" for r in range(N_ROUNDS)],
]
(S_SCORE, S_RANK, S_WINNER, S_COLOUR, S_START_REGION, S_VP_TRACK, S_SALES_VP, S_NFC_VP, S_CONTROL_VP, S_PATENT_VP,
 S_RETAILER_VP, S_PRODUCED, S_SOLD, S_LOST, S_OFFICES, S_CONTROLS, S_TECHS, S_PATENTS, S_UPGRADES, S_TOKENS,
 S_PRICE_SUM, S_FIRST) = range(22)
S_ROUND_VP0 = 22
assert len(SEAT_COLUMNS) == S_ROUND_VP0 + N_ROUNDS

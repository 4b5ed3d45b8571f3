"""Load and validate Pendulum's data files (base game and Automa solo module).

The files live in ``data/`` (copied from the research folder; NOTES.md Part V describes them):

- ``action_spaces.csv``: both board sides, one row per action space (rewards, cost, frame, blocking);
- ``characters.csv``: the 10 personas (track offsets, start resources, production slots);
- ``stratagems.csv``: the 40 persona stratagems;
- ``council_rewards.csv``: 25 standard cards, 5 finals, the grande card and the default;
- ``achievements.csv``, ``provinces.csv``, ``timer_schedule.csv``;
- ``automa_cards.csv``, ``automa_levels.csv``, ``automa_scoring.csv``, ``automa_track.csv``,
  ``automa_reward_symbols.csv``: the Automa module (mostly reconstructed, NOTES Part IV);
- ``config.toml``: the fixed parameters; ``options.toml``: every open point of NOTES Part II.

Costs, rewards, requirements and yields are written in the token grammar of NOTES V.1 and parsed
into :class:`Effect` vectors (``tables.EF_*`` columns). Every problem is one line,
``file:row: column: what is wrong``. The ``source`` and ``notes`` columns are kept on every record
(reconstructed rows are data, never code).

This module is the entry point (``load_data``) and re-exports the public names of the modules that do the work,
one per thing loaded:

    data_grammar   the token grammar: ``parse_effect``, :class:`Effect`, ``effect_vector_text``
    data_records   the records (one dataclass per row kind) and :class:`PendulumData`, the loaded set
    data_fields    reading one checked field of a row (enums, flags, integers, effects, sources)
    data_board     config.toml, action_spaces.csv, timer_schedule.csv
    data_cards     characters.csv, stratagems.csv, council_rewards.csv, achievements.csv, provinces.csv
    data_automa    the Automa files
    data_checks    options.toml and the references between files
"""

from __future__ import annotations

from pathlib import Path

from simlab.core.datafiles import data_file_paths
from simlab.core.options import load_options
from simlab.games.pendulum.data_automa import *  # noqa: F403  (data.py re-exports the loaders' public names)
from simlab.games.pendulum.data_automa import (
    load_automa_cards,
    load_levels,
    load_scoring,
    load_symbols,
    load_track,
)
from simlab.games.pendulum.data_board import *  # noqa: F403
from simlab.games.pendulum.data_board import (
    load_config,
    load_schedule,
    load_spaces,
)
from simlab.games.pendulum.data_cards import *  # noqa: F403
from simlab.games.pendulum.data_cards import (
    COUNCIL_IDS,
    load_achievements,
    load_characters,
    load_council,
    load_provinces,
    load_stratagems,
)
from simlab.games.pendulum.data_checks import *  # noqa: F403
from simlab.games.pendulum.data_checks import (
    _check_cross,
    _check_options,
)
from simlab.games.pendulum.data_fields import *  # noqa: F403
from simlab.games.pendulum.data_grammar import *  # noqa: F403
from simlab.games.pendulum.data_grammar import Effect, parse_effect
from simlab.games.pendulum.data_records import *  # noqa: F403
from simlab.games.pendulum.data_records import (
    FILE_NAMES,
    FILES,
    PendulumData,
)

DATA_DIR = Path(__file__).parent / "data"



def load_data(data_dir: str | Path | None = None, **files: str | Path) -> PendulumData:
    """Load and validate a data set.

    ``data_dir`` holds the files (the bundled ``data/`` by default); any file can be replaced by
    passing its stem as a keyword, e.g. ``load_data(automa_cards="my_cards.csv")``.
    """
    paths = data_file_paths(DATA_DIR, FILE_NAMES, data_dir, files)
    config = load_config(paths["config"])
    options = load_options(paths["options"])
    _check_options(str(paths["options"]), options)
    spaces = load_spaces(paths["action_spaces"], config)
    chars = load_characters(paths["characters"], config)
    strats = load_stratagems(paths["stratagems"], config, chars)
    council = load_council(paths["council_rewards"], config)
    achievements = load_achievements(paths["achievements"])
    provinces = load_provinces(paths["provinces"], config)
    schedule = load_schedule(paths["timer_schedule"], config)
    symbols = load_symbols(paths["automa_reward_symbols"])
    acards = load_automa_cards(paths["automa_cards"], config, symbols)
    levels = load_levels(paths["automa_levels"])
    scoring = load_scoring(paths["automa_scoring"], config)
    track = load_track(paths["automa_track"], config)
    data = PendulumData(config, spaces, chars, strats, council, achievements, provinces, schedule, acards, levels,
                        scoring, track, symbols, options, {k: str(v) for k, v in paths.items()})
    _check_cross(paths, data)
    return data


__all__ = ["COUNCIL_IDS", "DATA_DIR", "FILES", "FILE_NAMES", "Effect", "PendulumData", "load_data", "parse_effect"]

"""Rule options: choices from a list, and free integer ranges (e.g. Smartphone's price track)."""

from __future__ import annotations

import pytest

from simlab.core.errors import DataError, OptionError
from simlab.core.options import load_options, resolve_options

TOML = """
[options.layout]
default = "a"
allowed = ["a", "b"]
description = "a choice"

[options.track]
open_point = "O8"
default = [1, 10]
description = "a free range"
"""


def test_choices_and_free_ranges(tmp_path):
    path = tmp_path / "options.toml"
    path.write_text(TOML)
    options = load_options(path)
    assert options["track"].free_range and not options["layout"].free_range
    assert resolve_options(options, None) == {"layout": "a", "track": [1, 10]}
    assert resolve_options(options, {"track": (3, 7), "layout": "b"}) == {"layout": "b", "track": [3, 7]}
    for bad in ([7, 3], [1], ["1", "10"], 5, [True, 3]):
        with pytest.raises(OptionError, match="option 'track'"):
            resolve_options(options, {"track": bad})
    with pytest.raises(OptionError, match="option 'layout': 'c' is not allowed"):
        resolve_options(options, {"layout": "c"})


def test_an_option_without_allowed_values_must_be_a_range(tmp_path):
    path = tmp_path / "options.toml"
    path.write_text('[options.x]\ndefault = "a"\ndescription = "no list"\n')
    with pytest.raises(DataError, match=r"options\.x: missing key 'allowed'"):
        load_options(path)

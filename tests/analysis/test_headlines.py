"""Headlines that hold (issue 22 part 5): a claim is headlined only if it survives the page's
stated multiple-comparison procedure over its whole family, differences of estimates measured on
the same deals are paired by deal, and a zero share shows its upper bound, never a bare 0."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlab.analysis.headlines import (
    Headlines,
    clopper_pearson,
    clustered_difference,
    format_share,
    format_share_with_bound,
    p_from_interval,
    read_findings,
    survivors,
    zero_upper_bound,
)


def _sentient_family() -> pl.DataFrame:
    """60 cards' changes between 2 and 4 players: card 38 at p = 0.016, five more below 0.05, the rest null."""
    p = np.linspace(0.06, 0.99, 60)
    p[:6] = [0.016, 0.02, 0.03, 0.035, 0.04, 0.045]
    return pl.DataFrame({"card": [38, *range(1, 60)], "p": p, "family": ["change 2 -> 4 players"] * 60})


@pytest.mark.parametrize("procedure", ["holm", "bh"])
def test_the_most_extreme_of_six_unadjusted_fails_over_sixty(procedure):
    """Issue 22: p = 0.016, the smallest of 60, is rejected neither by Holm nor by Benjamini–Hochberg."""
    out = survivors(_sentient_family(), procedure)
    assert (out["p"] < 0.05).sum() == 6  # six intervals exclude 0 unadjusted
    assert not out["survives"].any()
    row = out.filter(pl.col("card") == 38).row(0, named=True)
    # Holm: 0.016·60; BH: the step-up minimum over the six, 0.045·60/6
    assert row["family_size"] == 60 and row["p_adjusted"] == pytest.approx(0.96 if procedure == "holm" else 0.45)


def test_holm_and_bh_within_each_family():
    f = pl.DataFrame({"p": [0.001, 0.02, 0.03, 0.04, 0.001, 0.5, None],
                      "family": ["a", "a", "a", "a", "b", "b", "b"]})
    holm = survivors(f, "holm")
    # family a: 0.001·4 = 0.004, 0.02·3 = 0.06 -> only the first; family b has 2 tests (the missing p does not count)
    assert holm["survives"].to_list() == [True, False, False, False, True, False, False]
    assert holm["family_size"].to_list() == [4] * 4 + [2] * 3
    bh = survivors(f, "bh")
    # BH over a: 0.04·4/4 = 0.04 -> all four survive
    assert bh["survives"].to_list() == [True, True, True, True, True, False, False]
    assert survivors(f, "holm", family=None)["family_size"][0] == 6
    with pytest.raises(ValueError, match="procedure must be one of"):
        survivors(f, "fdr")
    with pytest.raises(ValueError, match="no family column"):
        survivors(f.drop("family"))


def test_p_from_interval_inverts_a_t_interval():
    est, se, dof = 0.3, 0.12, 40
    q = stats.t.ppf(0.975, dof)
    p = p_from_interval(est, est - q * se, est + q * se, dof=dof)
    assert p == pytest.approx(2 * stats.t.sf(est / se, dof))
    assert p_from_interval(0.0, 0.0, 0.0) == 1.0


def _shared_deals(n_deals: int, rng: np.random.Generator) -> pl.DataFrame:
    """Each deal played at 2 and 4 players; a strong deal effect shared by both (as the cards of a deal are)."""
    deal_effect = rng.normal(0, 1.0, n_deals)
    rows = []
    for n in (2, 4):
        rows.append(pl.DataFrame({"deal": np.arange(n_deals), "n_players": n,
                                  "edge": deal_effect + rng.normal(0, 0.3, n_deals)}))
    return pl.concat(rows)


def test_clustered_difference_is_the_per_deal_paired_difference():
    """One row per deal and group: the estimate and p-value are the paired t-test's (up to CR1's G/(G-1))."""
    frame = _shared_deals(80, np.random.default_rng(1))
    out = clustered_difference(frame, "n_players", "edge", 2, 4).row(0, named=True)
    a = frame.filter(pl.col("n_players") == 2).sort("deal")["edge"].to_numpy()
    b = frame.filter(pl.col("n_players") == 4).sort("deal")["edge"].to_numpy()
    d = b - a
    assert out["diff"] == pytest.approx(d.mean())
    assert out["se"] == pytest.approx(d.std(ddof=1) / np.sqrt(d.size))
    assert out["p"] == pytest.approx(stats.ttest_rel(b, a).pvalue)
    assert out["shared"] == out["clusters"] == 80
    # two independent intervals (the former notebook) ignore the shared deal effect: far wider here
    independent = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    assert out["se"] < independent / 2


def test_clustered_difference_with_disjoint_deals_is_the_two_sample_one():
    rng = np.random.default_rng(2)
    frame = pl.DataFrame({"deal": np.arange(100), "g": np.repeat(["x", "y"], 50), "v": rng.normal(size=100)})
    out = clustered_difference(frame, "g", "v", "x", "y").row(0, named=True)
    x, y = frame.filter(pl.col("g") == "x")["v"].to_numpy(), frame.filter(pl.col("g") == "y")["v"].to_numpy()
    two_sample = np.sqrt(x.var(ddof=0) / x.size + y.var(ddof=0) / y.size)
    assert out["shared"] == 0 and out["clusters"] == 100
    assert out["se"] == pytest.approx(two_sample * np.sqrt(100 / 99))
    by = clustered_difference(frame.with_columns(pl.lit(1).alias("k")), "g", "v", "x", "y", by=["k"])
    assert by["diff"][0] == pytest.approx(out["diff"])


def test_clustered_difference_holds_its_level_when_deals_are_shared():
    """Under no change, the paired test rejects about 5% of the time (200 small simulated runs)."""
    rng = np.random.default_rng(3)
    rejections = [clustered_difference(_shared_deals(40, rng), "n_players", "edge", 2, 4)["p"][0] < 0.05
                  for _ in range(200)]
    assert 0.01 <= np.mean(rejections) <= 0.10


def test_zero_cells_show_their_upper_bound():
    """Pendulum (issue 22): a zero cell is '0 (≤ u)', and 1 of 3,000 is not printed as 0.000."""
    assert zero_upper_bound(3000) == pytest.approx(1 - 0.025 ** (1 / 3000))
    assert clopper_pearson(0, 3000)[1] == pytest.approx(zero_upper_bound(3000))
    assert format_share_with_bound(0, 3000) == "0 (≤ 0.0012)"
    assert format_share_with_bound(0, 3000, deals=1000) == f"0 (≤ {zero_upper_bound(1000):.4f})"
    assert format_share_with_bound(0, 3000, hi=0.00128) == "0 (≤ 0.0013)"  # the page's own clustered bound
    one = format_share_with_bound(1, 3000)
    assert one.startswith("0.0003 [") and one.endswith(", 0.0019]")
    assert format_share_with_bound(1, 3000, lo=0.0001, hi=0.0019) == "0.0003 [0.0001, 0.0019]"
    assert format_share_with_bound(345, 3000, lo=0.104, hi=0.127) == "0.115 [0.10, 0.13]"
    for k in (0, 1, 2, 5):
        text = format_share_with_bound(k, 3000)
        assert text != "0" and not text.startswith("0.000 ")
    assert format_share(0.0, 0.0, 0.002) == "0 (≤ 0.0020)"
    with pytest.raises(ValueError, match="n must be positive"):
        format_share_with_bound(0, 0)


def test_headlines_keep_only_surviving_claims(tmp_path):
    family = survivors(pl.DataFrame({"name": ["big", "small"], "p": [1e-6, 0.2], "family": ["f", "f"]}), "holm")
    h = Headlines()
    h.estimate("the Automas end on space 22.1 on average (95% CI 21.8-22.4)")
    rows = {r["name"]: r for r in family.iter_rows(named=True)}
    assert h.claim("big differs", rows["big"], "holm")
    assert not h.claim("small differs", rows["small"], "holm")  # 0.2 > 0.05
    with pytest.raises(ValueError, match="no 'survives'"):
        h.claim("bare", {"p": 0.01, "p_adjusted": 0.01, "family_size": 1}, "holm")
    h.say("The Automas end on space 22.1 (95% CI 21.8-22.4).")
    h.write(tmp_path)
    assert json.loads((tmp_path / "findings.json").read_text()) == {
        "takeaway": ["The Automas end on space 22.1 (95% CI 21.8-22.4)."],
        "headlines": ["the Automas end on space 22.1 on average (95% CI 21.8-22.4)", "big differs"],
        "more": [], "cautions": []}
    assert read_findings(tmp_path)["headlines"][1] == "big differs"
    record = json.loads((tmp_path / "headlines.json").read_text())
    assert [r["kind"] for r in record] == ["estimate", "claim"]
    assert record[1]["family"] == "f" and record[1]["procedure"] == "holm" and record[1]["family_size"] == 2
    assert record[1]["survives"] and record[1]["p_adjusted"] <= 0.05


def test_format_p_never_prints_a_zero_p_value():
    """A p-value that underflowed to 0 reads "< 1e-300", never "= 0" (issue 22: findings worded exactly)."""
    from simlab.analysis.headlines import format_p

    assert format_p(0.0) == "< 1e-300"
    assert format_p(0.02315) == "= 0.0232"
    assert format_p(float("nan")) == "= n/a"


def test_a_page_opens_with_at_most_three_sentences_and_five_headlines(tmp_path):
    """Issue 23: a takeaway of at most three sentences, then at most five headline findings; the rest is "more"."""
    h = Headlines()
    for i in range(3):
        h.say(f"sentence {i}.")
    with pytest.raises(ValueError, match="at most 3 sentences"):
        h.say("a fourth.")
    for i in range(7):
        h.estimate(f"finding {i}")
    h.write(tmp_path)
    found = read_findings(tmp_path)
    assert len(found["takeaway"]) == 3 and len(found["headlines"]) == 5 and found["more"] == ["finding 5", "finding 6"]
    (tmp_path / "findings.json").write_text(json.dumps([f"old {i}" for i in range(6)]))  # the list format before
    assert read_findings(tmp_path) == {"takeaway": [], "headlines": [f"old {i}" for i in range(5)],
                                       "more": ["old 5"], "cautions": []}


def test_escape_md_shows_markup_as_text():
    """Issue 23: a user-supplied name never becomes markup on a page."""
    import markdown_it

    from simlab.report.text import escape_md

    for name in ("<script>alert(3)</script>", '<img src=x onerror="alert(1)">', "[x](javascript:alert(1))",
                 "pl/tag.py:P(tag='*bold*')"):
        rendered = markdown_it.MarkdownIt().render(escape_md(name))
        assert "<script" not in rendered and "<img" not in rendered and "<a " not in rendered and "<em>" not in rendered


def test_escape_md_keeps_quotes_and_ampersands_readable():
    """Issue 23: an escaped sentence reads as typed: "the first player's" never shows as "player&#x27;s"."""
    import markdown_it

    from simlab.report.text import escape_md

    rendered = markdown_it.MarkdownIt().render(escape_md("the first player's team & \"tag\" <b>"))
    assert rendered == "<p>the first player's team &amp; &quot;tag&quot; &lt;b&gt;</p>\n"

"""Units for the compute panel's numbers."""
from ui.loop.draw import FRONTIER_PER_TOKEN, fmt_flops, fmt_flops_range


def test_fmt_flops_picks_a_unit():
    assert fmt_flops(536_196_352) == "536 MFLOPs"
    assert fmt_flops(5.4e9).replace(",", ".") == "5.40 GFLOPs" and fmt_flops(54e9).replace(",", ".") == "54.0 GFLOPs"
    assert fmt_flops(5.4e9).endswith("GFLOPs") and fmt_flops(3.1e12).endswith("TFLOPs")
    assert fmt_flops(2e15).endswith("PFLOPs") and fmt_flops(12).endswith(" FLOPs")


def test_frontier_range_is_the_seeds_tens_to_hundreds_of_gflops():
    lo, hi = FRONTIER_PER_TOKEN
    assert 10e9 <= lo < 100e9 and 100e9 <= hi < 1e12


def test_a_range_uses_one_unit():
    assert fmt_flops_range(120e9, 10.8e12).replace(",", ".") == "0.12 – 10.8 TFLOPs"
    assert fmt_flops_range(5e6, 9e8).replace(",", ".") == "5.00 – 900 MFLOPs"

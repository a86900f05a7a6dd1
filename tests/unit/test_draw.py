"""runtime/draw.multinomial_one is torch.multinomial(probs, 1): the same tokens, the same generator state after,
the same errors, on rows like the loop's (a top-k or top-p cut leaves most entries at zero) and full rows."""
import numpy as np
import pytest
import torch

from model_backend.runtime import draw

V = 262_144


def _rows(rng: np.random.Generator):
    for case in range(24):
        rows = 1 if case % 3 else 3
        scores = torch.from_numpy((rng.standard_normal((rows, V)) * 3).astype(np.float32))
        k = (1, 5, 64, 1000, 20_000, V)[case % 6]
        scores = scores.masked_fill(scores < torch.topk(scores, k, dim=-1).values[:, -1:], float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        yield (probs[0] if rows == 1 and case % 2 else probs), int(rng.integers(1 << 62)), int(rng.integers(0, 700))


def _pair(seed: int, skip: int) -> tuple[torch.Generator, torch.Generator]:
    a, b = torch.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
    torch.rand(skip, generator=a), torch.rand(skip, generator=b)  # anywhere in the twister's block
    return a, b


def test_the_same_tokens_and_generator_state_as_torch_multinomial():
    assert draw._fast_ok()  # this torch and this C library: the fast draw is on
    for probs, seed, skip in _rows(np.random.default_rng(11)):
        mine, theirs = _pair(seed, skip)
        for _ in range(2):
            expected = torch.multinomial(probs, num_samples=1, generator=theirs)
            got = draw._fast(probs, mine)
            assert got is not None  # the fast path itself, not the fallback
            assert got.dtype == expected.dtype and torch.equal(got, expected)
        assert torch.equal(mine.get_state(), theirs.get_state())
        assert torch.equal(torch.rand(3, generator=mine), torch.rand(3, generator=theirs))


def test_a_non_contiguous_row_is_drawn_in_torch_s_own_order():
    """torch fills its exponentials in the tensor's memory order: a transposed [3, V] is torch's own draw."""
    probs = torch.softmax(torch.randn((V, 3), generator=torch.Generator().manual_seed(8)), dim=0).t()
    assert not probs.is_contiguous()
    mine, theirs = _pair(9, 0)
    assert torch.equal(draw.multinomial_one(probs, mine), torch.multinomial(probs, 1, generator=theirs))
    assert torch.equal(mine.get_state(), theirs.get_state())


def test_the_exponentials_are_torch_s_even_where_numpy_s_log1p_is_off(monkeypatch):
    """Every float32 q equals torch's exponential_ with the same generator, bit for bit, even with numpy's log1p
    moved by 9e-13 of itself (more than numpy and the C library ever differ, less than the margin): the values it
    rounds to another float32 are those the C library's log1p recomputes, and there are some."""
    n = 1 << 20
    theirs = torch.empty(n).exponential_(generator=torch.Generator().manual_seed(12)).numpy()
    bits = torch.empty(n, dtype=torch.int64).random_(generator=torch.Generator().manual_seed(12)).numpy() & draw._MASK53
    assert np.array_equal(draw.exponentials(bits), theirs)
    log1p, exact, recomputed = np.log1p, draw.math.log1p, []
    monkeypatch.setattr(np, "log1p", lambda x: log1p(x) * (1 + 9e-13))
    monkeypatch.setattr(draw.math, "log1p", lambda x: recomputed.append(x) or exact(x))
    assert np.array_equal(draw.exponentials(bits), theirs)
    assert recomputed


def test_a_row_whose_ratios_all_underflow_is_index_0_as_torch():
    """One subnormal probability: p / q rounds to 0 where q > 2, and torch's argmax of an all-zero row is 0."""
    probs = torch.zeros(1000)
    probs[5] = 1.4e-45
    picks = set()
    for seed in range(40):
        mine, theirs = _pair(seed, 0)
        expected = torch.multinomial(probs, 1, generator=theirs)
        got = draw._fast(probs, mine)
        assert got is not None and torch.equal(got, expected), seed  # the fast path itself
        picks.add(int(expected))
    assert picks == {0, 5}  # both cases met


def test_a_zero_exponential_goes_back_to_torch_with_the_generator_rewound(monkeypatch):
    """Where some x is exactly 0 (2^-53 an entry) torch's q is 0; the draw hands the row to torch from the state it
    started in. Forced here by a mask that zeroes every x."""
    monkeypatch.setattr(draw, "_MASK53", np.int64(0))
    probs = torch.softmax(torch.randn(V, generator=torch.Generator().manual_seed(2)), dim=-1)
    mine, theirs = _pair(5, 10)
    assert draw._fast(probs, mine) is None
    assert torch.equal(mine.get_state(), theirs.get_state())
    assert torch.equal(draw.multinomial_one(probs, mine), torch.multinomial(probs, 1, generator=theirs))
    assert torch.equal(mine.get_state(), theirs.get_state())


@pytest.mark.parametrize("bad", ["nan", "inf", "negative", "zero_row", "over_2^24_categories"])
def test_rows_torch_refuses_get_torch_s_error(bad):
    probs = torch.softmax(torch.randn((2, 1000), generator=torch.Generator().manual_seed(3)), dim=-1)
    if bad == "zero_row":
        probs[1] = 0.0
    elif bad == "over_2^24_categories":
        probs = torch.ones((1 << 24) + 1)
    else:
        probs[1, 7] = {"nan": float("nan"), "inf": float("inf"), "negative": -0.1}[bad]
    with pytest.raises(RuntimeError) as theirs:
        torch.multinomial(probs, 1, generator=torch.Generator().manual_seed(1))
    with pytest.raises(RuntimeError) as mine:
        draw.multinomial_one(probs, torch.Generator().manual_seed(1))
    assert str(mine.value) == str(theirs.value)


def test_what_it_does_not_cover_is_torch_multinomial_itself(monkeypatch):
    """float64 rows, no generator (the global one), or a machine where the first check failed: torch draws."""
    called = []
    original = torch.multinomial
    monkeypatch.setattr(torch, "multinomial", lambda *a, **k: called.append(1) or original(*a, **k))
    probs = torch.softmax(torch.randn(1000, generator=torch.Generator().manual_seed(4)), dim=-1)
    draw.multinomial_one(probs.double(), torch.Generator().manual_seed(1))
    torch.manual_seed(0)
    draw.multinomial_one(probs, None)
    monkeypatch.setattr(draw, "_checked", False)
    draw.multinomial_one(probs, torch.Generator().manual_seed(1))
    assert len(called) == 3


def test_the_first_check_catches_a_generator_left_elsewhere(monkeypatch):
    """The same tokens but the generator in another state after (here: one more number taken after every third
    draw, the last of each case): the check says so."""
    fast, calls = draw._fast, []

    def shifted(p, g):
        out = fast(p, g)
        calls.append(1)
        if len(calls) % 3 == 0:
            torch.rand(1, generator=g)
        return out

    monkeypatch.setattr(draw, "_fast", shifted)
    monkeypatch.setattr(draw, "_checked", None)
    assert draw._fast_ok() is False
    assert len(calls) == 3  # the first case's tokens all matched: its states told


def test_the_first_check_catches_a_draw_that_differs(monkeypatch):
    """If this torch made its exponentials another way (here: the fast draw's picks shifted by one), the check
    says so and every draw is torch's."""
    fast = draw._fast
    monkeypatch.setattr(draw, "_fast", lambda p, g: None if (out := fast(p, g)) is None else (out + 1) % p.shape[-1])
    monkeypatch.setattr(draw, "_checked", None)
    assert draw._fast_ok() is False

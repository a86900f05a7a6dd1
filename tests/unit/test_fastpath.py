"""The threaded output projection gives the same logits as a plain linear layer, and only where it helps."""
import torch

from model_backend import fastpath


def _head(rows: int, dtype=torch.float32) -> torch.nn.Linear:
    torch.manual_seed(0)
    return torch.nn.Linear(64, rows, bias=False, dtype=dtype)


def test_split_rows_equal_the_plain_product():
    w = torch.randn(40_000, 64)
    for parts in (2, 3, 4):
        x = torch.randn(1, 1, 64)
        with torch.inference_mode():
            got = fastpath.split_linear(x, w, parts)
        assert got.shape == (1, 1, 40_000)
        torch.testing.assert_close(got, torch.nn.functional.linear(x, w), rtol=1e-5, atol=1e-5)


def test_installed_on_a_large_float32_head_only(monkeypatch):
    class M(torch.nn.Module):
        def __init__(self, head):
            super().__init__()
            self.head = head

        def get_output_embeddings(self):
            return self.head

    big, small, half = _head(40_000), _head(1_000), _head(40_000, torch.bfloat16)
    assert fastpath.speed_up_output(M(big)) and not fastpath.speed_up_output(M(small))
    assert not fastpath.speed_up_output(M(half))
    monkeypatch.setattr(torch, "get_num_threads", lambda: 2)
    x = torch.randn(1, 1, 64)
    with torch.inference_mode():
        torch.testing.assert_close(big(x), x @ big.weight.T, rtol=1e-5, atol=1e-5)
        many = torch.randn(1, 5, 64)  # a prompt of 5 positions takes the plain path
        torch.testing.assert_close(big(many), many @ big.weight.T, rtol=1e-5, atol=1e-5)
    loss = big(torch.randn(1, 64)).sum()  # with gradients: the plain path, so training still works
    loss.backward()
    assert big.weight.grad is not None

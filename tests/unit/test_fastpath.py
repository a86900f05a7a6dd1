"""Linear layers routed through oneDNN give the same outputs as F.linear, keep their weights, and step aside
where they cannot help (gradients, other dtypes)."""
import pytest
import torch
import torch.nn.functional as F

from model_backend import fastpath

pytestmark = pytest.mark.skipif(fastpath._op() is None, reason="this torch has no oneDNN")


class Tiny(torch.nn.Module):
    def __init__(self, dtype):
        super().__init__()
        torch.manual_seed(0)
        self.up = torch.nn.Linear(64, 256, bias=False, dtype=dtype)
        self.down = torch.nn.Linear(256, 64, bias=True, dtype=dtype)
        self.head = torch.nn.Linear(64, 5_000, bias=False, dtype=dtype)

    def forward(self, x):
        return self.head(self.down(F.gelu(self.up(x))))


def _plain(model, x):
    h = F.linear(F.gelu(F.linear(x, model.up.weight)), model.down.weight, model.down.bias)
    return F.linear(h, model.head.weight)


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-4), (torch.bfloat16, 2e-2)])
@pytest.mark.parametrize("rows", [1, 7])  # one decode step, and a prompt of 7 positions
def test_outputs_match_the_plain_linear(dtype, tol, rows):
    model = Tiny(dtype)
    x = torch.randn(1, rows, 64).to(dtype)
    with torch.inference_mode():
        want = _plain(model, x)
        assert fastpath.speed_up(model) == 3
        got = model(x)
    assert got.dtype == dtype and got.shape == (1, rows, 5_000)
    torch.testing.assert_close(got.float(), want.float(), rtol=tol, atol=tol)
    assert model.head.forward.__func__ is fastpath._forward


def test_weights_stay_parameters_and_only_bfloat16_gets_a_packed_copy():
    full, half = Tiny(torch.float32), Tiny(torch.bfloat16)
    before = {k: v.clone() for k, v in full.state_dict().items()}
    fastpath.speed_up(full)
    fastpath.speed_up(half)
    assert "_tbt_packed" not in full.up.__dict__  # float32 reads its own weight: no extra memory
    assert half.up.__dict__["_tbt_packed"].is_mkldnn
    assert set(full.state_dict()) == set(before)  # the copy is not a buffer: nothing new is saved
    for k, v in full.state_dict().items():
        assert torch.equal(v, before[k])


def test_gradients_and_other_dtypes_take_the_plain_path():
    model = Tiny(torch.float32)
    fastpath.speed_up(model)
    loss = model(torch.randn(2, 64)).sum()  # with gradients: F.linear, so training still works
    loss.backward()
    assert model.up.weight.grad is not None and model.head.weight.grad is not None
    half = Tiny(torch.float16)
    assert fastpath.speed_up(half) == 0
    with torch.inference_mode():  # a float32 input to a bfloat16 layer is F.linear's business (it raises)
        other = Tiny(torch.bfloat16)
        fastpath.speed_up(other)
        with pytest.raises(RuntimeError):
            other(torch.randn(1, 1, 64))


def test_a_broken_operator_leaves_the_model_alone(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no such kernel")

    monkeypatch.setattr(fastpath, "_pack", broken)
    model = Tiny(torch.bfloat16)
    assert fastpath.speed_up(model) == 0
    assert "forward" not in model.up.__dict__

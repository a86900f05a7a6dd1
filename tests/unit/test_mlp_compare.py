"""The MLP picture's numbers: the seed's 4x classic block against a gated one, from the config's sizes."""
from ui.mlp_compare import compare_chart, compare_frame, weights


def test_gemma_sizes_give_the_gated_widths_and_weights():
    df = compare_frame(640, 2048, "gelu_pytorch_tanh")
    widths = {(m, s): w for m, s, w in zip(df["model"], df["stage"], df["width"])}
    classic, ours = list(dict.fromkeys(df["model"]))
    assert [widths[(classic, s)] for s in ("in", "up", "act", "out")] == [640, 2560, 2560, 640]
    assert [widths[(ours, s)] for s in ("in", "up", "act", "out")] == [640, 4096, 2048, 640]  # gate + up, then one
    assert "gelu_pytorch_tanh" in ours
    assert weights(640, 2048) == (3_276_800, 3_932_160)  # 2·d·4d vs 3·d·f
    assert weights(640, 2048, gated=False) == (3_276_800, 2_621_440)


def test_a_plain_mlp_draws_one_projection_up():
    df = compare_frame(32, 64, "gelu", gated=False)
    ours = list(dict.fromkeys(df["model"]))[1]
    assert list(df[df["model"] == ours]["width"]) == [32, 64, 64, 32]


def test_the_chart_has_tooltips_and_labels():
    spec = compare_chart(compare_frame(640, 2048, "gelu_pytorch_tanh")).to_dict()
    assert all("tooltip" in layer["encoding"] for layer in spec["layer"])
    assert spec["layer"][1]["mark"]["type"] == "text"

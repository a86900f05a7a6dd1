"""The pipeline page from a link: the prompt and every view setting come back, hostile values fall back
to the defaults with a notice, and the downloads hold the numbers the page shows."""
import pytest

from tests.app.download_capture import both
from tests.app.helpers import texts
from tests.app.link_helpers import chart_frames, open_link, query_value, tables

PROMPT = "O gato sentou no"


def pct(p: float, digits: int = 1) -> str:
    """A probability as the English page writes it."""
    return f"{100 * p:,.{digits}f}%"


LINK = {"prompt": PROMPT, "layer": "6", "head": "3", "pos": "2", "mlp": "4", "seed": "7", "lang": "en", "projection": "1"}


def test_a_link_restores_the_prompt_and_every_setting(captured):
    at = open_link("pipeline", LINK)
    assert not at.exception
    assert at.session_state["projection"] is True  # projection mode from the link: every chart drawn in it
    assert at.text_area(key="prompt_pipeline").value == PROMPT
    assert at.slider(key="pipeline_att_layer").value == 6
    assert at.selectbox(key="pipeline_att_head").value == 3
    assert at.selectbox(key="pipeline_emb_pos").value == 2
    assert at.slider(key="pipeline_mlp_layer").value == 4
    assert at.number_input(key="pipeline_seed").value == 7
    shown = texts(at)
    assert "Pipeline overview" in shown and "16 characters" in shown  # the link's language and prompt
    assert "layer 6, head 3" in shown and "seed 7" in shown
    assert not [i for i in at.info if "link" in i.value]  # nothing was rejected
    for name in ("layer", "head", "pos", "mlp", "seed"):  # the page publishes the same view back
        assert query_value(at, name) == LINK[name]
    assert query_value(at, "prompt") == PROMPT
    assert any("prompt=O+gato+sentou+no" in c.value and "layer=6" in c.value for c in at.text)  # the copyable link

    # The downloads are the numbers shown: the tokens table, the heatmap's cells, the softmax table.
    tokens = both(captured, "pipeline-tokens")
    table = next(df for df in tables(at) if "ID" in df.columns)
    assert list(tokens["id"]) == list(table["ID"]) and list(tokens["token"]) == list(table["token"])
    att = both(captured, "pipeline-attention-L6-H3")
    n = len(tokens)
    assert len(att) == n * n and set(att["layer"]) == {6} and set(att["head"]) == {3}
    seen = att[~att["masked"]]
    assert all(abs(seen.groupby("query_pos")["weight"].sum() - 1) < 1e-2)  # each row sums to 1 (bfloat16)
    assert att[att["masked"]]["weight"].isna().all()
    heat = next(f for f in chart_frames(at) if {"query", "key", "shown"} <= set(f.columns))
    assert list(heat["shown"]) == ["masked (future)" if m else pct(w) for m, w in zip(att["masked"], att["weight"])]
    top = both(captured, "pipeline-softmax-top")
    probs = next(df for df in tables(at) if "probability" in df.columns)
    assert [pct(p, 2) for p in top["prob"]] == list(probs["probability"])[: len(top)]
    emb = both(captured, "pipeline-embedding-2")
    assert len(emb) == 640 and list(emb["dim"]) == list(range(640))
    mlp = both(captured, "pipeline-mlp-L4")
    assert sorted(set(mlp["vector"])) == ["hidden", "in", "out"] and set(mlp["layer"]) == {4}
    lens = both(captured, "pipeline-logit-lens")
    assert set(lens["layer"]) == set(range(19)) and (lens["prob"].between(0, 1)).all()
    norms = both(captured, "pipeline-residual-norms")
    assert len(norms) == 19 and (norms["norm"] > 0).all()


@pytest.mark.parametrize("value", ["<img src=x onerror=alert(1)>", "nan", "abc", "x" * 10_000, "99999999999999999999"])
def test_hostile_link_values_fall_back_with_a_notice(value):
    query = {k: value for k in ("prompt", "layer", "head", "pos", "mlp", "seed")}
    at = open_link("pipeline", {**query, "lang": "en"})
    assert not at.exception
    notice = " ".join(i.value for i in at.info)
    too_long = len(value) > 2_000  # any other text is a valid prompt (shown as text)
    rejected = ["layer", "head", "pos", "mlp", "seed"] + (["prompt"] if too_long else [])
    for name in rejected:
        assert name in notice, (name, notice)
    assert at.slider(key="pipeline_att_layer").value == 1 and at.selectbox(key="pipeline_att_head").value == 1
    assert at.slider(key="pipeline_mlp_layer").value == 9 and at.number_input(key="pipeline_seed").value == 0
    box = at.text_area(key="prompt_pipeline").value
    assert box == ("The capital of France is" if too_long else value)
    for md in at.markdown:
        assert "<img" not in md.value

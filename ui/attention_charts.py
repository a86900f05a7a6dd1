"""The attention page's figures and their data: heatmap, one token's bars, the grid of heads, "banco"; the
tables behind them, which are also what the download buttons send."""
from __future__ import annotations

import json

import altair as alt
import numpy as np
import pandas as pd

import model_backend as mb
from model_backend.lessons import attention as att
from ui.charts import MASKED, OKABE_ITO, PRIMARY, SEQUENTIAL, cached_chart, projection_on
from ui.i18n import fmt_float, fmt_int, fmt_pcts, lang, t
from ui.numbering import FIRST, head_no, layer_no

HEATMAP_LIMIT = 32  # columns of the big heatmap (first token, the hidden middle, the last 30)
HEATMAP_SIZES = (HEATMAP_LIMIT, 12)  # the visitor's choice for long texts: the last 30 tokens, or 10 (phones)
GRID_LIMIT = 12  # columns of each small multiple
GRID_GROUP = 6  # layers per group when the grid shows one group (larger blocks, for phones and projectors)
BARS_LIMIT = 30  # bars for one token; the rest are summed into one bar
TEXT_IN_CELLS = 14  # write the weight inside each cell up to this many columns (projector-readable)
AVG = -1  # layer or head "number" of an average
MARK = OKABE_ITO[5]  # vermilion: the boundary between prompt and generated tokens, the picked head
LABEL_CHARS = 14


def axis_value(choice: int) -> int | None:
    """Widget value -> the argument att.pattern() takes (None = average over that axis)."""
    return None if choice == AVG else choice


def _size(normal: int) -> int:
    """Font size of a text mark: larger in projection mode, like the axis labels."""
    return round(normal * 1.5) if projection_on() else normal


# ---------------------------------------------------------------- labels


def short(text: str) -> str:
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def token_labels(tokens, generated_from: int | None = None) -> list[str]:
    """'3: ·gato' for each position; generated tokens get a '▸' so they stand out on the axes."""
    return [f"{'▸' if generated_from is not None and i >= generated_from else ''}{i}: {short(tok.display)}"
            for i, tok in enumerate(tokens)]


def view_title(info: mb.ModelInfo, layer: int, head: int) -> str:
    """What the big heatmap shows, saying 'average' whenever it is one."""
    if layer == AVG and head == AVG:
        return t("attention.view.avg_all", n=info.n_layers * info.n_heads)
    if layer == AVG:
        return t("attention.view.avg_layers", head=head_no(head), n=info.n_layers)
    if head == AVG:
        return t("attention.view.avg_heads", layer=layer_no(layer), n=info.n_heads)
    return t("attention.view.one", layer=layer_no(layer), head=head_no(head))


# ---------------------------------------------------------------- the tables the downloads send


def tokens_frame(tokens, generated_from: int | None = None) -> pd.DataFrame:
    """One row per token: position, id, the token as the axes show it, its raw text (and if it was generated)."""
    df = pd.DataFrame({"position": range(len(tokens)), "id": [tok.id for tok in tokens],
                       "token": [tok.display for tok in tokens], "text": [tok.text for tok in tokens]})
    if generated_from is not None:
        df["generated"] = df["position"] >= generated_from
    return df


def hidden_label(cut: att.Cropped) -> str:
    """How the column that sums the hidden middle of a long text is named (the visitor's language)."""
    win = cut.window
    return t("attention.hidden_tip", n=fmt_int(win.n_hidden)) + (f" ({win.hidden[0]}–{win.hidden[1] - 1})"
                                                                 if win.hidden else "")


def cells_frame(cut: att.Cropped, tokens, layer: int, head: int, hidden: str | None = None) -> pd.DataFrame:
    """Every cell the heatmap draws, with the exact weight (None where the mask hides the key).

    layer/head: 0-based indices, -1 for an average; the rows number them from 1, as the page shows them
    (ui.numbering), and keep -1 for an average. The column that sums the hidden middle of a long text has key_pos -1
    and names the positions it sums (`hidden`: that name, made beforehand where the table is built outside the
    page's run; else hidden_label).
    """
    win, rows = cut.window, []
    hidden = hidden_label(cut) if hidden is None else hidden
    for r, q in enumerate(win.queries):
        for c, k in enumerate(win.keys):
            ok = bool(cut.allowed[r, c])
            rows.append({"layer": layer_no(layer), "head": head_no(head), "query_pos": q, "query": tokens[q].display, "key_pos": k,
                         "key": hidden if k == att.HIDDEN else tokens[k].display, "masked": not ok,
                         "weight": float(cut.weights[r, c]) if ok else None})
    return pd.DataFrame(rows)


def similarity_frame(sim: att.Similarity) -> pd.DataFrame:
    """The "banco" curves: one row per layer (0 = the embeddings), None where a cosine is undefined."""
    def clean(values):
        return [float(v) if np.isfinite(v) else None for v in values]
    return pd.DataFrame({"layer": range(len(sim.centred)), "centred": clean(sim.centred),
                         "baseline": clean(sim.baseline), "raw": clean(sim.raw)})


# ---------------------------------------------------------------- the big heatmap


def _key_label(k: int, labels: list[str], win: att.Window) -> str:
    return t("attention.hidden_col", n=fmt_int(win.n_hidden)) if k == att.HIDDEN else labels[k]


def heatmap_summary(cut: att.Cropped, labels: list[str]) -> str:
    """The heatmap's text alternative: its size, and where the last drawn query looks most. Not "the highest cell":
    that is always the first token's 1 (it can only look at itself)."""
    win = cut.window
    row = np.where(cut.allowed[-1], cut.weights[-1], -np.inf)  # the last drawn query's visible weights
    best = int(np.argmax(row))
    query, w = labels[win.queries[-1]], fmt_float(float(cut.weights[-1, best]), 2)
    looks = (t("attention.a11y.map.middle", query=query, n=fmt_int(win.n_hidden), w=w) if win.keys[best] == att.HIDDEN
             else t("attention.a11y.map.looks", query=query, looked=labels[win.keys[best]], w=w))
    keys = np.array(win.keys)[None, :]
    past = (keys != att.HIDDEN) & (keys <= np.array(win.queries)[:, None])  # cells the causal mask leaves open
    sliding = t("attention.a11y.map.sliding") if bool((past & ~cut.allowed).any()) else ""  # hidden all the same
    return t("attention.a11y.map", rows=fmt_int(len(win.queries)), cols=fmt_int(len(win.keys)), sliding=sliding,
             looks=looks)


def heatmap_frame(cut: att.Cropped, tokens, labels: list[str], sum_digits: int = 3) -> pd.DataFrame:
    """One row per drawn cell, plus one 'Σ' cell per row with the row's sum. Cells that round to 0.00 carry
    no number, so the ones that matter stand out (and numbers do not collide on a phone)."""
    win, rows = cut.window, []
    for r, q in enumerate(win.queries):
        for c, k in enumerate(win.keys):
            w, ok = float(cut.weights[r, c]), bool(cut.allowed[r, c])
            key_text = t("attention.hidden_tip", n=fmt_int(win.n_hidden)) if k == att.HIDDEN else tokens[k].display
            txt = ("" if round(w, 2) == 0 else fmt_float(w, 2)) if ok else "–"  # near-zero cells stay quiet
            rows.append({"q": q, "ql": labels[q], "kl": _key_label(k, labels, win), "w": w,
                         "kind": "cell" if ok else "masked", "txt": txt,
                         "query": tokens[q].display, "key": key_text,
                         "shown": fmt_float(w, 4) if ok else t("attention.masked")})
        total = float(cut.weights[r].sum())
        rows.append({"q": q, "ql": labels[q], "kl": "Σ", "w": total, "kind": "sum", "txt": fmt_float(total, sum_digits),
                     "query": tokens[q].display, "key": "Σ", "shown": fmt_float(total, 6)})
    return pd.DataFrame(rows)


@cached_chart
def heatmap(cut: att.Cropped, tokens, labels: list[str], boundary: str | None = None) -> alt.LayerChart:
    """Queries down, keys across; masked cells grey with '–'; a Σ column with each row's sum.

    boundary: the label of the first generated token; a vermilion rule is drawn before it.
    """
    win = cut.window
    big = len(win.keys) <= TEXT_IN_CELLS and not win.capped  # a short text: numbers in the cells, slanted labels
    df = heatmap_frame(cut, tokens, labels, sum_digits=3 if big else 2)
    x_order = [_key_label(k, labels, win) for k in win.keys] + ["Σ"]
    y_order = [labels[q] for q in win.queries]
    x = alt.X("kl:N", sort=x_order, title=t("attention.axis.key"),
              axis=alt.Axis(orient="top", labelAngle=-55 if big else -90, labelLimit=130,
                            labelFontSize=_size(14 if big else 12),  # upright labels: one per narrow column
                            labelOverlap=False if big else "greedy"))  # on a phone, 30 columns drop some
    y = alt.Y("ql:N", sort=y_order, title=t("attention.axis.query"), axis=alt.Axis(labelLimit=150, labelOverlap=False))
    tips = [alt.Tooltip("query:N", title=t("attention.tip.query")), alt.Tooltip("key:N", title=t("attention.tip.key")),
            alt.Tooltip("shown:N", title=t("attention.tip.weight"))]
    pick = alt.selection_point(name="row_pick", fields=["q"], on="click")
    base = alt.Chart(df).encode(x=x, y=y, tooltip=tips)
    cells = base.transform_filter("datum.kind != 'sum'").mark_rect(stroke="white", strokeWidth=0.5).encode(
        color=alt.condition("datum.kind == 'masked'", alt.value(MASKED),
                            alt.Color("w:Q", scale=alt.Scale(scheme=SEQUENTIAL, domain=[0, 1]),
                                      title=t("attention.legend.weight"), legend=alt.Legend(orient="bottom"))),
    ).add_params(pick)
    text = base.mark_text(fontSize=_size(14 if big else 12)).encode(
        text="txt:N",
        color=alt.when("datum.kind == 'cell' && datum.w > 0.55").then(alt.value("black"))
        .when("datum.kind == 'cell'").then(alt.value("white")).otherwise(alt.value("#555555")),
    )
    if not big:  # too small for numbers: keep the dashes out, keep the Σ column
        text = text.transform_filter("datum.kind == 'sum'")
    layers = [cells, text]
    if boundary is not None and boundary in y_order:
        rule = pd.DataFrame({"ql": [boundary], "kl": [boundary]})
        layers.append(alt.Chart(rule).mark_rule(color=MARK, strokeWidth=3).encode(
            y=alt.Y("ql:N", sort=y_order, bandPosition=0)))
        if boundary in x_order:
            layers.append(alt.Chart(rule).mark_rule(color=MARK, strokeWidth=3).encode(
                x=alt.X("kl:N", sort=x_order, bandPosition=0)))
    step = (34 if big else 20) + (10 if projection_on() else 0)
    return alt.layer(*layers).properties(height=alt.Step(step))


# ---------------------------------------------------------------- one token's bars


@cached_chart
def bars(tr: mb.Trace, pat: np.ndarray, query: int, generated_from: int | None = None) -> alt.Chart:
    """Where one query token looks: its row over the earlier tokens (the strongest BARS_LIMIT if long)."""
    row = pat[query, : query + 1]  # [query+1] keys it may see
    keep, rest = att.top_keys(row, BARS_LIMIT)
    labels = token_labels(tr.tokens, generated_from)
    gen_name, prompt_name = t("attention.kind.generated"), t("attention.kind.prompt")
    df = pd.DataFrame({"key": [labels[k] for k in keep], "w": [float(row[k]) for k in keep],
                       "kind": [gen_name if generated_from is not None and k >= generated_from else prompt_name
                                for k in keep]})
    if rest > 0:
        df.loc[len(df)] = [t("attention.others", n=fmt_int(len(row) - len(keep))), rest, t("attention.kind.others")]
    df["label"] = fmt_pcts(df["w"])
    order = list(df["key"])
    kinds = {prompt_name: PRIMARY, gen_name: OKABE_ITO[1], t("attention.kind.others"): MASKED}
    present = [k for k in kinds if k in set(df["kind"])]  # a legend only lists what is drawn
    colour = alt.Color("kind:N", title=None, legend=alt.Legend(orient="bottom") if len(present) > 1 else None,
                       scale=alt.Scale(domain=present, range=[kinds[k] for k in present]))
    base = alt.Chart(df).encode(
        y=alt.Y("key:N", sort=order, title=t("attention.axis.key"), axis=alt.Axis(labelLimit=160, labelOverlap=False)),
        x=alt.X("w:Q", title=t("attention.tip.weight"), scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("key:N", title=t("attention.tip.key")), alt.Tooltip("label:N", title=t("attention.tip.weight"))],
    )
    chart = base.mark_bar().encode(color=colour) + base.mark_text(align="left", dx=4, fontSize=_size(14)).encode(
        text="label:N")
    return chart.properties(height=alt.Step(36 if projection_on() else 26))


# ---------------------------------------------------------------- the grid of small multiples


def grid_groups(n_layers: int) -> list[int]:
    """The grid's layer choices: AVG = every layer at once, else the first layer of a group of GRID_GROUP."""
    return [AVG, *range(0, n_layers, GRID_GROUP)]


def grid_columns(n_layers: int, group: int) -> list[int]:
    """The layers drawn as columns: all of them and their average, or one group of GRID_GROUP layers."""
    if group == AVG:
        return [*range(n_layers), AVG]
    return list(range(group, min(group + GRID_GROUP, n_layers)))


def grid_frame(tr: mb.Trace, columns: list[int], limit: int = GRID_LIMIT) -> tuple[pd.DataFrame, att.Window]:
    """Every head of the given layers (AVG = the average) cut to the same window: columns = layers, rows = heads.

    One row per cell in small integer types (layer, head, r, c: the cell's row and column in its block; x, y:
    its place in the whole grid; w: float32 weight; ok: not masked). The texts the tooltips show are looked
    up in the chart from the window's tokens, so they are not repeated on each of the ~14,000 cells.
    """
    info, n = tr.info, len(tr.tokens)
    win = att.window(n, limit)
    nr, nc = len(win.queries), len(win.keys)
    heads = [*range(info.n_heads), AVG]
    frames = []
    r_idx, c_idx = np.meshgrid(np.arange(nr), np.arange(nc), indexing="ij")  # [R, C] each
    for col, layer in enumerate(columns):
        ok = att.layer_allowed(info, axis_value(layer), n)
        for row, head in enumerate(heads):
            cut = att.crop(att.pattern(tr.attentions, axis_value(layer), axis_value(head)), ok, win)
            x0, y0 = col * (nc + 1), row * (nr + 1)  # one empty cell between blocks
            frames.append(pd.DataFrame({
                "layer": np.int8(layer), "head": np.int8(head), "r": r_idx.ravel().astype(np.int8),
                "c": c_idx.ravel().astype(np.int8), "x": (x0 + c_idx).ravel().astype(np.int16),
                "y": (y0 + r_idx).ravel().astype(np.int16), "w": cut.weights.ravel().astype(np.float32),
                "ok": cut.allowed.ravel()}))
    return pd.concat(frames, ignore_index=True), win


def _grid_texts(tr: mb.Trace, win: att.Window) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The window's query tokens (by block row r) and key tokens (by block column c), for the tooltips."""
    qtext = [tr.tokens[q].display for q in win.queries]
    ktext = [t("attention.hidden_tip", n=fmt_int(win.n_hidden)) if k == att.HIDDEN else tr.tokens[k].display
             for k in win.keys]
    return (pd.DataFrame({"r": range(len(qtext)), "query": qtext}),
            pd.DataFrame({"c": range(len(ktext)), "key": ktext}))


def _js(text: str) -> str:
    """Our own text as a string literal inside a Vega expression."""
    return json.dumps(text)


@cached_chart
def grid(tr: mb.Trace, current: tuple[int, int], group: int = AVG) -> alt.LayerChart:
    """All heads as small multiples (or one group of layers, larger); click one to open it large.
    The open head has a vermilion frame."""
    info = tr.info
    columns = grid_columns(info.n_layers, group)
    df, win = grid_frame(tr, columns)
    nr, nc = len(win.queries), len(win.keys)
    width, height = len(columns) * (nc + 1), (info.n_heads + 1) * (nr + 1)
    xs = alt.Scale(domain=[-0.5, width], nice=False, zero=False)
    ys = alt.Scale(domain=[-(nr + 1) * 0.9, height], nice=False, zero=False, reverse=True)
    pick = alt.selection_point(name="grid_pick", fields=["layer", "head"], on="click")
    queries, keys = _grid_texts(tr, win)
    avg, masked = _js(t("attention.grid.avg")), _js(t("attention.masked"))
    decimal = "," if lang() == "pt-BR" else "."
    cells = alt.Chart(df[["layer", "head", "r", "c", "x", "y", "w", "ok"]]).mark_rect().transform_calculate(
        x2="datum.x + 1", y2="datum.y + 1",
        layer_name=f"datum.layer < 0 ? {avg} : '' + (datum.layer + {FIRST})",  # counted from 1, as layer_no()
        head_name=f"datum.head < 0 ? {avg} : '' + (datum.head + {FIRST})",
        shown=f"datum.ok ? replace(format(datum.w, '.3f'), '.', '{decimal}') : {masked}",
    ).transform_lookup(lookup="r", from_=alt.LookupData(queries, "r", ["query"])).transform_lookup(
        lookup="c", from_=alt.LookupData(keys, "c", ["key"])).encode(
        x=alt.X("x:Q", scale=xs, axis=None), x2="x2:Q", y=alt.Y("y:Q", scale=ys, axis=None), y2="y2:Q",
        color=alt.condition("datum.ok", alt.Color("w:Q", scale=alt.Scale(scheme=SEQUENTIAL, domain=[0, 1]),
                                                  title=t("attention.legend.weight"), legend=alt.Legend(orient="bottom")),
                            alt.value(MASKED)),
        tooltip=[alt.Tooltip("layer_name:N", title=t("attention.col.layer")),
                 alt.Tooltip("head_name:N", title=t("attention.col.head")),
                 alt.Tooltip("query:N", title=t("attention.tip.query")), alt.Tooltip("key:N", title=t("attention.tip.key")),
                 alt.Tooltip("shown:N", title=t("attention.tip.weight"))],
    ).add_params(pick)
    layers = [cells, _grid_headers(info, columns, nr, nc)]
    if current[0] in columns:
        layers.append(_grid_frame_mark(current, columns, info, nr, nc))
    per_unit = 8 if group == AVG else 10  # fewer, wider blocks: taller too
    return alt.layer(*layers).properties(height=max(240, per_unit * height))


def _grid_headers(info: mb.ModelInfo, columns: list[int], nr: int, nc: int) -> alt.LayerChart:
    """Layer numbers on top (full-attention layers in vermilion, bold), head names on the left."""
    top = pd.DataFrame({"x": [i * (nc + 1) + nc / 2 for i in range(len(columns))], "y": -(nr + 1) * 0.45,
                        "label": [t("attention.grid.avg") if c == AVG else str(layer_no(c)) for c in columns],
                        "kind": [t("attention.grid.avg_tip") if c == AVG else
                                 t(f"attention.type.{info.layer_types[c]}") for c in columns],
                        "full": [c != AVG and info.layer_types[c] == "full_attention" for c in columns]})
    heads = [*range(info.n_heads), AVG]
    side = pd.DataFrame({"x": -0.5, "y": [i * (nr + 1) + nr / 2 for i in range(len(heads))],
                         "label": [t("attention.grid.head_short", n=head_no(h)) if h != AVG else t("attention.grid.avg")
                                   for h in heads]})
    tips = [alt.Tooltip("label:N", title=t("attention.col.layer")), alt.Tooltip("kind:N", title=" ")]
    # On a narrow plot (a phone: 19 columns of ~16 px) two-digit numbers ran into each other: each number is as
    # large as its column holds (two digits), and "avg" goes a line higher, over the last layer's number
    column = f"(width / {len(columns)})"
    narrow = f"{column} < {len(t('attention.grid.avg')) * _size(13) * 0.6 + 4:.0f}"
    top = top.assign(avg=[c == AVG for c in columns])
    sliding = alt.Chart(top).transform_filter("!datum.full").mark_text(
        fontSize=alt.expr(f"datum.avg ? {_size(13)} : min({_size(13)}, ({column} - 2) / 1.25)"),
        dy=alt.expr(f"datum.avg && {narrow} ? {-_size(13)} : 0"), color="#333333").encode(
        x="x:Q", y="y:Q", text="label:N", tooltip=tips)
    full = alt.Chart(top).transform_filter("datum.full").mark_text(
        fontSize=alt.expr(f"min({_size(14)}, ({column} - 2) / 1.25)"), fontWeight="bold", color=MARK).encode(
        x="x:Q", y="y:Q", text="label:N", tooltip=tips)
    side_text = alt.Chart(side).mark_text(fontSize=_size(12), align="right", dx=-2).encode(
        x="x:Q", y="y:Q", text="label:N", tooltip=[alt.Tooltip("label:N", title=t("attention.col.head"))])
    return alt.layer(sliding, full, side_text)


def _grid_frame_mark(current: tuple[int, int], columns: list[int], info: mb.ModelInfo, nr: int, nc: int) -> alt.Chart:
    layer, head = current
    col = columns.index(layer)
    row = info.n_heads if head == AVG else head
    box = pd.DataFrame({"x": [col * (nc + 1) - 0.4], "x2": [col * (nc + 1) + nc + 0.4],
                        "y": [row * (nr + 1) - 0.4], "y2": [row * (nr + 1) + nr + 0.4],
                        "what": [view_title(info, layer, head)]})
    return alt.Chart(box).mark_rect(fill=None, stroke=MARK, strokeWidth=3).encode(
        x="x:Q", x2="x2", y="y:Q", y2="y2", tooltip=[alt.Tooltip("what:N", title=" ")])


# ---------------------------------------------------------------- "banco"


@cached_chart
def similarity_chart(sim: att.Similarity, show_raw: bool) -> alt.Chart:
    """Cosine similarity over layers: the word with itself (centred), different words (baseline), raw."""
    n = len(sim.centred)
    names = {"centred": t("attention.banco.line.word"), "baseline": t("attention.banco.line.base"),
             "raw": t("attention.banco.line.raw")}
    series = [("centred", sim.centred), ("baseline", sim.baseline)] + ([("raw", sim.raw)] if show_raw else [])
    df = pd.DataFrame([{"layer": layer, "sim": v, "series": names[name], "solid": name == "centred",
                        "shown": fmt_float(v, 3) if np.isfinite(v) else "—",
                        "where": t("attention.banco.embedding") if layer == 0 else
                        (t("attention.banco.final", n=n - 1) if layer == n - 1 else str(layer))}
                       for name, values in series for layer, v in enumerate(values)])
    palette = {"centred": PRIMARY, "baseline": "#777777", "raw": OKABE_ITO[1]}
    dashes = {"centred": [1, 0], "baseline": [6, 4], "raw": [2, 3]}  # in greyscale too, each line by its dash
    domain = [names[k] for k, _ in series]
    legend = alt.Legend(orient="bottom", direction="vertical", labelLimit=320, symbolType="stroke",
                        symbolStrokeWidth=3, symbolSize=400)
    colour = alt.Color("series:N", title=None, legend=legend,
                       scale=alt.Scale(domain=domain, range=[palette[k] for k, _ in series]))
    dash = alt.StrokeDash("series:N", title=None, legend=legend,  # the same legend: one entry a line, dashed
                          scale=alt.Scale(domain=domain, range=[dashes[k] for k, _ in series]))
    base = alt.Chart(df).encode(
        x=alt.X("layer:Q", title=t("attention.banco.axis.layer", n=n - 1), scale=alt.Scale(domain=[0, n - 1], nice=False),
                axis=alt.Axis(tickMinStep=1, values=list(range(n)))),
        y=alt.Y("sim:Q", title=t("attention.banco.axis.sim"), scale=alt.Scale(domain=[-0.3, 1.0])),
        color=colour,
        strokeDash=dash,
        tooltip=[alt.Tooltip("where:N", title=t("attention.col.layer")), alt.Tooltip("series:N", title=" "),
                 alt.Tooltip("shown:N", title=t("attention.banco.axis.sim"))],
    )
    return (base.mark_line(strokeWidth=3) + base.mark_point(filled=True, size=60)).properties(height=440)  # includes the legend

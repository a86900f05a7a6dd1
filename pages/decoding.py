"""Decoding strategies (Holtzman et al. 2019): five strategies side by side, the beam tree, the feedback loop,
and the shipped comparison. The model runs only when a button asks for it."""
import streamlit as st

from model_backend.lessons import decoding as dec
from ui import a11y, backend
from ui import decoding_view as view
from ui.charts import projection_on, show
from ui.i18n import fmt_float, fmt_int, fmt_pct, lang, t
from ui.nav import LINK_FROM, next_page_link
from ui.share import publish, restore, share_box
from ui.untrusted import escape_markdown
from ui.widgets import data_table, intro, model_text, prompt_box

PARAMS = view.link_params()


def side_by_side(prompt: str) -> dec.BeamRun | None:
    """Section 1; returns the beam run for section 2 once the visitor has run it."""
    st.header(t("decoding.side.header"))
    st.markdown(t("decoding.side.text", k=dec.TOP_K, p=fmt_float(dec.TOP_P, 2), p_pct=fmt_pct(dec.TOP_P, 0)))
    if projection_on():  # large letters: two rows of two, so no label breaks inside a word
        c = st.columns(2, vertical_alignment="bottom") + st.columns(2, vertical_alignment="bottom")
    else:
        c = st.columns([1.5, 1.6, 0.9, 2.1], vertical_alignment="bottom")  # the button's label fits at 1280 px
    widths = {w: fmt_int(w) for w in dec.BEAM_WIDTHS}  # precomputed: AppTest formats outside the script
    if st.session_state.get("decoding_width") not in widths:  # a width is always picked (none put w=None in the link)
        st.session_state["decoding_width"] = PARAMS[1].default
    width = c[0].segmented_control(t("decoding.ctl.width"), list(widths), key="decoding_width", format_func=widths.get,
                                   help=t("decoding.ctl.width.help"), required=True)
    new = c[1].slider(t("decoding.ctl.tokens"), dec.MIN_NEW, dec.MAX_NEW, step=10, key="decoding_tokens")
    seed = int(c[2].number_input(t("decoding.ctl.seed"), 0, 2**31 - 1, step=1, key="decoding_seed"))
    settings = (prompt, int(width), int(new), seed)
    if c[3].button(t("decoding.run"), type="primary", icon=":material/play_arrow:", key="decoding_go"):
        st.session_state["decoding_ran"] = settings
    ran = st.session_state.get("decoding_ran")
    if ran is None:
        st.caption(t("decoding.run.hint"))
        return None
    if ran != settings:
        st.caption(t("decoding.run.changed"))
        return None
    conts, beam = view.side_by_side(*settings)
    a11y.announce_once(("decoding", settings), t("a11y.live.strategies", n=len(conts)))
    data_table(view.metrics_frame(conts, width), hide_index=True, width="stretch")
    st.caption(t("decoding.table.caption", n=conts[-1].batch))  # the sampled strategies' batch
    note = view.dtype_note()
    if note:
        st.caption(note)
    show(view.text_chart(view.text_frame(conts, width)))
    st.caption(t("decoding.text.caption"))
    with st.expander(t("decoding.text.plain"), icon=":material/notes:"):
        for cont in conts:
            st.text(view.strategy_label(cont.strategy, width))
            model_text(cont.text)
    return beam


def tree(beam: dec.BeamRun | None) -> None:
    st.header(t("decoding.tree.header"))
    st.markdown(t("decoding.tree.text"))
    if beam is None:
        st.caption(t("decoding.tree.none"))
        return
    nodes, edges = view.tree_frames(beam)
    key = view.tree_key(beam)  # a click on one tree is not carried to another run's tree
    picked = view.picked_node(st.session_state.get(key, {}).get("selection", {}), nodes["id"])
    event = show(view.tree_chart(nodes, edges, picked), on_select="rerun", selection_mode="node", key=key)
    picked = view.picked_node(getattr(event, "selection", {}) if event else {}, nodes["id"])
    steps = int(nodes["step"].max())
    kept = sum(1 for n in beam.nodes if n.step == 1 and n.status == "kept")
    st.caption(t("decoding.tree.caption", w=beam.width, steps=steps, kept=kept,
                 pruned=sum(1 for n in beam.nodes if n.step == 1 and n.status != "kept"),
                 score=fmt_float(beam.sequence_score, 3)) + " " + view.winner_note(beam))
    node = next((n for n in beam.nodes if n.id == picked), None)
    step = node.step if node else 1
    st.subheader(t("decoding.tree.step", n=step))
    if node:
        st.caption(t("decoding.tree.picked", rank=node.rank, n=step))
    data_table(view.step_frame(beam, step), hide_index=True, width="stretch")


@st.fragment
def feedback_panel(panel, share) -> None:
    """Section 3 and the link: one fragment writing into their places, so its controls rerun the panel and the
    link follows them (`share`: the share box's place at the end of the page)."""
    with panel:
        feedback_section()
    with share:
        share_box("decoding", PARAMS)


def feedback_section() -> None:
    st.header(t("decoding.loop.header"))
    st.markdown(t("decoding.loop.text"))
    presets = list(view.SENTENCES.values())
    st.pills(t("decoding.loop.presets"), presets, key="decoding_sentence_pick", on_change=_use_sentence)
    if projection_on():  # large letters: the sentence on a row of its own, so no label is cut
        c = [st.container()] + st.columns(3, vertical_alignment="bottom")
    else:
        c = st.columns([3, 1, 1, 1], vertical_alignment="bottom")
    sentence = c[0].text_input(t("decoding.loop.sentence"), key="decoding_sentence", max_chars=300)
    times = c[1].slider(t("decoding.loop.times"), 2, 15, key="decoding_times")
    shown = {r: fmt_float(r, 1) for r in (1.1, 1.2, 1.3, 1.5, 2.0)}
    penalty = c[2].select_slider(t("decoding.loop.penalty"), list(shown), key="decoding_penalty",
                                 format_func=shown.get)
    settings = (sentence, int(times), float(penalty))
    if c[3].button(t("decoding.loop.run"), icon=":material/show_chart:", key="decoding_loop_go"):
        st.session_state["decoding_loop_ran"] = settings
    if not sentence.strip():
        st.caption(t("decoding.loop.empty"))
        return
    if st.session_state.get("decoding_loop_ran") != settings:
        st.caption(t("decoding.loop.hint"))
        return
    try:
        curve = view.feedback(*settings)
    except ValueError:
        st.caption(t("decoding.loop.empty"))
        return
    means, points = view.feedback_frames(curve)
    show(view.feedback_chart(means, points))
    raw, pen = curve.means(), curve.means(True)
    n = len(raw)
    if n < times:
        st.caption(t("decoding.loop.cut", n=n, limit=fmt_int(view.LOOP_TOKENS)))
    st.caption(t("decoding.loop.caption", first=fmt_pct(raw[0]), last=fmt_pct(raw[-1]), n=n,
                 verdict=t(f"decoding.loop.{view.climb(raw)}"), r=fmt_float(curve.penalty, 1), pfirst=fmt_pct(pen[0]),
                 plast=fmt_pct(pen[-1])))


def _use_sentence() -> None:
    choice = st.session_state.get("decoding_sentence_pick")
    if choice:
        st.session_state["decoding_sentence"] = choice


def comparison() -> None:
    st.header(t("decoding.cmp.header"))
    data = view.shipped()
    if data is None:
        st.caption(t("decoding.cmp.missing"))
        return
    s = data["settings"]
    langs = [p["lang"] for p in data["prompts"]]
    pt, en = langs.count("pt-BR"), langs.count("en")
    st.markdown(t("decoding.cmp.text", n=len(data["prompts"]), pt=pt, en=en, tokens=s["tokens"], w=s["width"],
                  samples=s["samples"], date=data["date"], wall=fmt_int(data["wall_s"])))
    if not data.get("complete", True):
        st.caption(t("decoding.cmp.partial", n=len(data["prompts"]), total=data["prompts_listed"]))
    table = data["table"]
    data_table(view.shipped_frame(table, s["width"]), hide_index=True, width="stretch")
    st.caption(t("decoding.cmp.caption", n=len(data["prompts"])))
    show(view.tradeoff_chart(table, s["width"]))
    st.caption(t("decoding.cmp.chart.caption"))
    verdict(table, s["width"])
    live(data)


def verdict(table: list[dict], width: int) -> None:
    fails = view.ordering(table)
    row = {r["strategy"]: r for r in table}
    if not fails:
        st.markdown(t("decoding.cmp.verdict.yes",
                      rep_det=f"{fmt_pct(row['greedy']['repeated'])} / {fmt_pct(row['beam']['repeated'])}",
                      lp_pure=fmt_float(row["sampling"]["mean_logprob"], 2), rep_p=fmt_pct(row["top_p"]["repeated"]),
                      lp_p=fmt_float(row["top_p"]["mean_logprob"], 2)))
    else:
        st.markdown(t("decoding.cmp.verdict.no", detail="; ".join(t(f"decoding.cmp.fail.{f}") for f in fails)))


def live(data: dict) -> None:
    st.subheader(t("decoding.live.header"))
    rows = {p["index"]: p for p in data["prompts"]}  # the prompts the shipped run covered, by their index
    if st.session_state.get("decoding_bench_prompt") not in rows:
        st.session_state["decoding_bench_prompt"] = next(iter(rows))
    labels = {i: p["prompt"] for i, p in rows.items()}
    c = st.columns([3.4, 1.6], vertical_alignment="bottom")
    index = c[0].selectbox(t("decoding.live.pick"), list(labels), key="decoding_bench_prompt", format_func=labels.get)
    if c[1].button(t("decoding.live.run"), icon=":material/replay:", key="decoding_live_go"):
        st.session_state["decoding_live_ran"] = index
    s = data["settings"]
    if st.session_state.get("decoding_live_ran") != index:
        st.caption(t("decoding.live.hint", dtype=data["dtype"], n=2 + 3 * s["samples"], tokens=s["tokens"]))
        return
    now, machine = view.compare_live(index, data)
    data_table(view.live_frame(rows[index]["rows"], now, s["width"]), hide_index=True, width="stretch")
    st.caption(t("decoding.live.caption", date=data["date"], dtype=data["dtype"], threads_then=data["threads"],
                 cpu_then=view.cpu_name(data), threads_now=machine["threads"], cpu_now=view.cpu_name(machine))
               + " " + view.live_verdict(rows[index]["rows"], now, data, machine))


def render() -> None:
    if st.query_params.get(LINK_FROM):  # a link from another page (ui.nav.decoding_link): its prompt wins, even
        st.session_state.pop("_restored_decoding", None)  # over one typed here earlier; publish() drops the mark
    restore("decoding", PARAMS)  # a shared link's values, before any widget exists
    if "prompt_decoding" not in st.session_state and st.session_state.get("prompt") in (
            None, t("common.default_prompt")):
        st.session_state["prompt_decoding"] = view.default_prompt(lang())  # a story opening, unless one was typed
    st.session_state.setdefault("decoding_sentence", view.SENTENCES[lang()])
    for p in PARAMS[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("decoding", model=escape_markdown(backend.model_label()))
    publish("decoding", PARAMS)  # a notice here, at the top, if a link had bad values
    prompt = prompt_box("decoding")
    if prompt is not None:
        if view.prompt_tokens(prompt) > view.PROMPT_TOKENS:
            st.info(t("common.truncated", n=fmt_int(view.prompt_tokens(prompt)), kept=fmt_int(view.PROMPT_TOKENS)),
                    icon=":material/content_cut:")
    beam = side_by_side(prompt) if prompt is not None else None
    tree(beam)
    panel = st.container()  # section 3, drawn by its fragment below
    comparison()
    feedback_panel(panel, st.container())  # and the link, at the end of the page
    next_page_link("decoding")


render()

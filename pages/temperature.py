"""Temperature and sampling: the seed's worked example, then the real model's distribution through
generate()'s chain (repetition penalty -> temperature -> top-k -> top-p), draws, and a greedy loop."""
import streamlit as st

import model_backend as mb
from model_backend.core import stats
from model_backend.lessons import temperature as sv
from ui import backend, penalties_view, presets_view
from ui import temperature_view as view
from ui.charts import projection_on, save_buttons, show
from ui.export import downloads
from ui.i18n import fmt_float, fmt_int, fmt_pct, t
from ui.nav import decoding_link, next_page_link
from ui.share import publish, restore, share_box
from ui.untrusted import escape_markdown
from ui.widgets import data_table, intro, model_text, prompt_box, show_error, timed, truncation_notice


def seed_example() -> None:
    st.header(t("temperature.seed.header"))
    st.markdown(t("temperature.seed.text"))
    text = st.text_input(t("temperature.seed.input"), key="temperature_logits", help=t("temperature.seed.help"))
    try:
        logits = sv.parse_logits(text)
    except mb.InvalidInput as exc:
        show_error(exc, prefix="temperature.err")  # the typed value as a code span, never Markdown
        return
    rows = sv.temperature_table(logits)
    data_table(view.seed_table(rows), hide_index=True, width="stretch")
    is_seed = logits == sv.SEED_LOGITS
    table_diffs = [t("temperature.seed.caption_diff", name=chr(ord("A") + i), t=fmt_float(row.temperature, 1),
                     exact=fmt_pct(row.probs[i]), seed=row.seed_pct[i]) for row in rows for i in row.mismatches]
    st.caption(t("temperature.seed.caption_seed", diffs="; ".join(table_diffs)) if is_seed
               else t("temperature.seed.caption_own"))
    show(view.top_prob_chart(sv.top_prob_curve(logits, view.CURVE_T), sv.SEED_CURVE if is_seed else None))
    diffs = sv.seed_curve_mismatches() if is_seed else ()
    st.caption(view.curve_caption(logits) if not is_seed else t(
        "temperature.curve.caption_seed", n=len(diffs), floor=fmt_pct(1 / len(logits)),
        diffs="; ".join(t("temperature.curve.diff", t=fmt_float(temp, 1), seed=printed,
                          exact=fmt_pct(p, 3 if p > 0.995 else 1)) for temp, p, printed in diffs)))


def live_panel(prompt: str) -> None:
    """The sliders and the bars run in the browser (no server round trip per step); the panels below
    follow the sliders in a fragment, rerun once a move has settled (Streamlit reports the chart's
    sliders 150 ms after the last step)."""
    st.html(view.BINDINGS_CSS + (view.BINDINGS_PROJECTION_CSS if projection_on() else ""))  # our own static CSS
    live_fragment(prompt, view.state_params())


@st.fragment
@timed("temperature.live_panel")
def live_fragment(prompt: str, init: mb.SamplingParams) -> None:
    """Everything these sliders change: sampling math on the cached logits, never a forward pass.

    The bars' spec is built from `init` (the values at the page's last full run), so it stays the same
    when this fragment reruns and the browser keeps its chart, its sliders and their focus."""
    event = show(view.live_bars_for(prompt, init), on_select="rerun", key="temperature_live",
                 selection_mode=[s[0] for s in view.SLIDERS], save=False)
    params = view.follow(event)  # the sliders' values now, into session_state (the link reads them there)
    save_buttons(view.live_bars_for(prompt, params))  # the saved image: the bars at the sliders' values now
    chain = view.chain(prompt, params)
    names = view.labels(chain.ids)
    st.caption(t("temperature.bars.caption", n=len(names), vocab=fmt_int(len(chain.final))))
    if params.greedy:
        st.info(t("temperature.greedy.on"), icon=":material/trending_flat:")
    nucleus = next((s.kept for s in chain.stages if s.name == "top_p"), None)
    m = st.columns(3)
    m[0].metric(t("temperature.metric.kept"), fmt_int(chain.stages[-1].kept),
                help=t("temperature.metric.kept.help", nucleus=fmt_int(nucleus) if nucleus else "—"))
    m[1].metric(t("temperature.metric.entropy"), f"{fmt_float(chain.stages[-1].entropy_bits, 2)} bits")
    m[2].metric(t("temperature.metric.top"), fmt_pct(float(chain.final.max())))
    show(view.entropy_chart(view.entropy(prompt, params.repetition_penalty), params.temperature, chain))
    st.caption(t("temperature.entropy.caption"))

    st.subheader(t("temperature.chain.header"))
    st.markdown(t("temperature.chain.text"))
    show(view.chain_heatmap(chain, names))
    st.caption(t("temperature.chain.caption"))
    data_table(view.stage_table(chain, params), hide_index=True, width="stretch")
    downloads(view.chain_frame(chain, names), "sampling-chain", key="temperature_dl_chain")

    st.subheader(t("temperature.draw.header"))
    c = st.columns(3)
    sizes = {n: fmt_int(n) for n in view.DRAW_SIZES}  # precomputed: AppTest formats outside the script
    n = c[0].segmented_control(t("temperature.draw.n"), list(sizes), key="temperature_n", format_func=sizes.get) or 1000
    seed = int(c[1].number_input(t("temperature.draw.seed"), 0, 2**31 - 1, step=1, key="temperature_seed"))
    if c[2].button(t("temperature.draw.button", n=fmt_int(n)), key="temperature_draw", type="primary"):
        st.session_state["temperature_drawn"] = True
    if st.session_state.get("temperature_drawn"):
        draw = sv.draw_samples(chain.final, chain.ids, n, seed)
        show(view.draw_chart(draw, names))
        st.caption(t("temperature.draw.caption", n=fmt_int(n), seed=seed, distinct=fmt_int(draw.distinct)))
    share_box("temperature", view.link_params())  # inside the fragment: the link follows the sliders


@st.fragment
def compare_panel() -> None:
    st.header(t("temperature.pair.header"))
    st.markdown(t("temperature.pair.text"))
    c = st.columns(2)
    p = c[0].slider(t("temperature.pair.p"), 0.05, 0.99, 0.9, 0.01, key="temperature_pair_p")
    temp = c[1].slider(t("temperature.pair.t"), 0.05, 2.0, 1.0, 0.05, key="temperature_pair_T")
    sizes, tops = {}, {}
    for col, prompt in zip(st.columns(2), view.PAIR):
        chain = view.chain(prompt, mb.SamplingParams(temperature=temp, top_p=p))
        sizes[prompt], tops[prompt] = chain.stages[-1].kept, float(chain.before_cut.max())
        top = ", ".join(f"{escape_markdown(name)} {fmt_pct(float(chain.final[i]))}" for name, i in  # help: Markdown
                        zip(view.labels(chain.ids[:3]), chain.ids[:3]))
        col.metric(t("temperature.pair.nucleus", prompt=prompt, p=fmt_float(p, 2)), fmt_int(sizes[prompt]),
                   help=t("temperature.pair.top", top=top))
    show(view.mass_chart({q: view.mass(q, temp) for q in view.PAIR}, sizes, p))
    st.caption(t("temperature.pair.caption") + " " + view.pair_text(temp, tops, sizes))


def dark_section(prompt: str) -> None:
    st.header(t("temperature.dark.header"))
    st.markdown(t("temperature.dark.text"))
    grid = view.nucleus_grid(prompt)
    show(view.grid_chart(grid))
    ends = grid.groupby("T", sort=False)["size"].agg(["min", "max"])  # rows in GRID_T order: lowest T first
    lo, hi = ends.index[0], ends.index[-1]
    st.caption(t("temperature.dark.caption", lo=lo, hi=hi, lo_min=fmt_int(ends["min"][lo]),
                 lo_max=fmt_int(ends["max"][lo]), hi_min=fmt_int(ends["min"][hi]), hi_max=fmt_int(ends["max"][hi])))


@st.fragment
def loop_panel() -> None:
    st.header(t("temperature.loop.header"))
    st.markdown(t("temperature.loop.text"))
    shown = {r: fmt_float(r, 1) for r in view.LOOP_PENALTIES}  # precomputed: AppTest formats outside the script
    r = st.select_slider(t("temperature.ctl.r"), view.LOOP_PENALTIES, value=1.3, key="temperature_loop_r",
                         format_func=shown.get, help=t("temperature.loop.runs"))
    counts = {}
    for col, (case, prompt, n) in zip(st.columns(2), view.LOOP_CASES):
        with col:
            st.subheader(t(f"temperature.loop.case.{case}"))
            model_text(prompt)
            for penalty in (1.0, r):
                run = view.loop_run(prompt, penalty, n)
                st.markdown(t("temperature.loop.with", r=fmt_float(penalty, 1)) if penalty != 1.0
                            else t("temperature.loop.without"))
                model_text(run.completion)
                if case == "needed":
                    counts[penalty] = stats.counted(run.completion, view.COUNT_FROM)
                    st.caption(t("temperature.loop.counted", n=counts[penalty]))
                    continue
                loop = stats.find_loop([s.token.id for s in run.steps])
                st.caption(t("temperature.loop.found", period=loop.period, repeats=loop.repeats) if loop.period
                           else t("temperature.loop.none"))
    st.markdown(t("temperature.loop.warning") + " " + view.count_verdict(r, counts[1.0], counts[r]) + " "
                + t("temperature.loop.advice"))
    decoding_link(next(prompt for case, prompt, _ in view.LOOP_CASES if case == "loop"), "temperature")


def render() -> None:
    links = view.link_params()
    restore("temperature", links)  # a shared link's values, before any widget exists
    if "prompt_temperature" not in st.session_state and st.session_state.get("prompt") in (
            None, t("common.default_prompt")):
        st.session_state["prompt_temperature"] = view.PRESETS[0]  # the preset, unless one was typed
    st.session_state.setdefault("temperature_logits", t("temperature.seed.default"))  # in the visitor's style
    for p in links[1:]:
        st.session_state.setdefault(p.key, p.default)
    intro("temperature", model=escape_markdown(backend.model_label()))
    publish("temperature", links)  # a notice here, at the top, if a link had bad values
    seed_example()
    st.header(t("temperature.real.header"))
    st.pills(t("temperature.presets"), view.PRESETS, key="temperature_preset", on_change=_use_preset)
    prompt = prompt_box("temperature")
    if prompt is not None:
        _, ids, truncated_from = view.prompt_logits(prompt)  # the cached forward pass of this prompt
        truncation_notice(truncated_from, len(ids))
        live_panel(prompt)
        dark_section(prompt)
        presets_view.panel(prompt)  # the seed's factual / creative advice, run live on this prompt
    compare_panel()
    loop_panel()
    penalties_view.panel()  # the seed's subtractive penalties beside transformers' repetition penalty
    next_page_link("temperature")


def _use_preset() -> None:
    choice = st.session_state.get("temperature_preset")
    if choice:
        st.session_state["prompt_temperature"] = choice
        st.session_state["prompt"] = choice


render()

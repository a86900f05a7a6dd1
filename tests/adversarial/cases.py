"""The hostile inputs every page and every link is tested with.

(A lone surrogate cannot travel from a browser to the server; the backend tests cover it.)"""

HOSTILE_TEXT = {
    "empty": "",
    "whitespace": "   \n\t  ",
    "huge_20k": ("Olá, mundo! " * 1700)[:20_000],
    "emoji_zwj": "👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 família",
    "rtl": "مرحبا بالعالم שלום עולם",
    "zero_width": "a\u200bb\u200cc\u200dd\ufeffe\u202eRTL override",
    "control": "nul\x00bell\x07esc\x1b[31mred\x7f",
    "script": "<script>window.__xss=1;alert(1)</script>",
    "img_onerror": "<img src=x onerror=\"window.__xss=1;alert(1)\">",
    "md_js_link": "[click me](javascript:alert(1)) **bold** <b>b</b>",
}

HOSTILE_NUMBERS = ["nan", "inf", "-1", "1e400", "abc", "", "99999999999999999999", "0x10", "<b>1</b>"]

# Markdown that would turn text into a link, an image (a request to another host), formatting or maths
# if it reached st.markdown, st.warning, st.caption, st.table, a label or a help text unescaped.
MARKDOWN_PROBES = {
    "backtick": "x`y",
    "link_tail": "](https://example.invalid/tail)",
    "link": "[a](https://example.invalid/link)",
    "image": "![x](https://example.invalid/x.png)",
    "bold": "**bold**",
    "heading": "# heading",
    "autolink": "<https://example.invalid/angle>",
    "math": "$x$",
    "bare_url": "https://example.invalid/bare www.example.invalid me@example.invalid",
    "directive": ":red[red] :material/home:",
}
# All of them in one value (a link carries one value per key): one page load tries every probe.
MARKDOWN_BATCH = "# " + " ".join(MARKDOWN_PROBES.values())

"""What a Markdown renderer makes of a string that Streamlit would render: used to check that text from a
visitor, a link or the model arrives as plain characters (markdown-it-py, a CommonMark parser, plus the
GFM autolink rule that Streamlit's renderer applies to text after escapes are read)."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from markdown_it import MarkdownIt

from ui.untrusted import WORD_JOINER

_MD = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
_RAW = MarkdownIt("commonmark", {"html": False}).disable("text_join")  # escaped characters stay apart
# GFM autolink literals, as mdast-util-gfm-autolink-literal finds them in text nodes
AUTOLINK = re.compile(r"(?i)(https?://|www\.)[-.\w]+|[-.\w+]+@[-\w]+(\.[-\w]+)+")
ALLOWED_TAGS = {"p", "code", "br"}


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.open: list[str] = []
        self.formatted: list[tuple[str, str]] = []  # (tag, text) inside a formatting element
        self.targets: list[str] = []  # every href and src
        self.tags: list[str] = []
        self.text: list[str] = []
        self.plain: list[str] = []  # text outside code spans: where GFM looks for autolinks
        self.in_code = 0

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.open.append(tag)
        self.in_code += tag == "code"
        self.targets += [v or "" for k, v in attrs if k in ("href", "src")]

    def handle_endtag(self, tag):
        self.in_code -= tag == "code"
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]

    def handle_data(self, data):
        self.text.append(data)
        if not self.in_code:
            self.plain.append(data)
        self.formatted += [(tag, data) for tag in self.open if tag not in ("p", "code", "br")]


def rendered(source: str) -> tuple[set[str], str, str]:
    """(the HTML tags the Markdown makes, the text a reader sees, the part of it outside code spans)."""
    c = _Collect()
    c.feed(_MD.render(source))
    return set(c.tags), "".join(c.text), "".join(c.plain)


def unescaped(source: str) -> str:
    """The source's plain text that no backslash escaped and no code span holds, runs joined by NUL:
    where Streamlit's maths (`$x$`) and directives (`:red[x]`) would start."""
    runs = []
    for block in _RAW.parse(source):
        for tok in block.children or []:
            runs.append(tok.content if tok.type == "text" else "\0")
    return "".join(runs)


def problems(source: str, probe: str) -> list[str]:
    """Why `source`, rendered, does not show `probe` as plain characters ([] when it does)."""
    tags, text, plain = rendered(source)
    out = []
    if tags - ALLOWED_TAGS:
        out.append(f"Markdown made {sorted(tags - ALLOWED_TAGS)}")
    if AUTOLINK.search(plain):
        out.append(f"a URL or address would be linked: {AUTOLINK.search(plain).group(0)!r}")
    raw = unescaped(source)
    if re.search(r"\$[^\0]*\$", raw):
        out.append("two unescaped $ would make maths")
    if re.search(r":[A-Za-z][\w-]*\[", raw):
        out.append("an unescaped :name[ would make a directive")
    if ":material/" in source:
        out.append("Streamlit would rewrite ':material/' in the source")
    if probe not in text.replace(WORD_JOINER, "").replace("↵", "\n"):
        out.append(f"{probe!r} is not in the text shown: {text[:200]!r}")
    return out


def probe_hits(source: str) -> list[str]:
    """What tests.adversarial.cases.MARKDOWN_PROBES made in `source`, rendered as Markdown: links or images
    to example.invalid, linked addresses, bold "bold", a "heading", maths, a directive. Our own Markdown
    around the probes (bold labels, links of our own) is left alone."""
    c = _Collect()
    c.feed(_MD.render(source))
    plain = "".join(c.plain)
    out = [f"<a>/<img> to {t}" for t in c.targets if "example" in t]
    out += [f"linked address {m.group(0)!r}" for m in AUTOLINK.finditer(plain) if "example" in m.group(0)]
    out += [f"<{tag}> around {text!r}" for tag, text in c.formatted if "bold" in text or "heading" in text]
    raw = unescaped(source)
    if "$x$" in raw:
        out.append("maths from $x$")
    if ":red[" in raw:
        out.append("a :red[...] directive")
    if ":material/home:" in source:
        out.append("a :material/home: icon")
    return out

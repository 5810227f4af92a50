"""The reports a designer opens in a browser: a report's Markdown rendered by markdown-it-py (CommonMark
with tables) into one self-contained page, its plots embedded as data URIs, every command block with a
button that copies it. Nothing is fetched: the page works from a file, offline, sent by mail."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Mapping

from markdown_it import MarkdownIt

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans JP",sans-serif;
margin:0 auto;padding:1.5rem;max-width:1200px;line-height:1.5;color:#222;background:#fdfcf9}
h1{font-size:1.6rem;border-bottom:2px solid #b3412f;padding-bottom:.3rem}
h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid #ddd}
h3{font-size:1.1rem}
table{border-collapse:collapse;margin:.6rem 0;font-size:.9rem}
th,td{border:1px solid #d8d2c4;padding:.25rem .55rem;text-align:left;vertical-align:top}
th{background:#f3eee2}
tr:nth-child(even) td{background:#faf8f2}
code{background:#f3eee2;padding:0 .2rem;border-radius:3px}
pre{position:relative;background:#272822;color:#f8f8f2;padding:.7rem 4.5rem .7rem .8rem;border-radius:6px;
overflow-x:auto}
pre code{background:none;color:inherit;padding:0}
button.copy{position:absolute;top:.4rem;right:.4rem;font-size:.75rem;padding:.15rem .5rem;cursor:pointer;
border:1px solid #888;border-radius:4px;background:#444;color:#eee}
img{max-width:100%;height:auto}
p>img{display:inline-block;max-width:49%;vertical-align:top;margin:.2rem}
blockquote{border-left:4px solid #d9a400;margin:.6rem 0;padding:.2rem .8rem;background:#fff8e1}
ol>li{margin-bottom:.6rem}
"""

#: A page in Japanese: the Japanese fonts of each system before any other, a looser line for kana and
#: kanji, and no italics (most Japanese fonts have none; browsers slant them badly).
STYLE_JA = """
body{font-family:"Hiragino Sans","Hiragino Kaku Gothic ProN","Noto Sans CJK JP","Noto Sans JP",
"Source Han Sans JP","Yu Gothic UI","Yu Gothic",Meiryo,"IPAexGothic",system-ui,-apple-system,"Segoe UI",
sans-serif;line-height:1.7}
em{font-style:normal;font-weight:bold}
"""

#: The words of a page, by language: the copy button's.
WORDS = {"en": {"copy": "copy", "copied": "copied"}, "ja": {"copy": "コピー", "copied": "コピーしました"}}

# Each command block gets a button that copies its text (written here; no library).
SCRIPT = """
document.querySelectorAll('pre').forEach(function (pre) {
  var button = document.createElement('button');
  button.className = 'copy'; button.type = 'button'; button.textContent = __COPY__;
  button.addEventListener('click', function () {
    var text = pre.querySelector('code') ? pre.querySelector('code').innerText : pre.innerText;
    navigator.clipboard.writeText(text.trim()).then(function () {
      button.textContent = __COPIED__; setTimeout(function () { button.textContent = __COPY__; }, 1500);
    });
  });
  pre.appendChild(button);
});
"""

_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")


def embed(markdown: str, images: Mapping[str, bytes]) -> str:
    """The Markdown with every image link to one of `images` (by file name) made a PNG data URI."""

    def swap(m: re.Match[str]) -> str:
        data = images.get(m[2])
        if data is None:
            return m[0]
        return f"![{m[1]}](data:image/png;base64,{base64.b64encode(data).decode()})"

    return _IMAGE.sub(swap, markdown)


def render(markdown: str) -> str:
    """Markdown (CommonMark with tables) as HTML."""
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)


def page(title: str, markdown: str, images: Mapping[str, bytes] | None = None, lang: str = "en") -> str:
    """One self-contained HTML page of a report, in `lang` ("en" or "ja": the page's `lang`, its fonts
    and its button's words; the report's words are the caller's)."""
    if lang not in WORDS:
        raise ValueError(f"a page's language is one of {', '.join(WORDS)}, not {lang!r}")
    body = render(embed(markdown, images or {}))
    style = STYLE + (STYLE_JA if lang == "ja" else "")
    script = SCRIPT.replace("__COPY__", repr(WORDS[lang]["copy"])).replace(
        "__COPIED__", repr(WORDS[lang]["copied"])
    )
    return (
        f"<!doctype html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{style}</style></head>\n<body>\n{body}"
        f"<script>{script}</script>\n</body></html>\n"
    )

"""The small Markdown subset our ``report.md`` files use, turned into HTML for their
``report.html`` siblings (:mod:`datasched.analysis.report_html`).

Written here rather than taken from a library because the reports use only headings,
paragraphs, bullet and numbered lists, pipe tables, fenced code, inline code, emphasis, links
and images, and the pages must be byte-identical from one run to the next whatever library
version is installed. Anything else is shown as plain (escaped) paragraph text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
NUMBERED = re.compile(r"^\s*\d+[.)]\s+(.*)$")
IMAGE_LINE = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)\s*$")
TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
FENCE = "```"

#: Inline rules, applied to already-escaped text in this order (code first: its content is literal).
CODE_SPAN = re.compile(r"`([^`]+)`")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
STRONG = re.compile(r"\*\*(.+?)\*\*")
EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")

#: Called for a line that is only an image: returns the HTML that replaces it (a figure).
ImageBlock = Callable[[str, str], str]


def inline(text: str) -> str:
    """One line's inline Markdown as HTML (the text is escaped first)."""
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    out = CODE_SPAN.sub(keep_code, html.escape(text, quote=False))
    out = IMAGE.sub(lambda m: f'<img src="{m.group(2)}" alt="{m.group(1)}">', out)
    out = LINK.sub(lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>', out)
    out = STRONG.sub(r"<strong>\1</strong>", out)
    out = EMPHASIS.sub(r"<em>\1</em>", out)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(lines: list[str]) -> str:
    head, rows = _cells(lines[0]), [_cells(line) for line in lines[2:]]
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{inline(c)}</th>" for c in head) + "</tr></thead>", "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>" for row in rows]
    return "\n".join([*out, "</tbody>", "</table>"])


def _default_image(alt: str, src: str) -> str:
    return f'<p><img src="{html.escape(src)}" alt="{html.escape(alt)}"></p>'


def to_html(markdown: str, image_block: ImageBlock = _default_image) -> str:
    """``markdown`` (the subset above) as an HTML fragment; a line holding only an image is
    replaced by ``image_block(alt, src)``."""
    lines = markdown.splitlines()
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append("<p>" + " ".join(inline(p) for p in paragraph) + "</p>")
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith(FENCE):
            flush()
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith(FENCE):
                end += 1
            out.append("<pre><code>" + html.escape("\n".join(lines[i + 1 : end]), quote=False) + "</code></pre>")
            i = end + 1
            continue
        if not stripped or stripped.startswith("<!--"):
            flush()
            i += 1
            continue
        if heading := HEADING.match(line):
            flush()
            level = len(heading.group(1))
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
            i += 1
            continue
        if image := IMAGE_LINE.match(stripped):
            flush()
            out.append(image_block(image.group(1), image.group(2)))
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < len(lines) and TABLE_RULE.match(lines[i + 1].strip()):
            flush()
            end = i + 2
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            out.append(_table(lines[i:end]))
            i = end
            continue
        for pattern, tag in ((BULLET, "ul"), (NUMBERED, "ol")):
            if pattern.match(line) and not paragraph:
                items: list[str] = []
                while i < len(lines) and lines[i].strip():
                    item = pattern.match(lines[i])
                    if item:
                        items.append(item.group(1))
                    elif items:  # a continuation line of the previous item
                        items[-1] += " " + lines[i].strip()
                    i += 1
                out.append(f"<{tag}>" + "".join(f"<li>{inline(t)}</li>" for t in items) + f"</{tag}>")
                break
        else:
            paragraph.append(stripped)
            i += 1
    flush()
    return "\n".join(out) + "\n"

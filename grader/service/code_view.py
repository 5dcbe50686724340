"""The files of an attempt as pages show them (highlighted by Pygments) and as
a download (a zip of the files as they were handed in).

A file is highlighted once, at its first view, and the HTML kept on disk by the
file's sha256 (``Highlights``): a page opened again reads it back. A file larger
than HIGHLIGHT_BYTES is shown as escaped plain text, never highlighted: Pygments
takes seconds of the web process's CPU on a file of a few hundred KB.
"""

import contextlib
import io
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pygments
from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer
from starlette.responses import Response

from grader.service.models import Submission
from grader.service.store import Store

STYLE = "default"  # Pygments' default style meets WCAG AA contrast on white
CSS_CLASS = "code"
HIGHLIGHT_BYTES = 64 * 1024  # a larger file is shown as plain text


@dataclass
class ShownFile:
    name: str
    size: int
    html: Markup
    plain: bool = False  # too large to highlight: shown as plain text


def formatter() -> HtmlFormatter:
    return HtmlFormatter(style=STYLE, cssclass=CSS_CLASS)


def css() -> str:
    """The style sheet of the highlighted code."""
    return str(formatter().get_style_defs(f".{CSS_CLASS}"))


def highlighted(text: str) -> Markup:
    """Python source as HTML (Pygments escapes it)."""
    return Markup(highlight(text, PythonLexer(), formatter()))


def plain(text: str) -> Markup:
    return Markup(f'<div class="{CSS_CLASS}"><pre>{escape(text)}</pre></div>')


class Highlights:
    """Highlighted files kept on disk, by the source's sha256, under the Pygments
    version that made them (a new one highlights anew)."""

    def __init__(self, root: Path) -> None:
        self.root = root / pygments.__version__

    def html(self, store: Store, digest: str) -> Markup:
        kept = self.root / digest[:2] / f"{store.path(digest).name}.html"
        with contextlib.suppress(FileNotFoundError):
            return Markup(kept.read_text(encoding="utf-8"))
        made = highlighted(store.get(digest).decode("utf-8", "replace"))
        kept.parent.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed: a reader never sees half a file (no fsync: it is
        # made again if a crash loses it).
        handle, temporary = tempfile.mkstemp(dir=kept.parent, prefix=".incoming-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(str(made))
        os.replace(temporary, kept)
        return made


def shown(store: Store, highlights: Highlights, submission: Submission) -> list[ShownFile]:
    files = []
    for stored in submission.files:
        if stored.size > HIGHLIGHT_BYTES:
            text = store.get(stored.sha256).decode("utf-8", "replace")
            files.append(ShownFile(stored.name, stored.size, plain(text), plain=True))
        else:
            files.append(ShownFile(stored.name, stored.size,
                                   highlights.html(store, stored.sha256)))
    return files


def zipped(store: Store, submission: Submission) -> bytes:
    """The attempt's files in one zip, as they were handed in, dated then: the same
    bytes at every download (a restored term's too)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for stored in submission.files:
            member = zipfile.ZipInfo(stored.name, submission.received_at.timetuple()[:6])
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o600 << 16  # as writestr gives a name
            archive.writestr(member, store.get(stored.sha256))
    return out.getvalue()


def download(store: Store, submission: Submission) -> Response:
    """An attempt's files as a zip to download, named for its exercise and number."""
    name = f"{submission.exercise_id}-{submission.id}.zip"
    return Response(zipped(store, submission), media_type="application/zip",
                    headers={"content-disposition": f'attachment; filename="{name}"'})

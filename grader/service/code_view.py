"""The files of an attempt as pages show them (highlighted by Pygments) and as
a download (a zip of the files as they were handed in)."""

import io
import zipfile
from dataclasses import dataclass

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from grader.service.models import Submission
from grader.service.store import Store

STYLE = "default"  # Pygments' default style meets WCAG AA contrast on white
CSS_CLASS = "code"


@dataclass
class ShownFile:
    name: str
    size: int
    html: Markup


def formatter() -> HtmlFormatter:
    return HtmlFormatter(style=STYLE, cssclass=CSS_CLASS)


def css() -> str:
    """The style sheet of the highlighted code."""
    return str(formatter().get_style_defs(f".{CSS_CLASS}"))


def highlighted(text: str) -> Markup:
    """Python source as HTML (Pygments escapes it)."""
    return Markup(highlight(text, PythonLexer(), formatter()))


def shown(store: Store, submission: Submission) -> list[ShownFile]:
    return [ShownFile(stored.name, stored.size,
                      highlighted(store.get(stored.sha256).decode("utf-8", "replace")))
            for stored in submission.files]


def zipped(store: Store, submission: Submission) -> bytes:
    """The attempt's files in one zip, as they were handed in."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for stored in submission.files:
            archive.writestr(stored.name, store.get(stored.sha256))
    return out.getvalue()

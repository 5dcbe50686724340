"""Every HTML page the grader makes, the service's and those written to disk:
one shell (``templates/shell.html``) and one stylesheet (``templates/style.css``).

The service links the stylesheet (``/style.css``); a page written to disk
(``templates/offline.html``: batch's, the league's) holds it inline, for it is
opened from a folder, a copy or a zip with no server to ask. Every page is a
Jinja2 template extending the shell, rendered with autoescape on: what comes
from students is escaped unless the code marks it as HTML already.
"""

from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader, select_autoescape
from markupsafe import Markup

STYLESHEET = "style.css"


def environment(package: str) -> Environment:
    """The environment of ``package``'s pages: its own ``templates/`` first, then
    the shared ones (the shell, the stylesheet, the offline page)."""
    loader = ChoiceLoader([PackageLoader(package, "templates"),
                           PackageLoader(__name__, "templates")])
    return Environment(loader=loader,
                       autoescape=select_autoescape(default=True, default_for_string=True))


def stylesheet(env: Environment) -> str:
    """The one stylesheet's text."""
    return env.loader.get_source(env, STYLESHEET)[0]  # type: ignore[union-attr]


def offline(env: Environment, template: str, /, **context: Any) -> str:
    """``template`` (extending ``offline.html``) as a page to open from disk, its
    stylesheet inline."""
    return env.get_template(template).render(stylesheet=Markup(stylesheet(env)), **context)

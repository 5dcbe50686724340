"""How a long-running command (``serve``, ``worker``, ``match-host``) is reached
and watched: URLs taken from the environment, so that a password is in no
command line (``ps`` shows those to every user), its log lines, as text or one
JSON object a line (python-json-logger), and its metrics (prometheus-client),
served on a port of their own, bound to loopback unless told otherwise: the
metrics are not the reverse proxy's to show.

Nothing here imports the service's packages until a command runs: every
command of the grader builds these flags.
"""

import argparse
import logging
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

BROKER = "MINIMAX_GRADER_BROKER"  # the broker's URL, where --broker is not given
LOOPBACK = "127.0.0.1"
TEXT = "%(asctime)s %(levelname)s %(message)s"


def url_flag(command: argparse.ArgumentParser, flag: str, variable: str, text: str,
             required: bool = False) -> None:
    """``flag URL``, taken from ``$variable`` where not given."""
    default = os.environ.get(variable) or None
    command.add_argument(flag, metavar="URL", default=default,
                         required=required and default is None,
                         help=f"{text} (default: ${variable})")


def watch_flags(command: argparse.ArgumentParser, port: int) -> None:
    """The flags of a long-running command's log and metrics (see ``Watch``)."""
    command.add_argument("--log-format", choices=("text", "json"), default="text",
                         help="log lines as text or as one JSON object each")
    command.add_argument("--metrics-port", type=int, metavar="PORT", help=(
        f"serve Prometheus metrics on this port (the units use {port}; default: none)"))
    command.add_argument("--metrics-host", default=LOOPBACK, metavar="ADDRESS", help=(
        f"the address the metrics are served on (default: {LOOPBACK}, this machine only)"))


def formatter(fmt: str = "text") -> logging.Formatter:
    """The lines' format: ``fmt`` is "text" or "json"."""
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        return JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                             rename_fields={"asctime": "time", "levelname": "level",
                                            "name": "logger"})
    return logging.Formatter(TEXT)


@dataclass(frozen=True)
class Watch:
    """How a long-running command is watched: its log lines and its metrics."""

    log_format: str = "text"
    metrics_host: str = LOOPBACK
    metrics_port: int | None = None

    @classmethod
    def of(cls, args: argparse.Namespace) -> "Watch":
        return cls(args.log_format, args.metrics_host, args.metrics_port)

    def start_log(self, level: int = logging.INFO) -> None:
        """Every logger's lines to stderr, in this command's format."""
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(formatter(self.log_format))
        root = logging.getLogger()
        for old in root.handlers[:]:
            root.removeHandler(old)
        root.addHandler(handler)
        root.setLevel(level)

    def expose(self, registry: "CollectorRegistry") -> None:
        """Serve ``registry`` at http://host:port/metrics, in a thread of its own,
        where asked."""
        from prometheus_client import start_http_server

        if self.metrics_port is not None:
            start_http_server(self.metrics_port, addr=self.metrics_host, registry=registry)
            shown = f"[{self.metrics_host}]" if ":" in self.metrics_host else self.metrics_host
            logging.getLogger("grader.service").info(
                "metrics at http://%s:%d/metrics", shown, self.metrics_port)


PLAIN = Watch()  # text lines, no metrics served: the default of a command run in code

"""Who is told when something happens in the service: its collaborators (the grading
pool, the broker's dispatcher, LTI's poster) register with ``listen``."""

from collections.abc import Callable
from typing import Generic, ParamSpec

Told = ParamSpec("Told")


class Signal(Generic[Told]):
    """A list of listeners, each called with what happened, in the order they came."""

    def __init__(self) -> None:
        self._listeners: list[Callable[Told, None]] = []

    def listen(self, listener: Callable[Told, None]) -> None:
        """Tell ``listener`` from now on; once, however often it asks (a restarted pool)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def __call__(self, *args: Told.args, **kwargs: Told.kwargs) -> None:
        for listener in self._listeners:
            listener(*args, **kwargs)

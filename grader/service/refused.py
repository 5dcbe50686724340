"""What the service's rules refuse, said to the user."""


class Refused(Exception):
    """What the rules don't take now; the user is told why, with an HTTP status."""

    def __init__(self, why: str, status: int = 409) -> None:
        super().__init__(why)
        self.status = status

"""What one student can make the service do is capped: regrade requests (one open per
attempt, a few a day), and the code view (a file highlighted once and kept; a large
one shown as plain text)."""

import re

from grader.service import code_view, overrides
from tests.service.conftest import FLIPPED, NAME, replaying


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match
    return match.group(1)


def ask(site, token: str, attempt: int, text: str):
    """A request as a form would send it (the student's token from their page: the
    attempt's own page offers no form while a request waits, the service must still
    refuse a second one)."""
    page = site.client.get(f"/s/{token}").text
    return site.client.post(f"/s/{token}/attempts/{attempt}/request",
                            data={"csrf": csrf_of(page), "text": text})


def test_one_open_regrade_request_per_attempt_and_a_few_a_day(make, graded):
    site = make(grade=replaying(graded, FLIPPED))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    attempts = overrides.REQUESTS_A_DAY + 1
    for _ in range(attempts):
        site.hand_in(ada, (NAME, FLIPPED.read_bytes()))
    site.service.jobs.drain()
    assert ask(site, ada, 1, "My max is right.").status_code == 303
    assert 'name="text"' not in site.client.get(f"/s/{ada}/attempts/1").text
    again = ask(site, ada, 1, "Please look again.")
    assert again.status_code == 409 and "waiting for its answer already" in again.text
    # Answered, it may be asked again.
    site.service.term.add_note(1, "answer", "Looked: fine.", "the instructor")
    assert ask(site, ada, 1, "Still sure.").status_code == 303
    for attempt in range(2, overrides.REQUESTS_A_DAY):
        assert ask(site, ada, attempt, "And this one.").status_code == 303
    capped = ask(site, ada, attempts, "And this one.")
    assert capped.status_code == 429 and "ask again tomorrow" in capped.text
    assert site.count("attempt_notes") == overrides.REQUESTS_A_DAY + 1  # the answer
    site.clock.advance(days=1, seconds=1)
    assert ask(site, ada, attempts, "And this one.").status_code == 303


def test_a_file_is_highlighted_once_and_a_large_one_shown_as_plain_text(make, monkeypatch):
    site = make()
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    small = b"def get_move(game):\n    return None\n"
    large = b"# <b>not markup</b>\n" + b"x = 1\n" * (code_view.HIGHLIGHT_BYTES // 6)
    site.hand_in(ada, (NAME, small))
    site.hand_in(ada, (NAME, large))
    made: list[str] = []
    real = code_view.highlighted
    monkeypatch.setattr(code_view, "highlighted", lambda text: made.append(text) or real(text))
    first = site.client.get(f"/s/{ada}/attempts/1").text
    assert '<span class="k">def</span>' in first and made == [small.decode()]
    assert site.client.get(f"/s/{ada}/attempts/1").text == first
    assert made == [small.decode()]  # kept: not highlighted again
    plain = site.client.get(f"/s/{ada}/attempts/2").text
    assert made == [small.decode()]  # never highlighted
    assert "Shown as plain text: it is larger than 64 KB." in plain
    assert "# &lt;b&gt;not markup&lt;/b&gt;" in plain and "<b>not markup" not in plain

"""A regrade seen before it counts: after a new grader version (a fixed suite, new
points), "regrade all" grades into held reports; its page shows whose counted
score would change, old to new, while nothing counts; applying makes them count
(audited), discarding leaves every score as it was."""

import copy
import csv
import io
import re

from tests.service.conftest import FLIPPED, FULL_MARKS, NAME


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match
    return match.group(1)


def _by_files(graded, fixed: bool):
    """Grades a hand-in by its files: the flipped helpers get 4/10, or full marks
    from the ``fixed`` suite (which no longer charges that mistake)."""
    flipped = FLIPPED.read_bytes()

    def grade(exercise, files):
        wrong = files[NAME] == flipped and not fixed
        return copy.deepcopy(graded[FLIPPED if wrong else FULL_MARKS])

    return grade


def _term_then_new_version(make, graded):
    """Ada hands in the flipped helpers, Bob full marks, under v1; the service starts
    again as v2, whose suite gives Ada full marks. The instructor's v2 client."""
    first = make(grade=_by_files(graded, fixed=False), version="v1")
    ada, bob = first.enrol(("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"))
    first.hand_in(ada, (NAME, FLIPPED.read_bytes()))
    first.hand_in(bob, (NAME, FULL_MARKS.read_bytes()))
    first.service.jobs.drain()
    site = make(grade=_by_files(graded, fixed=True), version="v2")
    site.secret = first.secret
    client = site.login()
    return site, ada, client, csrf_of(client.get("/i/c/1/exercises/helpers").text)


def _grades(client) -> list[str]:
    lines = list(csv.reader(io.StringIO(client.get("/i/c/1/grades.csv").text)))
    return [line[lines[0].index("helpers")] for line in lines[1:]]


def test_the_preview_changes_nothing_until_it_is_applied(make, graded):
    site, ada, client, csrf = _term_then_new_version(make, graded)
    rescored: list[str] = []
    site.service.rescored.listen(lambda course, exercise: rescored.append(exercise))
    page = client.get("/i/c/1/exercises/helpers").text
    assert 'action="/i/c/1/regrade/helpers/preview"' in page
    started = client.post("/i/c/1/regrade/helpers/preview", data={"csrf": csrf})
    assert started.status_code == 303
    preview = started.headers["location"]
    assert "2 submission(s) still being graded" in client.get(preview).text
    assert site.service.jobs.drain() == 2
    page = client.get(preview).text
    assert re.search(r'Ada</a></th><td>4</td><td>10</td>', page), page
    assert "1 student(s) whose counted score would change, 1 whose would not" in page
    # Nothing counts yet: the gradebook, the student's page, the reports kept.
    assert _grades(client) == ["4", "10"] and rescored == []
    assert "4/10" in site.client.get(f"/s/{ada}/attempts/1").text
    assert site.count("reports") == 2

    applied = client.post(f"{preview}/apply", data={"csrf": csrf})
    assert applied.status_code == 303
    assert "Applied: the new scores count." in client.get(applied.headers["location"]).text
    assert _grades(client) == ["10", "10"] and rescored == ["helpers"]
    assert "10/10" in site.client.get(f"/s/{ada}/attempts/1").text
    assert client.post(f"{preview}/apply", data={"csrf": csrf}).status_code == 409
    audit = list(csv.DictReader(io.StringIO(client.get("/i/c/1/audit.csv").text)))
    assert (audit[0]["who"], audit[0]["action"], audit[0]["detail"]) == (
        "Instructor", "regrade applied",
        "1 score(s) changed: Ada (#1) 4 to 10; 0 still being graded count when they are")
    assert (audit[1]["action"], audit[1]["detail"]) == (
        "regrade previewed", "2 submission(s) graded aside, under v2")
    # Graded by v2 already: a new preview has nothing to grade, and says so.
    again = client.post("/i/c/1/regrade/helpers/preview", data={"csrf": csrf})
    assert "No counted score would change" in client.get(again.headers["location"]).text


def test_a_discarded_preview_never_counts(make, graded):
    site, ada, client, csrf = _term_then_new_version(make, graded)
    preview = client.post("/i/c/1/regrade/helpers/preview",
                          data={"csrf": csrf}).headers["location"]
    running = site.service.queue.claim()  # one is being graded when the preview is dropped
    assert client.post(f"{preview}/discard", data={"csrf": csrf}).status_code == 303
    assert site.service.jobs.drain() == 0  # the waiting one went
    site.service.jobs.run(running)  # the running one ends: its report stays held
    assert _grades(client) == ["4", "10"]
    assert site.count("reports") == 2
    assert "Discarded: its reports never count." in client.get(preview).text
    audit = list(csv.DictReader(io.StringIO(client.get("/i/c/1/audit.csv").text)))
    assert (audit[0]["action"], audit[0]["detail"]) == ("regrade discarded",
                                                        "1 waiting job(s) dropped")


def test_a_ta_does_not_regrade_the_class(make, graded):
    site, _, client, csrf = _term_then_new_version(make, graded)
    form = csrf_of(client.get("/i/c/1/staff").text)
    added = client.post("/i/c/1/staff", data={"csrf": form, "name": "Tess", "role": "ta"})
    tess = type(client)(client.app, base_url="http://testserver", follow_redirects=False)
    assert tess.get(re.search(r"http://testserver(/i/[\w-]+)", added.text)[1]).status_code == 303
    tess_csrf = csrf_of(tess.get("/i/c/1/attempts/1").text)
    assert tess.post("/i/c/1/regrade/helpers/preview",
                     data={"csrf": tess_csrf}).status_code == 403
    assert site.count("regrade_previews") == 0

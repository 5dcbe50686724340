"""Published solutions, uploaded on an exercise's similarity page: plain .py files
of UTF-8 text only, nothing kept from a refused upload, each change audited."""

import pytest

from grader.service.similar import PUBLISHED


@pytest.mark.parametrize(("name", "data"), [
    ("../escape.py", b"x = 1\n"),
    ("notes.txt", b"x = 1\n"),
    (".hidden.py", b"x = 1\n"),
    ("latin.py", "x = 'é'\n".encode("latin-1")),
])
def test_a_refused_upload_keeps_nothing(make, name, data):
    site = make()
    client = site.login()
    csrf = site.csrf("/i/c/1/similarity/helpers")
    answer = client.post("/i/c/1/similarity/helpers/published", data={"csrf": csrf},
                         files=[("files", ("good.py", b"y = 2\n")), ("files", (name, data))])
    assert answer.status_code == 400 and "Nothing was kept" in answer.text
    assert not (site.service.options.data / PUBLISHED).exists()


def test_an_upload_is_left_out_of_the_comparison_and_removed_again(make):
    site = make()
    client = site.login()
    csrf = site.csrf("/i/c/1/similarity/helpers")
    answer = client.post("/i/c/1/similarity/helpers/published", data={"csrf": csrf},
                         files=[("files", ("year_one.py", b"def f():\n    return 1\n"))])
    assert answer.status_code == 303
    kept = site.service.options.data / PUBLISHED / "helpers" / "year_one.py"
    assert kept.read_bytes() == b"def f():\n    return 1\n"
    assert "<code>year_one.py</code>" in client.get("/i/c/1/similarity/helpers").text
    assert client.post("/i/c/1/similarity/helpers/unpublish",
                       data={"csrf": csrf, "name": "year_one.py"}).status_code == 303
    assert not kept.exists()
    assert client.post("/i/c/1/similarity/helpers/unpublish",
                       data={"csrf": csrf, "name": "../grader.sqlite3"}).status_code == 400
    audit = client.get("/i/c/1/audit").text
    assert "published solutions added" in audit and "published solution removed" in audit

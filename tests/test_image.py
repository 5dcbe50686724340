"""Building the grading image where no base image can be had."""

from docker.errors import APIError, ImageNotFound

from grader import image


class NoRegistry:
    """A Docker client with no image at all and no registry to pull from."""

    class images:
        @staticmethod
        def get(name):
            raise ImageNotFound(name)

        @staticmethod
        def pull(name):
            raise APIError(f"pull access denied for {name}")


def test_no_base_and_no_way_to_one_says_what_to_do(monkeypatch):
    monkeypatch.setattr(image.shutil, "which", lambda name: None)
    try:
        image.pick_base(NoRegistry(), "auto")
    except image.NoBase as exc:
        said = str(exc)
    else:
        raise AssertionError("a base was picked with none to be had")
    assert "--base python:3.11-slim" in said and "apt-get install debootstrap" in said
    assert "debootstrap is not installed" in said or "not root" in said

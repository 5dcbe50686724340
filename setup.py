"""The wheel's build: the package, with the top-level folders it grades with.

``exercises/`` and the ``Dockerfile`` lie at the top of the checkout, beside
``grader/``; a wheel carries them inside the package, as ``grader/shipped/``,
where ``grader.contracts.places`` looks first. ``solutions/`` never goes in.
An editable install finds them where they lie, so it copies nothing.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TOP = Path(__file__).resolve().parent
SHIPPED = ("exercises", "Dockerfile")  # never solutions/: staff and CI only


class BuildWithTopLevel(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "grader" / "shipped"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(TOP / "exercises", target / "exercises",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copyfile(TOP / "Dockerfile", target / "Dockerfile")


setup(cmdclass={"build_py": BuildWithTopLevel})

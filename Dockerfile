# The grading image: Python, NumPy (pinned in grader/image.py: agents may import
# it), and what a grading container runs: the launcher and the modules it and the
# student's workers import, and the modules it hands out
# (grader/installs.py's launcher_files). The judge runs on the host: no pytest,
# no suite, no reference search, no model of mistakes, never the reference
# solutions nor the grader's tests.
#
# `minimax-grader image build` stages the build context (this file, a
# wheelhouse made on the host, those files) and builds it: no network is needed
# inside the build. With a registry, the default base works unchanged; without
# one, the base comes from grader/data/image/make-base-image.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

COPY wheelhouse/ /tmp/wheelhouse/
# What grading never reads goes: a student's code that walks the file system
# (to hunt for the grader's files, or to spray fake reports) then has a small
# tree to walk, and its time is bounded by the image, not by luck.
RUN python3 -m pip install --no-index --find-links /tmp/wheelhouse --no-cache-dir \
        --break-system-packages /tmp/wheelhouse/*.whl \
    && rm -rf /tmp/wheelhouse /usr/share/doc /usr/share/man /usr/share/info \
        /usr/share/locale /usr/share/lintian /usr/share/bash-completion /var/cache/* \
        /var/lib/apt/lists/* /usr/share/zoneinfo /usr/lib/python3.*/test \
        /usr/local/lib/python3.*/test /usr/lib/python3/dist-packages/pip \
        /usr/local/lib/python3.*/site-packages/pip

COPY grader/ /opt/minimax-grader/grader/
# The users, and the permissions that keep the launcher's own files from the
# student's code.
COPY install-harness /tmp/
RUN sh /tmp/install-harness /opt/minimax-grader && rm /tmp/install-harness

WORKDIR /work
ENTRYPOINT ["python3", "-I", "-B", "/opt/minimax-grader/grader/harness/runtime/launcher.py"]

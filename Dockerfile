# The grading image: Python, pytest, pytest-timeout, hypothesis, NumPy (pinned in
# grader/image.py: agents may import it), the harness and the exercises' suites;
# never the reference solutions nor the grader's tests.
#
# `minimax-grader image build` stages the build context (this file, a
# wheelhouse of pytest, pytest-timeout, hypothesis and NumPy made on the host, the
# harness and the suites) and builds it: no network is needed inside the build. With a
# registry, the default base works unchanged; without one, the base comes
# from grader/data/image/make-base-image.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

COPY wheelhouse/ /tmp/wheelhouse/
# What grading never reads goes: a student's code that walks the file system
# (to hunt for the suites, or to spray fake reports) then has a small tree
# to walk, and its time is bounded by the image, not by luck.
RUN python3 -m pip install --no-index --find-links /tmp/wheelhouse --no-cache-dir \
        --break-system-packages pytest pytest-timeout hypothesis numpy \
    && rm -rf /tmp/wheelhouse /usr/share/doc /usr/share/man /usr/share/info \
        /usr/share/locale /usr/share/lintian /usr/share/bash-completion /var/cache/* \
        /var/lib/apt/lists/* /usr/share/zoneinfo /usr/lib/python3.*/test \
        /usr/local/lib/python3.*/test /usr/lib/python3/dist-packages/pip \
        /usr/local/lib/python3.*/site-packages/pip

COPY grader/ /opt/minimax-grader/grader/
COPY exercises/ /opt/minimax-grader/exercises/
# The users and permissions that keep the suites from the student's code.
COPY install-harness /tmp/
RUN sh /tmp/install-harness /opt/minimax-grader && rm /tmp/install-harness

WORKDIR /work
ENTRYPOINT ["python3", "-I", "-B", "/opt/minimax-grader/grader/harness/runtime/launcher.py"]

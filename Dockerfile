# The grading image: Python, pytest, pytest-timeout, the harness and the
# exercises' suites; never the reference solutions nor the grader's tests.
#
# `minimax-grader image build` stages the build context (this file, a
# wheelhouse of pytest and pytest-timeout made on the host, the harness and
# the suites) and builds it: no network is needed inside the build. With a
# registry, the default base works unchanged; without one, the base comes
# from docker/make-base-image.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}

COPY wheelhouse/ /tmp/wheelhouse/
RUN python3 -m pip install --no-index --find-links /tmp/wheelhouse --no-cache-dir \
        --break-system-packages pytest pytest-timeout \
    && rm -rf /tmp/wheelhouse

COPY grader/ /opt/minimax-grader/grader/
COPY exercises/ /opt/minimax-grader/exercises/
# The users and permissions that keep the suites from the student's code.
COPY docker/install-harness /tmp/
RUN sh /tmp/install-harness /opt/minimax-grader && rm /tmp/install-harness

WORKDIR /work
ENTRYPOINT ["python3", "-I", "-B", "/opt/minimax-grader/grader/harness/launcher.py"]

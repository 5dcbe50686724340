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

# The supervisor runs as grader, the student's code as student.
RUN groupadd --gid 10001 grader \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin grader \
    && groupadd --gid 10002 student \
    && useradd --uid 10002 --gid 10002 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin student

COPY grader/ /opt/minimax-grader/grader/
COPY exercises/ /opt/minimax-grader/exercises/

# The student's user may list the folders on the way (Python's import needs
# it) and read only what the worker imports; the suites, the reference search
# and the mistake models stay unreadable to it.
RUN cd /opt/minimax-grader \
    && chown -R root:grader . \
    && chmod -R u=rwX,g=rX,o= . \
    && chmod o=rx . grader grader/harness \
    && chmod o=r grader/__init__.py grader/harness/__init__.py \
        grader/harness/worker.py grader/harness/wire.py

WORKDIR /work
ENTRYPOINT ["python3", "-I", "-B", "/opt/minimax-grader/grader/harness/launcher.py"]

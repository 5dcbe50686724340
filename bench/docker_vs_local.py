"""Grade the same N submissions through Docker and through the local sandbox,
and time a bare container start in the same run.

    python bench/docker_vs_local.py [-n N]

Prints the time per submission of each sandbox and the ratio of Docker
grading to a bare `docker run --rm IMAGE python3 -c pass`.
"""

import argparse

from common import grade_all, median_seconds, submissions

from grader import sandbox
from grader.image import default_tag
from grader.sandbox.local import LocalSandbox


def bare_run(tag):
    """A bare container of the image: started, runs nothing in the image's python3
    as the launcher runs it, removed."""
    return ["docker", "run", "--rm", "--entrypoint", "python3", tag, "-I", "-B", "-c", "pass"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20, help="submissions to grade")
    args = parser.parse_args()
    docker = sandbox.backend("docker")
    if isinstance(docker, sandbox.Unavailable):
        raise SystemExit(f"no Docker sandbox here: {docker.why}")
    cases = submissions(args.n)
    tag = default_tag()
    bare = median_seconds(bare_run(tag))
    docker_total, _ = grade_all(cases, docker)
    local_total, _ = grade_all(cases, LocalSandbox())
    per_docker = docker_total / len(cases)
    per_local = local_total / len(cases)
    print(f"graded the same {len(cases)} submissions one at a time through each sandbox")
    print(f"  docker: {per_docker * 1000:.0f} ms per submission "
          f"({len(cases) / docker_total:.2f}/s)")
    print(f"  local:  {per_local * 1000:.0f} ms per submission "
          f"({len(cases) / local_total:.2f}/s)")
    print(f"  bare `docker run --rm {tag} python3 -c pass`: {bare * 1000:.0f} ms")
    print(f"  docker grading / bare container start: {per_docker / bare:.2f}x; "
          f"docker / local: {per_docker / per_local:.2f}x")


if __name__ == "__main__":
    main()

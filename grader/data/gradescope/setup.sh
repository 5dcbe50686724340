#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
# It makes a virtual environment of a Python 3.11 or newer with the packages
# in requirements.txt, and installs the grader in /opt/minimax-grader with the
# users and permissions of the grading image (install-harness). The packages
# come from the wheelhouse alone where it fits this Python, else from PyPI.
set -euo pipefail

source=$(cd "$(dirname "$0")" && pwd)
home=/opt/minimax-grader
venv=/opt/minimax-grader-venv

recent() {
    command -v "$1" >/dev/null && "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))'
}

python=
for candidate in python3 python3.11; do
    if recent "$candidate"; then
        python=$candidate
        break
    fi
done
if [ -z "$python" ]; then
    # An older Ubuntu's python3: Ubuntu 22.04 has python3.11, earlier ones get it from deadsnakes.
    apt-get update -q
    if ! apt-get install -y -q python3.11; then
        apt-get install -y -q software-properties-common
        add-apt-repository -y ppa:deadsnakes/ppa
        apt-get update -q
        apt-get install -y -q python3.11
    fi
    python=python3.11
fi

rm -rf "$venv" "$home"
# pip runs from its wheel, so the environment needs no ensurepip (python3-venv).
"$python" -m venv --without-pip "$venv"
wheels="$source/wheelhouse"
pip=("$venv/bin/python" "$(echo "$wheels"/pip-*.whl)/pip" install --quiet --no-cache-dir
     --disable-pip-version-check --root-user-action=ignore --find-links "$wheels"
     --requirement "$source/requirements.txt")
"${pip[@]}" --no-index || "${pip[@]}"

mkdir -p "$home"
cp -R "$source/grader" "$source/exercises" "$home/"
sh "$source/install-harness" "$home" "$venv/bin/python"

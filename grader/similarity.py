"""Similar hand-ins: every student's files against every other's, by copydetect's
winnowed fingerprints (MOSS's method) of the code with its names and strings
made alike, so that renamed variables and reordered functions still match;
the exercise's starter code is left out as boilerplate.

A student's code is their files one after another, each under a line naming it.
"""

import io
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from copydetect import CodeFingerprint, compare_files
from copydetect.utils import highlight_overlap
from markupsafe import Markup, escape

NOISE = 25  # tokens: a shared run shorter than this is no evidence (copydetect's default)
GUARANTEE = 30  # tokens: a shared run this long is always found
THRESHOLD = 0.8  # of either student's code found in the other's (a rewrite shares less)
NAME = "code.py"  # the language copydetect reads the code in: Python
MARK = ('<mark class="shared">', "</mark>")


def joined(files: Mapping[str, str]) -> str:
    """A student's files as one text, each under a line that names it."""
    return "".join(f"# --- {name}\n{text}\n" for name, text in sorted(files.items()))


def fingerprint(code: str, boilerplate: list[int] | None = None) -> CodeFingerprint:
    return CodeFingerprint(NAME, NOISE, GUARANTEE - NOISE + 1, boilerplate or [],
                           fp=io.StringIO(code))


def boilerplate(starter: str) -> list[int]:
    """The starter code's fingerprints: shared by everyone, evidence of nothing."""
    return list(fingerprint(starter).hashes) if starter.strip() else []


@dataclass
class Pair:
    left: str
    right: str
    left_share: float  # of the left's code found in the right's
    right_share: float
    left_html: Markup  # the code with the shared passages marked
    right_html: Markup

    @property
    def share(self) -> float:
        return max(self.left_share, self.right_share)


def compare(left: str, right: str, codes: Mapping[str, CodeFingerprint]) -> Pair:
    _, (left_share, right_share), (left_slices, right_slices) = compare_files(codes[left],
                                                                              codes[right])
    return Pair(left, right, float(left_share), float(right_share),
                _marked(codes[left].raw_code, left_slices),
                _marked(codes[right].raw_code, right_slices))


def _marked(code: str, slices: np.ndarray) -> Markup:
    if slices.size == 0:
        return Markup(escape(code))
    marked, _ = highlight_overlap(code, slices, *MARK, escape_html=True)
    return Markup(marked)


def similar(codes: Mapping[str, str], starter: str = "",
            threshold: float = THRESHOLD) -> list[Pair]:
    """The pairs of students whose code shares ``threshold`` or more (of either's),
    most similar first."""
    common = boilerplate(starter)
    prints = {who: fingerprint(code, common) for who, code in codes.items()}
    pairs = [compare(left, right, prints) for left, right in combinations(sorted(prints), 2)]
    return sorted((pair for pair in pairs if pair.share >= threshold),
                  key=lambda pair: (-pair.share, pair.left, pair.right))

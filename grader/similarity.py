"""Similar hand-ins: every student's files against every other's, by copydetect's
winnowed fingerprints (MOSS's method) of the code with its names and strings
made alike, so that renamed variables and reordered functions still match.
Known sources are no evidence: the exercise's starter code and the solutions the
instructor published are left out (copydetect's boilerplate), each of their
passages wherever it appears.

Every pair is ranked, most similar first; a pair is flagged when most of either's
code is found in the other's *and* what they share is long enough to be more than
the few lines every solution of a short exercise has in common.

A student's code is their files one after another, each under a line naming it.
"""

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from hashlib import blake2b
from itertools import combinations
from pathlib import Path

import copydetect.utils
import numpy as np
from copydetect import CodeFingerprint, compare_files
from copydetect.utils import highlight_overlap
from markupsafe import Markup, escape

NOISE = 25  # characters of the filtered code: a shared run shorter is no evidence
GUARANTEE = 30  # characters: a shared run this long is always found
THRESHOLD = 0.8  # of either student's code found in the other's (a rewrite shares less)
# Characters of filtered code (names are one letter there, spaces gone: about ten a
# line), some fifteen lines: the solutions of a 20-line exercise share most of their
# few lines by necessity, and a 20-line copy is still flagged.
MIN_SHARED = 150
NAME = "code.py"  # the language copydetect reads the code in: Python
MARK = ('<mark class="shared">', "</mark>")


def _kgram_hashes(text: str, k: int) -> np.ndarray:
    """Each k-gram's hash, the same in every process. copydetect's own is ``hash``,
    which Python salts per process: winnowing then kept other fingerprints, and
    found other shares and other pairs, at every run on the same files."""
    return np.array([int.from_bytes(blake2b(text[start:start + k].encode(),
                                            digest_size=8).digest(), "little", signed=True)
                     for start in range(len(text) - k + 1)], dtype=np.int64)


# Looked up at each call by copydetect's fingerprinting (get_document_fingerprints).
copydetect.utils.hashed_kgrams = _kgram_hashes


def joined(files: Mapping[str, str]) -> str:
    """A student's files as one text, each under a line that names it."""
    return "".join(f"# --- {name}\n{text}\n" for name, text in sorted(files.items()))


def folder_code(folder: Path) -> list[str]:
    """The Python files anywhere under ``folder``, each one text, in name order."""
    return [path.read_text(encoding="utf-8", errors="replace")
            for path in sorted(folder.rglob("*.py")) if path.is_file()]


def fingerprint(code: str, boilerplate: list[int] | None = None,
                window: int = GUARANTEE - NOISE + 1) -> CodeFingerprint:
    return CodeFingerprint(NAME, NOISE, window, boilerplate or [], fp=io.StringIO(code))


def boilerplate(sources: Iterable[str]) -> list[int]:
    """Every k-gram of the known sources (not a winnowed few: a student's window may
    keep any of them), evidence of nothing."""
    return sorted({int(value) for source in sources if source.strip()
                   for value in fingerprint(source, window=1).hashes})


@dataclass
class Pair:
    left: str
    right: str
    left_share: float  # of the left's code found in the right's
    right_share: float
    left_html: Markup  # the code with the shared passages marked
    right_html: Markup
    shared: int = 0  # characters of filtered code the two have in common (the larger side's)

    @property
    def share(self) -> float:
        return max(self.left_share, self.right_share)

    @property
    def flagged(self) -> bool:
        return self.share >= THRESHOLD and self.shared >= MIN_SHARED


def compare(left: str, right: str, codes: Mapping[str, CodeFingerprint]) -> Pair:
    _, (left_share, right_share), (left_slices, right_slices) = compare_files(codes[left],
                                                                              codes[right])
    shared = max(left_share * codes[left].token_coverage,
                 right_share * codes[right].token_coverage)
    return Pair(left, right, float(left_share), float(right_share),
                _marked(codes[left].raw_code, left_slices),
                _marked(codes[right].raw_code, right_slices), round(shared))


def _marked(code: str, slices: np.ndarray) -> Markup:
    if slices.size == 0:
        return Markup(escape(code))
    marked, _ = highlight_overlap(code, slices, *MARK, escape_html=True)
    return Markup(marked)


def ranked(codes: Mapping[str, str], *, known: Iterable[str] = ()) -> list[Pair]:
    """Every pair of students with anything in common beyond the ``known`` sources
    (the starter, published solutions), flagged ones first, then most similar."""
    common = boilerplate(known)
    prints = {who: fingerprint(code, common) for who, code in codes.items()}
    pairs = [compare(left, right, prints) for left, right in combinations(sorted(prints), 2)]
    return sorted((pair for pair in pairs if pair.shared),
                  key=lambda pair: (not pair.flagged, -pair.share, -pair.shared,
                                    pair.left, pair.right))


def similar(codes: Mapping[str, str], *, known: Iterable[str] = ()) -> list[Pair]:
    """The flagged pairs, most similar first."""
    return [pair for pair in ranked(codes, known=known) if pair.flagged]

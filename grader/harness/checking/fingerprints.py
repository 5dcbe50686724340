"""Multisets of counted calls, folded into one number each.

A count test compares the labels a student's search made its counted calls
on with the reference's, as multisets. The reference's are memoised over a
game tree, where a multiset of hundreds of thousands of calls won't do: each
label weighs 64 bits of a hash, and a multiset is the sum of its weights.
Equal multisets have equal fingerprints; unequal ones differ but for a 1 in
2**64 chance.
"""

import hashlib
from collections import Counter
from functools import lru_cache

MASK = (1 << 64) - 1


# The same positions are weighed in every search of a grading: each once, but
# for a bounded number of them (a hostile worker may send any labels at all).
@lru_cache(maxsize=1 << 16)
def weight(label: str) -> int:
    return int.from_bytes(hashlib.blake2b(label.encode(), digest_size=8).digest(), "big")


def fingerprint(calls: Counter[str]) -> int:
    return sum(count * weight(label) for label, count in calls.items()) & MASK

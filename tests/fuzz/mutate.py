"""Seeded, deterministic input mutations for the fuzz smoke runs (no coverage feedback).

The CI smoke of every fuzz target runs the seed corpus plus a few thousand inputs made
here: cheap, the same on every run for one seed, and able to reach the error paths
near the seeds (a cut line, a doubled bracket, a number too large for a double).
Coverage-guided exploration is ``bench/fuzz``'s job (atheris, libFuzzer).
The engine's replay driver (``sim/fuzz/replay_main.cpp``) mutates the same way.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

#: Tokens that the readers treat specially; inserting one is a mutation.
TOKENS: tuple[bytes, ...] = (
    b"-1",
    b"0",
    b"-0",
    b"1e400",
    b"-1e400",
    b"nan",
    b"inf",
    b"1e-320",
    b"99999999999999999999999",
    b"9223372036854775808",
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b":",
    b",",
    b"\n",
    b"\x00",
    b"\xff",
    b"null",
    b"true",
    b"- ",
    b"&a ",
    b"*a",
    b"<",
    b"/>",
    b"'",
    b";",
)


def mutate(data: bytes, others: Sequence[bytes], rng: random.Random) -> bytes:
    """One to four random edits of ``data`` (bit flip, byte set, token insert, delete,
    duplicate, splice with another seed)."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        pos = rng.randint(0, len(buf))
        if kind == 0 and buf:
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        elif kind == 1 and buf:
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        elif kind == 2:
            buf[pos:pos] = rng.choice(TOKENS)
        elif kind == 3 and buf:
            end = min(len(buf), pos + rng.randint(1, 16))
            del buf[pos:end]
        elif kind == 4 and buf:
            start = rng.randrange(len(buf))
            chunk = buf[start : start + rng.randint(1, 64)]
            buf[pos:pos] = chunk
        elif others:
            other = rng.choice(others)
            cut = rng.randint(0, len(other))
            buf = buf[:pos] + bytearray(other[cut:])
    return bytes(buf)


def smoke_inputs(seeds: Sequence[bytes], count: int, seed: int) -> Iterator[bytes]:
    """Every seed, then ``count`` mutations of randomly chosen seeds."""
    yield from seeds
    rng = random.Random(seed)
    for _ in range(count):
        if not seeds:
            yield bytes(rng.randrange(256) for _ in range(rng.randint(0, 64)))
            continue
        yield mutate(rng.choice(seeds), seeds, rng)

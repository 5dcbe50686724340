"""One student floods the service with a file that never returns while the others
hand in as usual: the others' time to feedback without and with the flood, side by
side in one run on this machine.

    python bench/service_flood.py [--students 6] [--files 18] [--workers 2] [--flood 6]
                                  [--flood-every 2] [--poll 0.5] [--rounds 1] [--deadline 900]

Each phase is a fresh ``serve`` with its own pool of ``--workers`` threads and the
local sandbox, started as ``bench/service_load.py`` starts it. The others
(``--students``) hand in their share of ``--files`` helpers files one after
another, each once the one before has its report (the solution and its corpus
in turn, each made unique), polling their page every ``--poll`` seconds. In the
flooded phase one more student first hands in ``--flood`` copies of a file
whose every function loops for ever (each held until the exercise's time limits
stop it), at once, and then one more every ``--flood-every`` seconds until the
others are done. Prints each phase's time to feedback of the others (p50, p95;
medians over ``--rounds``), what became of the flood, and the ratios flooded /
unflooded (the target: within 2x).
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx2
from service_load import (
    CSRF,
    EXERCISE,
    Failed,
    Outcome,
    Processes,
    attempts,
    class_files,
    open_exercise,
    percentile,
    start_mode,
    student,
)

ENDLESS = b"def terminal_test(gameState):\n    while True:\n        pass\n\n\n" \
          b"min_value = max_value = terminal_test\n"


@dataclass
class Flood:
    handed: int = 0  # the flooder's hand-ins the service took
    states: tuple[str, ...] = ()  # what became of them, as the flooder's page says


async def flood(client: httpx2.AsyncClient, token: str, burst: int, every: float,
                stop: asyncio.Event, outcome: Flood) -> None:
    """Hand in ``burst`` endless files at once, then one each ``every`` seconds."""
    page = await client.get(f"/s/{token}")
    found = CSRF.search(page.text)
    if found is None:
        raise Failed(f"the flooder's page: HTTP {page.status_code}")
    number = 0
    while not stop.is_set():
        for _ in range(burst if number == 0 else 1):
            data = ENDLESS + f"# flood {number}\n".encode()
            number += 1
            answer = await client.post(f"/s/{token}/submit/{EXERCISE}",
                                       data={"csrf": found.group(1)},
                                       files=[("files", ("minimax_helpers.py", data))])
            outcome.handed += answer.status_code == 303
        try:
            await asyncio.wait_for(stop.wait(), every)
        except TimeoutError:
            pass
    states = await attempts(client, token, Outcome())
    outcome.states = tuple(states or ())


async def phase(base: str, secret: str, tokens: list[str], flooder: str | None,
                files: list[tuple[str, bytes]], args: argparse.Namespace, ends: float,
                outcome: Outcome, flooded: Flood) -> None:
    limits = httpx2.Limits(max_connections=len(tokens) + 2, keepalive_expiry=2)
    async with httpx2.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        await open_exercise(client, secret)
        stop = asyncio.Event()
        flooding = None
        if flooder is not None:
            flooding = asyncio.create_task(flood(client, flooder, args.flood, args.flood_every,
                                                 stop, flooded))
            while flooded.handed < args.flood and not flooding.done():
                await asyncio.sleep(0.05)  # the burst is in before the others start
        shares = [files[k::len(tokens)] for k in range(len(tokens))]
        everyone = asyncio.gather(*(student(client, token, share, args.poll, outcome)
                                    for token, share in zip(tokens, shares, strict=True)))
        try:
            await asyncio.wait_for(everyone, max(0.0, ends - time.monotonic()))
        except TimeoutError:
            outcome.hit_deadline = True
        stop.set()
        if flooding is not None:
            await flooding


def run_phase(flooded: bool, args: argparse.Namespace,
              files: list[tuple[str, bytes]]) -> tuple[Outcome, Flood]:
    ends = time.monotonic() + args.deadline
    name = "flooded" if flooded else "unflooded"
    with tempfile.TemporaryDirectory(prefix=f"minimax-grader-flood-{name}-") as folder:
        processes = Processes(Path(folder))
        roster = Path(folder) / "roster.csv"
        roster.write_text("name,email\n" + "".join(
            f"Student {n},s{n}@example.edu\n" for n in range(args.students))
            + "Flooder,flood@example.edu\n", encoding="utf-8")
        try:
            base, tokens, secret = start_mode("local", processes, roster, ends, args.workers, 1)
            if len(tokens) != args.students + 1:
                raise Failed(f"serve printed {len(tokens)} student links")
            outcome, flood_outcome = Outcome(load_before=os.getloadavg()[0]), Flood()
            asyncio.run(phase(base, secret, tokens[:-1], tokens[-1] if flooded else None,
                              files, args, ends, outcome, flood_outcome))
            return outcome, flood_outcome
        finally:
            processes.stop_all()


def line(name: str, outcome: Outcome, files: int) -> str:
    shown = f"  {name}: {len(outcome.feedback)}/{files} reports"
    if outcome.feedback:
        shown += (f"; the others' time to feedback p50 "
                  f"{percentile(outcome.feedback, 0.5):.1f} s, "
                  f"p95 {percentile(outcome.feedback, 0.95):.1f} s")
    errors = ", ".join(f"{count} {kind}" for kind, count in sorted(outcome.errors.items()))
    shown += f"; errors: {errors or 'none'} (load average before: {outcome.load_before:.1f})"
    if outcome.hit_deadline:
        shown += "\n    DEADLINE: the phase ran out of time"
    return shown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=6, help="the others")
    parser.add_argument("--files", type=int, default=18, help="the others' hand-ins in all")
    parser.add_argument("--workers", type=int, default=2, help="serve's pool's threads")
    parser.add_argument("--flood", type=int, default=6, help="endless files handed in at once")
    parser.add_argument("--flood-every", type=float, default=2.0,
                        help="seconds between the flooder's later hand-ins")
    parser.add_argument("--poll", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--deadline", type=float, default=900, help="seconds for one phase")
    args = parser.parse_args()
    if args.students < 1 or args.files < args.students or args.flood < 1 or args.rounds < 1:
        parser.error("--files is at least --students; --flood and --rounds at least 1")
    files = class_files(args.files)
    print(f"{args.students} students hand in {args.files} {EXERCISE} files in all, one after "
          f"another each; serve grades {args.workers} at once; the flooder hands in "
          f"{args.flood} endless files at once, then one every {args.flood_every:g} s; "
          f"{os.cpu_count()} cores", flush=True)
    seen: dict[bool, list[Outcome]] = {False: [], True: []}
    for _ in range(args.rounds):
        for flooded in (False, True):
            try:
                outcome, flood_outcome = run_phase(flooded, args, files)
            except Failed as why:
                print(f"  could not be run: {why}", flush=True)
                return 1
            seen[flooded].append(outcome)
            print(line("flooded" if flooded else "unflooded", outcome, args.files), flush=True)
            if flooded:
                kinds = ", ".join(f"{flood_outcome.states.count(kind)} {kind}"
                                  for kind in sorted(set(flood_outcome.states)))
                print(f"    the flood: {flood_outcome.handed} hand-ins taken; at the end "
                      f"{kinds}", flush=True)
    if all(o.feedback for runs in seen.values() for o in runs):
        ratios = [statistics.median(percentile(o.feedback, q) for o in seen[True])
                  / statistics.median(percentile(o.feedback, q) for o in seen[False])
                  for q in (0.5, 0.95)]
        print(f"  flooded/unflooded: p50 {ratios[0]:.2f}x  p95 {ratios[1]:.2f}x "
              "(target: within 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

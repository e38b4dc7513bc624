#!/usr/bin/env python3
"""Times `skillpg check` on the 152-skill corpus side by side with skills-ref.

skills-ref's CLI (`agentskills validate`) takes one skill per call, so it runs 152 times; its
library (`skills_ref.validator.validate`) is also timed in one process, which is the fairest
comparison. Prints medians of N runs as a Markdown table for BENCHMARKS.md.

Usage: python3 scripts/bench-vs-skills-ref.py [N]   (after `cargo build --release`)
"""
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

root = Path(__file__).resolve().parent.parent
corpus = (root / "../shared/corpus").resolve()
skillpg = root / "target/release/skillpg"
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
dirs = sorted(p.parent for p in corpus.glob("*/*/SKILL.md"))
assert len(dirs) == 152, f"expected 152 corpus skills, found {len(dirs)}"
agentskills = shutil.which("agentskills")
assert agentskills and skillpg.exists(), "needs `pip install skills-ref==0.1.1` and `cargo build --release`"


def median_seconds(fn):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def skillpg_all():
    subprocess.run([skillpg, "check", "--format", "json", *map(str, dirs)], stdout=subprocess.DEVNULL, check=False)


def skillpg_each():
    for d in dirs:
        subprocess.run([skillpg, "check", str(d)], stdout=subprocess.DEVNULL, check=False)


def skills_ref_cli():
    for d in dirs:
        subprocess.run([agentskills, "validate", str(d)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def skills_ref_library():
    subprocess.run(
        [sys.executable, "-c", "import sys; from skills_ref.validator import validate; [validate(p) for p in sys.argv[1:]]", *map(str, dirs)],
        check=True,
    )


rows = [
    ("skillpg check, one process, 152 skills (spec profile, tokens counted)", median_seconds(skillpg_all)),
    ("skills-ref library, one Python process, 152 skills", median_seconds(skills_ref_library)),
    ("skillpg check, one process per skill (152 runs)", median_seconds(skillpg_each)),
    ("skills-ref CLI `agentskills validate`, one process per skill (152 runs)", median_seconds(skills_ref_cli)),
]
base = rows[0][1]
print(f"| run ({runs} runs, median) | seconds | vs skillpg one process |")
print("|---|---|---|")
for name, secs in rows:
    print(f"| {name} | {secs:.3f} | {secs / base:.1f}× |")

"""Runs skills-ref (PyPI skills-ref 0.1.1, the reference validator) over every case folder.

Usage: python3 skills_ref_oracle.py CASES_DIR, or python3 skills_ref_oracle.py --each SKILL_DIR...
Prints one JSON object: {"version": ..., "cases": {"<case>": ["<error>", ...]}}.
Each case is CASES_DIR/<case>/<skill dir>/SKILL.md.
"""
import json
import sys
from pathlib import Path

try:
    import skills_ref
    from skills_ref.validator import validate
except ImportError:
    print("skills-ref is not installed: run `python3 -m pip install skills-ref==0.1.1`", file=sys.stderr)
    sys.exit(3)

def skill_dirs():
    if sys.argv[1] == "--each":
        for arg in sys.argv[2:]:
            yield arg, Path(arg)
        return
    for case in sorted(Path(sys.argv[1]).iterdir()):
        yield case.name, next(p for p in case.iterdir() if p.is_dir())


out = {}
for key, skill_dir in skill_dirs():
    try:
        out[key] = validate(skill_dir)
    except Exception as e:  # skills-ref crashes on non-UTF-8 input
        out[key] = [f"CRASH {type(e).__name__}: {e}"]
print(json.dumps({"version": getattr(skills_ref, "__version__", "?"), "cases": out}))

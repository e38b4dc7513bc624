"""Mistral Vibe's own skill loader, called on skill folders: an oracle of
crates/skillpg-cli/tests/client_oracles.rs, as oracles/drive.mjs is for the npm clients, and
with the same answers.

    python oracles/python/drive.py mistral-vibe <list>
    python oracles/python/drive.py mistral-vibe --discover <skills folder>

<list> is a file of absolute skill-folder paths, one a line. Prints one JSON object:
{"client", "package", "version", "cases": {<folder>: {"loads", "name", "description", "why"}}};
with --discover, {"client", "package", "version", "found": [<folder>...]}.

The package is mistral-vibe as `pip download` fetches it, unpacked into oracles/python/site by
scripts/test (its wheel is tagged for Python 3.12; py312.py lets 3.11 import it). One folder's
answer is what `SkillManager._read_skill_file` (vibe/core/skills/manager.py) does with its
SKILL.md, call for call: `read_safe`, `parse_skill_markdown`, `SkillMetadata.model_validate`;
manager.py itself uses more 3.12 syntax than py312.py rewrites, so those three calls are made
here, in its order. `_try_load_skill` skips the skill on any exception. Discovery is
`_discover_skills_in_dir`: each direct subfolder of a skills folder with a `SKILL.md` file.
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "site"))
import py312  # noqa: E402,F401  (installs the import rewriting first)

from vibe import __version__  # noqa: E402
from vibe.core.skills.models import SkillMetadata  # noqa: E402
from vibe.core.skills.parser import parse_skill_markdown  # noqa: E402
from vibe.utils.io import read_safe  # noqa: E402


def read_skill(skill_file: Path) -> SkillMetadata:
    """`_read_skill_file`'s three calls (the optional agents/openai.yaml aside: it only turns
    implicit invocation off, and never skips a skill)."""
    content = read_safe(skill_file).text
    frontmatter, _body = parse_skill_markdown(content)
    return SkillMetadata.model_validate(frontmatter)


def answer(folder: Path) -> dict:
    skill_file = folder / "SKILL.md"
    if not skill_file.is_file():
        return {"loads": False, "name": None, "description": None, "why": "no SKILL.md file"}
    try:
        meta = read_skill(skill_file)
    except Exception as e:  # _try_load_skill: `except Exception` skips the skill
        return {"loads": False, "name": None, "description": None, "why": str(e).splitlines()[0]}
    return {"loads": True, "name": meta.name, "description": meta.description, "why": None}


def discover(base: Path) -> list:
    found = []
    for skill_dir in base.iterdir():
        if skill_dir.is_dir() and (skill_dir / "SKILL.md").is_file():
            if answer(skill_dir)["loads"]:
                found.append(str(skill_dir))
    return sorted(found)


def main() -> int:
    args = sys.argv[1:]
    if len(args) != 2 and not (len(args) == 3 and args[1] == "--discover") or args[0] != "mistral-vibe":
        print("usage: drive.py mistral-vibe <list> | --discover <skills folder>", file=sys.stderr)
        return 2
    head = {"client": args[0], "package": "mistral-vibe", "version": __version__}
    if args[1] == "--discover":
        out = {**head, "found": discover(Path(args[2]))}
    else:
        folders = [f for f in Path(args[1]).read_text(encoding="utf-8").split("\n") if f]
        out = {**head, "cases": {f: answer(Path(f)) for f in folders}}
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Kimi Code CLI's own skill loader, called on skill folders: an oracle of
crates/skillpg-cli/tests/client_oracles.rs, with oracles/drive.mjs's answers.

    python oracles/kimi/drive.py kimi-cli <list>
    python oracles/kimi/drive.py kimi-cli --discover <skills folder>

<list> is a file of absolute skill-folder paths, one a line. Prints one JSON object:
{"client", "package", "version", "cases": {<folder>: {"loads", "name", "description", "why"}}};
with --discover, {"client", "package", "version", "found": [<folder>...]}.

The package is kimi-cli as `pip download` fetches it, its `kimi_cli` package unpacked into
oracles/kimi/site by oracles/kimi/install (Python 3.12). One folder's answer is what
`kimi_cli.skill.discover_skills` gives for a skills folder that holds that folder alone (a
symbolic link of its name): the loader itself, called as the CLI calls it, so a SKILL.md that
is not UTF-8 raises out of the scan as it does there. `kosong.message.ContentPart`, the one name
the loader's import path takes from kosong (for flow skills), is stubbed.
"""

import asyncio
import json
import sys
import tempfile
import types
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "site"))

_kosong = types.ModuleType("kosong")
_message = types.ModuleType("kosong.message")


class ContentPart:  # noqa: D101  (a stand-in: flow skills' prompts are never built here)
    pass


_message.ContentPart = ContentPart
_kosong.message = _message
sys.modules["kosong"] = _kosong
sys.modules["kosong.message"] = _message

from kaos.path import KaosPath  # noqa: E402
from kimi_cli.skill import discover_skills, parse_skill_text  # noqa: E402


def answer(folder: Path) -> dict:
    if not (folder / "SKILL.md").is_file():
        return {"loads": False, "name": None, "description": None, "why": "no SKILL.md file"}
    with tempfile.TemporaryDirectory() as skills:
        (Path(skills) / folder.name).symlink_to(folder, target_is_directory=True)
        try:
            found = asyncio.run(discover_skills(KaosPath(skills), scope="user"))
        except Exception as e:  # noqa: BLE001 (the scan itself raised: nothing of it loads)
            return {"loads": False, "name": None, "description": None, "why": f"the scan raised {type(e).__name__}: {e}".splitlines()[0]}
    if not found:
        # `discover_skills` logs why and goes on; its own parse says why, for the report.
        skill_md = folder / "SKILL.md"
        why = "discover_skills gives no skill"
        try:
            parse_skill_text(
                skill_md.read_text(encoding="utf-8"),
                dir_path=KaosPath(str(folder)),
                skill_md_file=KaosPath(str(skill_md)),
                scope="user",
            )
        except Exception as e:  # noqa: BLE001
            why = str(e).splitlines()[0] if str(e) else type(e).__name__
        return {"loads": False, "name": None, "description": None, "why": why}
    skill = found[0]
    return {"loads": True, "name": skill.name, "description": skill.description, "why": None}


def discover(base: Path) -> list:
    try:
        found = asyncio.run(discover_skills(KaosPath(str(base)), scope="user"))
    except Exception:  # noqa: BLE001 (a scan that raises finds nothing)
        return []
    return sorted(str(s.dir) for s in found)


def main() -> int:
    args = sys.argv[1:]
    if len(args) != 2 and not (len(args) == 3 and args[1] == "--discover") or args[0] != "kimi-cli":
        print("usage: drive.py kimi-cli <list> | --discover <skills folder>", file=sys.stderr)
        return 2
    head = {"client": args[0], "package": "kimi-cli", "version": version("kimi-cli")}
    if args[1] == "--discover":
        out = {**head, "found": discover(Path(args[2]))}
    else:
        folders = [f for f in Path(args[1]).read_text(encoding="utf-8").split("\n") if f]
        out = {**head, "cases": {f: answer(Path(f)) for f in folders}}
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

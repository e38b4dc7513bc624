"""PyYAML, as Mistral Vibe and Kimi Code CLI call it (`yaml.safe_load`), on frontmatter texts:
the oracle of crates/skillpg-core/tests/yaml_libraries.rs for the `PyYaml` dialect, with the
same answers as oracles/yaml-libraries.mjs.

    python oracles/python/yaml_library.py <cases.json>

Runs in the virtual environment scripts/test makes (oracles/python/.venv, PyYAML as
requirements.txt pins it).
"""

import datetime
import json
import sys

import yaml


def field(doc, key):
    if key not in doc:
        return {"t": "absent"}
    v = doc[key]
    if v is None:
        return {"t": "null"}
    if isinstance(v, str):
        return {"t": "str", "v": v}
    if isinstance(v, bool):
        return {"t": "bool"}
    if isinstance(v, (int, float)):
        return {"t": "num"}
    if isinstance(v, list):
        return {"t": "seq"}
    if isinstance(v, dict):
        return {"t": "map"}
    return {"t": "other"}


def reading(text):
    try:
        doc = yaml.safe_load(text)
    except Exception:  # noqa: BLE001 (any refusal is the library's answer)
        return {"kind": "error"}
    if doc is None:
        return {"kind": "fields", "name": {"t": "absent"}, "description": {"t": "absent"}}
    if not isinstance(doc, dict) or isinstance(doc, (datetime.date,)):
        return {"kind": "notmap"}
    return {"kind": "fields", "name": field(doc, "name"), "description": field(doc, "description")}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    out = {
        "libraries": {
            "PyYaml": {
                "library": f"PyYAML@{yaml.__version__}",
                "readings": [reading(text) for text in cases],
            }
        }
    }
    sys.stdout.write(json.dumps(out))


main()

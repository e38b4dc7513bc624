"""Lets Python 3.11 import Mistral Vibe's package, which is tagged for Python 3.12.

The one 3.12-only syntax on its skill loader's import path is the type-alias statement
(`type X = ...`, PEP 695). Each one in a `vibe` module is read as `X = typing.Any` where it
stands, and `X = (...)` is assigned again at the end of the module, when the names it uses
exist (left as `Any` where one never does: aliases only annotate). Nothing else is changed.
Importing this module installs the rewriting finder for the `vibe` package.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import io
import sys
import tokenize


def rewrite(source: str) -> str:
    """`source` with each top-level `type X = ...` statement moved to the module's end."""
    lines = source.splitlines(keepends=True)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    edits, tail = [], []
    for i, tok in enumerate(tokens):
        is_alias = (
            tok.type == tokenize.NAME
            and tok.string == "type"
            and tok.start[1] == 0
            and i + 2 < len(tokens)
            and tokens[i + 1].type == tokenize.NAME
            and tokens[i + 2].string == "="
        )
        if not is_alias:
            continue
        end = next(t for t in tokens[i:] if t.type in (tokenize.NEWLINE, tokenize.ENDMARKER))
        name, after_eq = tokens[i + 1].string, tokens[i + 2].end[1]
        first, last = tok.start[0], end.start[0]
        expr = lines[first - 1][after_eq:] + "".join(lines[first:last])
        # The placeholder keeps the line count, so tracebacks point at the package's lines.
        edits.append((first, last, f"{name} = __import__('typing').Any\n" + "\n" * (last - first)))
        tail.append(f"try:\n    {name} = (\n{expr.strip()}\n)\nexcept NameError:\n    pass\n")
    for first, last, text in reversed(edits):
        lines[first - 1 : last] = [text]
    return "".join(lines) + "\n" + "".join(tail)


class _Loader(importlib.machinery.SourceFileLoader):
    def source_to_code(self, data, path, *, _optimize=-1):
        return compile(rewrite(importlib.util.decode_source(data)), path, "exec", dont_inherit=True)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, roots):
        self.roots = roots

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in self.roots:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec and spec.origin and spec.origin.endswith(".py"):
            spec.loader = _Loader(name, spec.origin)
        return spec


sys.meta_path.insert(0, _Finder({"vibe"}))

"""Reads a GGUF file with the `gguf` Python package's reader (PyPI) and prints, as JSON, the
metadata the decoder needs and, for a few tensors, their type, shape, first values and sum as
the package dequantizes them. Usage: read_gguf.py FILE TENSOR...
"""
import json
import sys

import numpy as np
from gguf import GGUFReader
from gguf.quants import dequantize

reader = GGUFReader(sys.argv[1])


def field(name):
    f = reader.fields[name]
    if len(f.types) == 1 and f.types[0].name == "STRING":
        return bytes(f.parts[f.data[0]]).decode("utf-8")
    if f.types[0].name == "ARRAY":
        return len(f.data)
    return f.parts[f.data[0]].tolist()[0]


keys = ["general.architecture", "llama.block_count", "llama.embedding_length", "llama.attention.head_count", "llama.attention.head_count_kv", "tokenizer.ggml.tokens"]
out = {"metadata": {k: field(k) for k in keys}, "n_tensors": len(reader.tensors), "tensors": {}}
for t in reader.tensors:
    if t.name in sys.argv[2:]:
        values = dequantize(t.data, t.tensor_type).astype(np.float64).reshape(-1)
        out["tensors"][t.name] = {"type": t.tensor_type.name, "shape": [int(x) for x in t.shape], "first": values[:256].tolist(), "sum": float(values.sum())}
print(json.dumps(out))

"""Writes a GGUF file with the `gguf` Python package (PyPI) and the values its reference
dequantizes it to, for tests/gguf_oracle.rs: metadata of several types, and one tensor of each
type the reader supports. Q8_0, Q4_0, Q4_1, Q5_0 and Q5_1 are quantized by the package from random values;
Q4_K and Q6_K (which it only dequantizes) are random blocks with finite scales.

Usage: make_gguf.py OUT.gguf OUT.json
"""
import json
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf import quants

out, expected = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
w = gguf.GGUFWriter(out, "llama")
w.add_uint32("test.u32", 4_000_000_000)
w.add_int32("test.i32", -7)
w.add_float32("test.f32", 0.25)
w.add_bool("test.bool", True)
w.add_string("test.str", "Qwen2.5 ✓")
w.add_array("test.tokens", ["<|im_start|>", "Ġhello", "ä"])
w.add_context_length(2048)

want = {}


def add(name, qtype, values=None, raw=None):
    if raw is None:
        raw = quants.quantize(values, qtype) if qtype not in (T.F32, T.F16) else values.astype(np.float32 if qtype == T.F32 else np.float16)
    # A quantized array's shape is in bytes; the writer turns it into values.
    w.add_tensor(name, raw, raw_dtype=qtype)
    want[name] = quants.dequantize(raw, qtype).astype(np.float32).reshape(-1).tolist()


add("t.f32", T.F32, rng.standard_normal((3, 5)).astype(np.float32))
add("t.f16", T.F16, rng.standard_normal((2, 8)).astype(np.float32))
add("t.q8_0", T.Q8_0, rng.standard_normal((4, 64)).astype(np.float32))
add("t.q4_0", T.Q4_0, rng.standard_normal((2, 96)).astype(np.float32))
add("t.q4_1", T.Q4_1, rng.standard_normal((3, 32)).astype(np.float32))
add("t.q5_0", T.Q5_0, rng.standard_normal((2, 64)).astype(np.float32))
add("t.q5_1", T.Q5_1, rng.standard_normal((3, 32)).astype(np.float32))
for name, qtype, block_bytes, scale_at in [("t.q4_k", T.Q4_K, 144, [0, 2]), ("t.q6_k", T.Q6_K, 210, [208])]:
    blocks = rng.integers(0, 256, size=(4, block_bytes), dtype=np.uint8)
    for at in scale_at:
        halves = rng.uniform(-0.1, 0.1, size=4).astype(np.float16).view(np.uint8).reshape(4, 2)
        blocks[:, at:at + 2] = halves
    raw = blocks.reshape(2, 2 * block_bytes)
    add(name, qtype, raw=raw)

w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
json.dump(want, open(expected, "w"))

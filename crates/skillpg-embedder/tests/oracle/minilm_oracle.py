"""Independent oracles for the routing model, in Python.

tokenize: the `tokenizers` package (Hugging Face's Rust tokenizer) with the shipped
tokenizer.json, padding and truncation off. embed: the BERT forward pass written again with
numpy in float64, from model.safetensors, with mean pooling and L2 normalization.

Usage: python3 minilm_oracle.py tokenize|embed MODEL_SRC_DIR < texts.json > out.json
"""
import json
import struct
import sys
from pathlib import Path

mode, src = sys.argv[1], Path(sys.argv[2])
texts = json.load(sys.stdin)

if mode == "tokenize":
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(src / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    print(json.dumps([tok.encode(t).ids for t in texts]))
    sys.exit(0)

import math
import numpy as np
from tokenizers import Tokenizer

raw = (src / "model.safetensors").read_bytes()
n = struct.unpack("<Q", raw[:8])[0]
header = json.loads(raw[8:8 + n])
base = 8 + n
W = {}
for name, info in header.items():
    if name == "__metadata__" or info["dtype"] != "F32":
        continue
    a, b = info["data_offsets"]
    W[name] = np.frombuffer(raw[base + a:base + b], dtype="<f4").reshape(info["shape"]).astype(np.float64)

def ln(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-12) * g + b

erf = np.vectorize(math.erf)
tok = Tokenizer.from_file(str(src / "tokenizer.json"))
tok.no_padding()
tok.enable_truncation(256)
out = []
for t in texts:
    ids = tok.encode(t).ids
    L = len(ids)
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:L] + W["embeddings.token_type_embeddings.weight"][0]
    x = ln(x, W["embeddings.LayerNorm.weight"], W["embeddings.LayerNorm.bias"])
    for i in range(6):
        p = f"encoder.layer.{i}."
        lin = lambda h, name: h @ W[p + name + ".weight"].T + W[p + name + ".bias"]
        q, k, v = (lin(x, "attention.self." + s).reshape(L, 12, 32).transpose(1, 0, 2) for s in ("query", "key", "value"))
        s = q @ k.transpose(0, 2, 1) / math.sqrt(32)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(L, 384)
        x = ln(x + lin(ctx, "attention.output.dense"), W[p + "attention.output.LayerNorm.weight"], W[p + "attention.output.LayerNorm.bias"])
        h = lin(x, "intermediate.dense")
        h = 0.5 * h * (1 + erf(h / math.sqrt(2)))
        x = ln(x + lin(h, "output.dense"), W[p + "output.LayerNorm.weight"], W[p + "output.LayerNorm.bias"])
    e = x.mean(0)
    out.append((e / np.linalg.norm(e)).tolist())
print(json.dumps(out))

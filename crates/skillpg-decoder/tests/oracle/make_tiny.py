"""Writes synthetic tiny decoders as GGUF files with the `gguf` Python package (PyPI), for
tests/tiny_oracle.rs: random weights, two layers, grouped-query attention, both families
(`llama`: no biases, adjacent-pair rotary; `qwen2`: q/k/v biases, rotate-half rotary), in several
shapes and storage types. Prints a JSON list of what it wrote.

Also writes `tiny-chat-qwen2.gguf`: a random Qwen2 decoder with a byte-level BPE tokenizer
(GPT-2's 256 byte characters, a few merges, ChatML's special tokens; Qwen2's pre-tokenizer),
for the page's test of the decoder router (its answers are noise, read the same everywhere).

And two Hugging Face checkpoints, `tiny-hf-llama/` and `tiny-hf-qwen2/` (`config.json`,
`model.safetensors` written by hand, `tokenizer.json` saved by the `tokenizers` package), each
beside a GGUF of the same weights (`tiny-hf-*.gguf`, Q and K permuted for a `llama` GGUF as
llama.cpp's converter does), so the two readers can be held to each other and to candle.

Usage: make_tiny.py OUT_DIR
"""
import json
import os
import sys

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf import quants

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)

# (name, arch, dim, heads, kv_heads, ff, vocab, matrix type, tied head). candle's Q4 products
# want an even number of blocks a row, so the quantized rows are 64, 128 or 192 long.
SHAPES = [
    ("llama-f32", "llama", 64, 4, 2, 96, 160, T.F32, True),
    ("llama-q8_0", "llama", 96, 6, 2, 128, 192, T.Q8_0, False),
    ("llama-q4_1", "llama", 64, 4, 1, 192, 128, T.Q4_1, True),
    ("qwen2-f16", "qwen2", 64, 4, 2, 96, 160, T.F16, True),
    ("qwen2-q5_0", "qwen2", 128, 8, 2, 192, 224, T.Q5_0, False),
    ("qwen2-q4_0", "qwen2", 128, 4, 4, 128, 192, T.Q4_0, True),
]

def byte_chars():
    """GPT-2's map from bytes to printable characters, in byte order."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    out, n = {}, 0
    for b in range(256):
        if b in printable:
            out[b] = chr(b)
        else:
            out[b] = chr(256 + n)
            n += 1
    return [out[b] for b in range(256)]


MERGES = [("Ġ", "t"), ("h", "e"), ("i", "n"), ("Ġt", "he"), ("e", "r"), ("o", "n"), ("Ġ", "a"), ("r", "e")]
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHAT_TOKENS = byte_chars() + [a + b for a, b in MERGES] + SPECIALS
CHAT_TYPES = [1] * (256 + len(MERGES)) + [3] * len(SPECIALS)
SHAPES.append(("tiny-chat-qwen2", "qwen2", 64, 4, 2, 128, len(CHAT_TOKENS), T.F16, False))
# The same chat model quantized: the page's integer products (wasm SIMD) against the CLI's (AVX2).
SHAPES.append(("tiny-chat-qwen2-q4_1", "qwen2", 64, 4, 2, 128, len(CHAT_TOKENS), T.Q4_1, False))
SHAPES.append(("tiny-chat-qwen2-q8_0", "qwen2", 64, 4, 2, 128, len(CHAT_TOKENS), T.Q8_0, False))

def gguf_writer(path, arch, dim, heads, kv_heads, ff, rope_base):
    """A GGUF writer with a two-layer decoder's metadata."""
    w = gguf.GGUFWriter(path, arch)
    w.add_context_length(4096)
    w.add_embedding_length(dim)
    w.add_block_count(2)
    w.add_feed_forward_length(ff)
    w.add_head_count(heads)
    w.add_head_count_kv(kv_heads)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(rope_base)
    w.add_rope_dimension_count(dim // heads)
    return w


written = []
for seed, (name, arch, dim, heads, kv_heads, ff, vocab, qtype, tied) in enumerate(SHAPES):
    rng = np.random.default_rng(100 + seed)
    head_dim = dim // heads
    kv_dim = kv_heads * head_dim
    path = os.path.join(out_dir, f"{name}.gguf")
    w = gguf_writer(path, arch, dim, heads, kv_heads, ff, 10000.0 if arch == "llama" else 1000000.0)
    if name.startswith("tiny-chat"):
        w.add_tokenizer_model("gpt2")
        w.add_tokenizer_pre("qwen2")
        w.add_token_list(CHAT_TOKENS)
        w.add_token_types(CHAT_TYPES)
        w.add_token_merges([f"{a} {b}" for a, b in MERGES])
        w.add_eos_token_id(CHAT_TOKENS.index("<|im_end|>"))

    def matrix(tname, rows, cols, scale=None):
        values = (rng.standard_normal((rows, cols)) * (scale or 1.0 / np.sqrt(cols))).astype(np.float32)
        if qtype == T.F32:
            w.add_tensor(tname, values)
        elif qtype == T.F16:
            w.add_tensor(tname, values.astype(np.float16))
        else:
            w.add_tensor(tname, quants.quantize(values, qtype), raw_dtype=qtype)

    def vector(tname, n, around):
        w.add_tensor(tname, (around + 0.1 * rng.standard_normal(n)).astype(np.float32))

    matrix("token_embd.weight", vocab, dim, scale=1.0)
    for i in range(2):
        p = f"blk.{i}"
        vector(f"{p}.attn_norm.weight", dim, 1.0)
        matrix(f"{p}.attn_q.weight", dim, dim)
        matrix(f"{p}.attn_k.weight", kv_dim, dim)
        matrix(f"{p}.attn_v.weight", kv_dim, dim)
        if arch == "qwen2":
            vector(f"{p}.attn_q.bias", dim, 0.0)
            vector(f"{p}.attn_k.bias", kv_dim, 0.0)
            vector(f"{p}.attn_v.bias", kv_dim, 0.0)
        matrix(f"{p}.attn_output.weight", dim, dim)
        vector(f"{p}.ffn_norm.weight", dim, 1.0)
        matrix(f"{p}.ffn_gate.weight", ff, dim)
        matrix(f"{p}.ffn_up.weight", ff, dim)
        matrix(f"{p}.ffn_down.weight", dim, ff)
    vector("output_norm.weight", dim, 1.0)
    if not tied:
        matrix("output.weight", vocab, dim)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    written.append({"path": path, "arch": arch, "vocab": vocab, "type": qtype.name})



def permute(w, n_head):
    """llama.cpp's convert_hf_to_gguf: Hugging Face's rotate-half rows to adjacent pairs."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def save_safetensors(path, tensors):
    header, blobs, at = {}, [], 0
    for name, arr in tensors.items():
        raw = np.ascontiguousarray(arr).tobytes()
        header[name] = {"dtype": {np.float32: "F32", np.float16: "F16"}[arr.dtype.type], "shape": list(arr.shape), "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    head = json.dumps(header).encode()
    head += b" " * (-len(head) % 8)
    with open(path, "wb") as f:
        f.write(len(head).to_bytes(8, "little"))
        f.write(head)
        for b in blobs:
            f.write(b)


def save_tokenizer(path, arch):
    from tokenizers import AddedToken, Regex, Tokenizer, models, normalizers, pre_tokenizers, decoders
    vocab = {t: i for i, t in enumerate(CHAT_TOKENS[: 256 + len(MERGES)])}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=MERGES))
    if arch == "qwen2":
        qwen2 = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
        tok.normalizer = normalizers.NFC()
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(qwen2), behavior="isolated", invert=False), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    else:
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIALS])
    tok.save(path)


for seed, arch in enumerate(["llama", "qwen2"]):
    rng = np.random.default_rng(500 + seed)
    dim, heads, kv_heads, ff, vocab = 64, 4, 2, 96, len(CHAT_TOKENS)
    head_dim, kv_dim = dim // heads, kv_heads * dim // heads
    dtype = np.float32 if arch == "llama" else np.float16
    m = lambda r, c, sc=None: (rng.standard_normal((r, c)) * (sc or 1.0 / np.sqrt(c))).astype(dtype)
    v = lambda n, around: (around + 0.1 * rng.standard_normal(n)).astype(dtype)
    hf = {"model.embed_tokens.weight": m(vocab, dim, 1.0), "model.norm.weight": v(dim, 1.0), "lm_head.weight": m(vocab, dim)}
    for i in range(2):
        p = f"model.layers.{i}."
        hf[p + "input_layernorm.weight"] = v(dim, 1.0)
        hf[p + "post_attention_layernorm.weight"] = v(dim, 1.0)
        hf[p + "self_attn.q_proj.weight"] = m(dim, dim)
        hf[p + "self_attn.k_proj.weight"] = m(kv_dim, dim)
        hf[p + "self_attn.v_proj.weight"] = m(kv_dim, dim)
        hf[p + "self_attn.o_proj.weight"] = m(dim, dim)
        if arch == "qwen2":
            hf[p + "self_attn.q_proj.bias"] = v(dim, 0.0)
            hf[p + "self_attn.k_proj.bias"] = v(kv_dim, 0.0)
            hf[p + "self_attn.v_proj.bias"] = v(kv_dim, 0.0)
        hf[p + "mlp.gate_proj.weight"] = m(ff, dim)
        hf[p + "mlp.up_proj.weight"] = m(ff, dim)
        hf[p + "mlp.down_proj.weight"] = m(dim, ff)
    folder = os.path.join(out_dir, f"tiny-hf-{arch}")
    os.makedirs(folder, exist_ok=True)
    save_safetensors(os.path.join(folder, "model.safetensors"), hf)
    config = {
        "architectures": ["LlamaForCausalLM" if arch == "llama" else "Qwen2ForCausalLM"], "model_type": arch,
        "hidden_size": dim, "intermediate_size": ff, "num_hidden_layers": 2, "num_attention_heads": heads,
        "num_key_value_heads": kv_heads, "vocab_size": vocab, "rms_norm_eps": 1e-6, "rope_theta": 10000.0,
        "max_position_embeddings": 4096, "tie_word_embeddings": False, "hidden_act": "silu",
        "sliding_window": 256, "max_window_layers": 2, "use_sliding_window": False,
        "bos_token_id": 0, "eos_token_id": CHAT_TOKENS.index("<|im_end|>"),
    }
    json.dump(config, open(os.path.join(folder, "config.json"), "w"))
    save_tokenizer(os.path.join(folder, "tokenizer.json"), arch)
    # The same weights as a GGUF.
    path = os.path.join(out_dir, f"tiny-hf-{arch}.gguf")
    w = gguf_writer(path, arch, dim, heads, kv_heads, ff, 10000.0)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2" if arch == "qwen2" else "smollm")
    w.add_token_list(CHAT_TOKENS)
    w.add_token_types(CHAT_TYPES)
    w.add_token_merges([f"{a} {b}" for a, b in MERGES])
    names = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight", "lm_head.weight": "output.weight"}
    parts = {"input_layernorm.weight": "attn_norm.weight", "post_attention_layernorm.weight": "ffn_norm.weight", "self_attn.q_proj.weight": "attn_q.weight",
             "self_attn.k_proj.weight": "attn_k.weight", "self_attn.v_proj.weight": "attn_v.weight", "self_attn.o_proj.weight": "attn_output.weight",
             "self_attn.q_proj.bias": "attn_q.bias", "self_attn.k_proj.bias": "attn_k.bias", "self_attn.v_proj.bias": "attn_v.bias",
             "mlp.gate_proj.weight": "ffn_gate.weight", "mlp.up_proj.weight": "ffn_up.weight", "mlp.down_proj.weight": "ffn_down.weight"}
    for name, arr in hf.items():
        if name.startswith("model.layers."):
            i, rest = name[len("model.layers."):].split(".", 1)
            gname = f"blk.{i}.{parts[rest]}"
            if arch == "llama" and rest == "self_attn.q_proj.weight":
                arr = permute(arr, heads)
            if arch == "llama" and rest == "self_attn.k_proj.weight":
                arr = permute(arr, kv_heads)
        else:
            gname = names[name]
        w.add_tensor(gname, arr)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()

print(json.dumps(written))

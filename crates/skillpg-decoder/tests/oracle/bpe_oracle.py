"""Hugging Face `tokenizers` (PyPI) built from a GGUF's byte-level BPE vocabulary and merges,
with SmolLM2's pre-tokenizer (every digit alone, then GPT-2's byte-level pattern, as llama.cpp's
"smollm" and the model's tokenizer.json have it) and its control tokens as special tokens.
With a second argument `qwen2`, Qwen2's pre-tokenizer instead (tokenizer.json of Qwen2.5: NFC,
then its Split pattern, then byte-level without a pattern of its own), over the same vocabulary.
Reads a JSON list of texts on stdin; prints their ids. Usage: bpe_oracle.py FILE.gguf [qwen2]
"""
import json
import sys

from gguf import GGUFReader
from tokenizers import AddedToken, Regex, Tokenizer, models, normalizers, pre_tokenizers

reader = GGUFReader(sys.argv[1])


def strings(key):
    f = reader.fields[key]
    return [bytes(f.parts[i]).decode("utf-8") for i in f.data]


tokens = strings("tokenizer.ggml.tokens")
merges = [tuple(m.split(" ", 1)) for m in strings("tokenizer.ggml.merges")]
f = reader.fields["tokenizer.ggml.token_type"]
types = [int(f.parts[i][0]) for i in f.data]
unk = tokens[int(reader.fields["tokenizer.ggml.unknown_token_id"].parts[-1][0])]
tok = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges, unk_token=unk))
QWEN2 = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
if len(sys.argv) > 2 and sys.argv[2] == "qwen2":
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(QWEN2), behavior="isolated", invert=False), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
else:
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t, ty in zip(tokens, types) if ty in (3, 4)])
texts = json.load(sys.stdin)
print(json.dumps([tok.encode(t, add_special_tokens=False).ids for t in texts]))

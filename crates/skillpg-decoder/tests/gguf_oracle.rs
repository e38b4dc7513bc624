//! The GGUF reader against the `gguf` Python package (PyPI), an independent implementation: a
//! file it writes (metadata of several types, one tensor of each supported type) must read back
//! with the same metadata, and every tensor must dequantize to the package's reference values.

#![allow(clippy::print_stdout, reason = "the test reports what it compared")]

use itertools::Itertools;
use std::path::Path;
use std::process::Command;

use skillpg_decoder::gguf::{Gguf, Value};

#[test]
#[ignore = "slow tier, needs python3 with gguf and numpy, the oracle: scripts/test runs it"]
fn reads_what_the_gguf_package_writes_and_dequantizes_like_it() {
    let dir = std::env::temp_dir().join(format!("skillpg-gguf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (file, json) = (dir.join("t.gguf"), dir.join("t.json"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/make_gguf.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(&file)
        .arg(&json)
        .output()
        .expect("python3 is needed for the GGUF oracle");
    assert!(
        out.status.success(),
        "the oracle failed (it needs `pip install gguf==0.19.0 numpy`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&file).expect("gguf");
    let g = Gguf::parse(&bytes).expect("parses");
    assert_eq!(g.version, 3);
    assert_eq!(
        g.get("general.architecture").and_then(Value::as_str),
        Some("llama")
    );
    assert_eq!(
        g.get("test.u32").and_then(Value::as_u64),
        Some(4_000_000_000)
    );
    assert_eq!(g.get("test.i32"), Some(&Value::Int(-7)));
    assert_eq!(g.get("test.f32"), Some(&Value::Float(0.25)));
    assert_eq!(g.get("test.bool"), Some(&Value::Bool(true)));
    assert_eq!(g.get("test.str").and_then(Value::as_str), Some("Qwen2.5 ✓"));
    assert_eq!(
        g.get("test.tokens"),
        Some(&Value::Array(vec![
            Value::Str("<|im_start|>".into()),
            Value::Str("Ġhello".into()),
            Value::Str("ä".into())
        ]))
    );
    assert_eq!(
        g.get("llama.context_length").and_then(Value::as_u64),
        Some(2048)
    );
    let want: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&json).expect("json")).expect("json");
    assert_eq!(g.tensors.len(), want.len());
    for (name, values) in &want {
        let t = g
            .tensor(name)
            .unwrap_or_else(|| panic!("tensor {name} missing"));
        let got = g.to_f32(t);
        let values: Vec<f32> = values
            .as_array()
            .expect("list")
            .iter()
            .map(|v| v.as_f64().unwrap_or(f64::NAN) as f32)
            .collect();
        assert_eq!(got.len(), values.len(), "{name}: number of values");
        let worst = got
            .iter()
            .zip_eq(&values)
            .map(|(a, b)| (a - b).abs() / (1.0 + b.abs()))
            .fold(0.0f32, f32::max);
        assert!(worst <= 1e-6, "{name}: worst relative difference {worst:e}");
        println!(
            "{name} ({} values, type {}): worst relative difference {worst:e}",
            got.len(),
            skillpg_decoder::quant::GgmlType::name_of(t.type_id)
        );
    }
    // Cut short anywhere in its data, the file is refused with a message, not read wrongly (the
    // writer pads the end: cut inside the last tensor).
    let end = g.tensors.iter().map(|t| t.start + t.len).max().unwrap_or(0) as usize;
    for cut in [end - 1, end / 2, 40] {
        let e = Gguf::parse(&bytes[..cut]).expect_err("a truncated file");
        assert!(
            matches!(&e, skillpg_decoder::DecoderError::Model(m) if m.contains("truncated")),
            "cut at {cut}: {e:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

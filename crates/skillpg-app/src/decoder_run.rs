//! The decoder view's state, plain Rust: which picked files make a model, where the origin's
//! store keeps one, a run in progress (both arms over the requests, one request at a time, so
//! that the page shows progress and can stop between requests), and the finished run with
//! everything the view derives from it (cells, summary, comparison, exports). The view renders
//! it and forwards events; the experiment's logic is `skillpg-routing`'s.

use skillpg_routing::export;
use skillpg_routing::outcome::{self, AbComparison, Arm, Decision, Descriptions, Evidence};
use skillpg_routing::protocol::{CheckpointFiles, DecoderMode};
use skillpg_routing::requests::Labelled;
use skillpg_routing::skills::{self, RouteSkill};

/// The Cache API store that keeps the last model loaded.
pub const STORE: &str = "skillpg-decoder-v1";
/// Where in the store (a path of this origin, never requested from the network).
pub const KEY_PREFIX: &str = "decoder-model/";
/// A checkpoint's files in a store entry `decoder-model/<name>/<file>`.
pub const HF_FILES: [&str; 3] = ["model.safetensors", "config.json", "tokenizer.json"];

/// A model as the person brought it: a GGUF, or a checkpoint's `model.safetensors` with its
/// files.
#[derive(Debug, Clone)]
pub struct Brought {
    pub name: String,
    pub model: Vec<u8>,
    pub checkpoint: Option<CheckpointFiles>,
}

/// Which of the picked files to read, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picked {
    Gguf(usize),
    Checkpoint {
        model: usize,
        config: usize,
        tokenizer: usize,
    },
}

impl Picked {
    /// The weights' file.
    pub fn model(self) -> usize {
        match self {
            Picked::Gguf(i) | Picked::Checkpoint { model: i, .. } => i,
        }
    }
}

/// What a set of picked or dropped files is: one GGUF, or a checkpoint's three files; or why
/// neither.
pub fn classify(names: &[String]) -> Result<Picked, String> {
    if let Some(i) = names
        .iter()
        .position(|n| n.to_lowercase().ends_with(".gguf"))
    {
        return Ok(Picked::Gguf(i));
    }
    let base = |n: &String| n.rsplit('/').next().unwrap_or(n).to_owned();
    let find = |want: &str| names.iter().position(|n| base(n) == want);
    if names
        .iter()
        .any(|n| base(n).starts_with("model-0") && n.ends_with(".safetensors"))
    {
        return Err("this checkpoint is split into several .safetensors files; the page reads one model.safetensors (Qwen2.5-0.5B and SmolLM2 ship one), or use a GGUF"
            .to_owned());
    }
    match (find("model.safetensors"), find("config.json"), find("tokenizer.json")) {
        (Some(m), Some(c), Some(t)) => Ok(Picked::Checkpoint { model: m, config: c, tokenizer: t }),
        (Some(_), _, _) => Err("a model.safetensors needs its config.json and tokenizer.json beside it: pick the three files together, or the folder".to_owned()),
        _ => Err("pick a .gguf file, or a Hugging Face model's model.safetensors, config.json and tokenizer.json (or its folder)".to_owned()),
    }
}

/// A picked model's name: a GGUF's file name, a checkpoint's folder when the browser says it.
pub fn picked_name(names: &[String], picked: Picked) -> String {
    let path = &names[picked.model()];
    match picked {
        Picked::Gguf(_) => path.rsplit('/').next().unwrap_or(path).to_owned(),
        Picked::Checkpoint { .. } => path.rsplit_once('/').map_or_else(
            || "model".to_owned(),
            |(dir, _)| dir.rsplit('/').next().unwrap_or(dir).to_owned(),
        ),
    }
}

/// A store key's model (its encoded name) and file.
pub fn split_key(key: &str) -> Option<(String, String)> {
    let tail = key.rsplit_once(KEY_PREFIX)?.1;
    let (name, file) = tail.split_once('/')?;
    Some((name.to_owned(), file.to_owned()))
}

/// The stored models: encoded name and the model file's size, from the store's keys.
pub fn stored_models(entries: &[(String, Option<u64>)]) -> Vec<(String, Option<u64>)> {
    entries
        .iter()
        .filter_map(|(key, size)| {
            split_key(key)
                .filter(|(_, file)| file == "model.gguf" || file == HF_FILES[0])
                .map(|(name, _)| (name, *size))
        })
        .collect()
}

/// The labels of the two arms.
const ARMS: [(Descriptions, &str); 2] = [
    (Descriptions::AsWritten, "A (as written)"),
    (Descriptions::Thinned, "B (thinned)"),
];

/// A run in progress: both arms over the same requests, one request at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct RunProgress {
    skills: [Vec<RouteSkill>; 2],
    requests: Vec<Labelled>,
    mode: DecoderMode,
    decisions: [Vec<Decision>; 2],
    prefix_tokens: u64,
    started_ms: f64,
}

impl RunProgress {
    /// A run of `skills` as written (A) and thinned (B) over `requests`.
    pub fn new(
        skills: Vec<RouteSkill>,
        requests: Vec<Labelled>,
        mode: DecoderMode,
        started_ms: f64,
    ) -> RunProgress {
        let thin = skills.iter().map(RouteSkill::thinned).collect();
        RunProgress {
            skills: [skills, thin],
            requests,
            mode,
            decisions: [Vec::new(), Vec::new()],
            prefix_tokens: 0,
            started_ms,
        }
    }

    fn arm(&self) -> usize {
        usize::from(self.decisions[0].len() == self.requests.len())
    }

    fn done(&self) -> usize {
        self.decisions[0].len() + self.decisions[1].len()
    }

    /// The next request to route and the skills to route it over, or `None` when both arms
    /// are done.
    pub fn next(&self) -> Option<(&[RouteSkill], &str, DecoderMode)> {
        let arm = self.arm();
        self.requests
            .get(self.decisions[arm].len())
            .map(|r| (&self.skills[arm][..], r.query.as_str(), self.mode))
    }

    /// Keeps the next request's decision.
    pub fn record(&mut self, decision: Decision, prefix_tokens: u64) {
        let arm = self.arm();
        self.decisions[arm].push(decision);
        if arm == 0 {
            self.prefix_tokens = prefix_tokens;
        }
    }

    /// Where the run is, in words.
    pub fn status(&self, now_ms: f64) -> String {
        let (arm, done, total) = (self.arm(), self.done(), 2 * self.requests.len());
        let per = if done > 0 {
            format!(
                ", {:.1} s a request",
                (now_ms - self.started_ms) / 1000.0 / done as f64
            )
        } else {
            String::new()
        };
        format!(
            "Arm {}: request {} of {} ({done} of {total} done{per})…",
            ARMS[arm].1,
            self.decisions[arm].len() + 1,
            self.requests.len()
        )
    }

    /// The finished run (`None` while a request is left), by `model`.
    pub fn finish(self, model: String, now_ms: f64) -> Option<DecoderRun> {
        if self.next().is_some() {
            return None;
        }
        let RunProgress {
            skills: [rich, thin],
            requests,
            mode,
            decisions: [a, b],
            prefix_tokens,
            started_ms,
        } = self;
        let arm = |skills: &[RouteSkill], (descriptions, _): (Descriptions, &str), decisions| Arm {
            names: skills::names(skills),
            descriptions,
            decisions,
        };
        Some(DecoderRun {
            mode,
            model,
            a: arm(&rich, ARMS[0], a),
            b: arm(&thin, ARMS[1], b),
            requests,
            prefix_tokens,
            ms: now_ms - started_ms,
        })
    }
}

/// A finished run: both arms over the same requests.
#[derive(Debug, Clone, PartialEq)]
pub struct DecoderRun {
    pub mode: DecoderMode,
    /// What the model is (an export's `model`).
    pub model: String,
    pub requests: Vec<Labelled>,
    pub a: Arm,
    pub b: Arm,
    /// Tokens of the cached system turn.
    pub prefix_tokens: u64,
    pub ms: f64,
}

impl DecoderRun {
    /// The comparison of the arms, when every request is labelled.
    pub fn comparison(&self) -> Option<AbComparison> {
        outcome::compare(&self.requests, &self.a, &self.b).ok()
    }

    /// The run as the export file `skillpg compare --format json` writes.
    pub fn json(&self) -> String {
        export::compare_json(
            &self.model,
            self.mode.method(),
            &self.requests,
            &self.a,
            &self.b,
            self.comparison().as_ref(),
        )
    }

    /// The same as CSV.
    pub fn csv(&self) -> String {
        export::compare_csv(&self.requests, &self.a, &self.b)
    }

    /// What the run cost, and what the cache saved.
    pub fn summary(&self) -> String {
        let n = self.requests.len();
        let answers = self.a.decisions.iter().chain(&self.b.decisions);
        let mean_prefill = answers.filter_map(Decision::prefill_tokens).sum::<u64>() as f64
            / (2 * n).max(1) as f64;
        format!(
            "{n} requests × 2 arms in {:.1} s ({:.1} s a request). The system turn ({} tokens) is prefilled once per arm and its key/value cache reused: a request prefills {mean_prefill:.0} tokens of its own on average, {:.0} without the cache.",
            self.ms / 1000.0,
            self.ms / 1000.0 / (2 * n).max(1) as f64,
            self.prefix_tokens,
            mean_prefill + self.prefix_tokens as f64
        )
    }
}

/// A decision as its table cell shows it, and its verbatim answer (empty for constrained choice).
pub fn cell(arm: &Arm, d: &Decision) -> (String, String) {
    let choice = arm.name_of(d);
    match &d.evidence {
        Evidence::Choice { distribution, .. } => (
            format!(
                "{choice} ({:.0}%)",
                distribution.iter().copied().fold(0.0f32, f32::max) * 100.0
            ),
            String::new(),
        ),
        Evidence::Answer {
            verbatim,
            recognised: false,
            ..
        } => (format!("{verbatim:?} → NONE"), verbatim.clone()),
        Evidence::Answer { verbatim, .. } => (choice.to_owned(), verbatim.clone()),
        Evidence::Cosines { .. } => (choice.to_owned(), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillpg_routing::NONE;

    #[test]
    fn picked_files_are_a_gguf_or_a_checkpoint() {
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            classify(&names(&["notes.txt", "SmolLM2.Q4_1.GGUF"])),
            Ok(Picked::Gguf(1))
        );
        let folder = names(&[
            "qwen/config.json",
            "qwen/model.safetensors",
            "qwen/tokenizer.json",
            "qwen/README.md",
        ]);
        assert_eq!(
            classify(&folder),
            Ok(Picked::Checkpoint {
                model: 1,
                config: 0,
                tokenizer: 2
            })
        );
        assert_eq!(
            picked_name(
                &folder,
                Picked::Checkpoint {
                    model: 1,
                    config: 0,
                    tokenizer: 2
                }
            ),
            "qwen"
        );
        assert!(
            classify(&names(&["model.safetensors"]))
                .expect_err("refused")
                .contains("config.json and tokenizer.json")
        );
        assert!(
            classify(&names(&["model-00001-of-00002.safetensors", "config.json"]))
                .expect_err("refused")
                .contains("several")
        );
        assert!(
            classify(&names(&["skill.md"]))
                .expect_err("refused")
                .contains(".gguf")
        );
    }

    #[test]
    fn the_store_lists_its_models() {
        let entries = [
            (
                "https://x/decoder-model/SmolLM2%20135M/model.gguf".to_owned(),
                Some(138),
            ),
            (
                "https://x/decoder-model/qwen/config.json".to_owned(),
                Some(1),
            ),
            (
                "https://x/decoder-model/qwen/model.safetensors".to_owned(),
                None,
            ),
            ("https://x/other".to_owned(), Some(1)),
        ];
        assert_eq!(
            stored_models(&entries),
            [
                ("SmolLM2%20135M".to_owned(), Some(138)),
                ("qwen".to_owned(), None)
            ]
        );
    }

    fn answer(verbatim: &str, choice: Option<usize>, recognised: bool) -> Decision {
        Decision {
            choice,
            evidence: Evidence::Answer {
                verbatim: verbatim.into(),
                recognised,
                prefill_tokens: 10,
                generated_tokens: 2,
                capped: false,
            },
        }
    }

    #[test]
    fn a_run_goes_through_both_arms_then_finishes() {
        let skills = vec![RouteSkill {
            name: "sql".into(),
            description: "Reviews SQL. Use when asked.".into(),
        }];
        let requests = vec![
            Labelled {
                query: "check my query".into(),
                expected: "sql".into(),
            },
            Labelled {
                query: "hi".into(),
                expected: NONE.into(),
            },
        ];
        let mut p = RunProgress::new(skills, requests, DecoderMode::Chapter, 0.0);
        assert_eq!(
            p.next().map(|(s, q, _)| (s[0].description.as_str(), q)),
            Some(("Reviews SQL. Use when asked.", "check my query"))
        );
        assert_eq!(
            p.status(0.0),
            "Arm A (as written): request 1 of 2 (0 of 4 done)…"
        );
        p.record(answer("sql", Some(0), true), 300);
        p.record(answer("NONE", None, true), 300);
        assert_eq!(
            p.next().map(|(s, q, _)| (s[0].description.as_str(), q)),
            Some(("Reviews SQL.", "check my query"))
        );
        assert_eq!(
            p.status(4000.0),
            "Arm B (thinned): request 1 of 2 (2 of 4 done, 2.0 s a request)…"
        );
        p.record(answer("I would say sql", None, false), 280);
        assert!(
            p.clone().finish("m".into(), 5000.0).is_none(),
            "a request is left"
        );
        p.record(answer("sql", Some(0), true), 280);
        let run = p.finish("SmolLM2".into(), 8000.0).expect("done");
        assert_eq!((run.prefix_tokens, run.ms), (300, 8000.0));
        assert_eq!(run.b.descriptions, Descriptions::Thinned);
        let cmp = run.comparison().expect("labelled");
        assert_eq!((cmp.stats.a.correct, cmp.stats.b.correct), (2, 0));
        assert_eq!(
            cell(&run.b, &run.b.decisions[0]),
            (
                "\"I would say sql\" → NONE".to_owned(),
                "I would say sql".to_owned()
            )
        );
        assert!(run.summary().starts_with(
            "2 requests × 2 arms in 8.0 s (2.0 s a request). The system turn (300 tokens)"
        ));
        let json: serde_json::Value = serde_json::from_str(&run.json()).expect("json");
        assert_eq!(
            (json["model"].as_str(), json["method"].as_str()),
            (Some("SmolLM2"), Some("chapter"))
        );
        assert_eq!(json["comparison"]["sign_test_p"], 0.5);
    }
}

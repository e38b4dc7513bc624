//! `skillpg`: the engine on the command line.
//!
//! Exit codes: 0 when every skill passes, 1 when any has an error under the profile, 2 on a
//! usage error (bad flags, a path that does not exist).

#![allow(
    clippy::print_stdout,
    reason = "a command-line program prints its results"
)]

mod doctor;
mod eval_cmd;
mod github_cmd;
mod render;
mod route_cmd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use skillpg_core::cost::{CostInputs, cost};
use skillpg_core::ingest::Ingested;
use skillpg_core::{Analysis, Diagnostic, Profile, analyze, check, check_catalog_with};
use skillpg_routing::export;
use skillpg_routing::outcome::Descriptions;
use skillpg_routing::skills::RouteSkill;

#[derive(Parser, Debug)]
#[command(
    name = "skillpg",
    version,
    about = "Check, count, price and fix Agent Skills (o200k_base token counts)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate skills against a product profile.
    Check {
        /// A profile's key (an unknown one gets the list of keys), or all (one verdict per
        /// client); skillpg.toml's `profiles` when not given, else spec.
        #[arg(long)]
        profile: Option<String>,
        /// Fail only on errors this baseline (`skillpg baseline`) does not hold; the others are
        /// still printed.
        #[arg(long, value_name = "FILE")]
        baseline: Option<PathBuf>,
        /// The project's settings (profiles, ignored rules, severities, roots); `skillpg.toml`
        /// in the working folder when it exists.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
        format: CheckFormat,
        /// Context window (tokens) for the clients' listing budgets (skillpg.toml's, else
        /// 200,000).
        #[arg(long, value_parser = context_window_arg)]
        context_window: Option<usize>,
        /// The skills given are installed together: also check the catalog as a whole (each
        /// client's listing budget), reported once.
        #[arg(long)]
        catalog: bool,
        #[command(flatten)]
        listing_settings: ListingArgs,
        /// The paths are files of skills, as pre-commit passes them: check each skill folder
        /// holding one (the nearest with a SKILL.md), once; a file in no skill is passed over.
        #[arg(long)]
        skills_of: bool,
        /// Skill folders, folders of skills, SKILL.md files, .zip or .skill archives;
        /// skillpg.toml's `roots` when none are given.
        paths: Vec<PathBuf>,
    },
    /// Record today's errors as a baseline (JSON on stdout), so that `check --baseline FILE`
    /// fails only on new ones.
    Baseline {
        /// A profile's key, or all; skillpg.toml's `profiles` when not given, else spec (as
        /// `check` chooses).
        #[arg(long)]
        profile: Option<String>,
        /// The project's settings, as `check` reads them.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// The skills; skillpg.toml's `roots` when none are given.
        paths: Vec<PathBuf>,
    },
    /// How each client lists the skills installed together: its budget at a context window,
    /// which descriptions it shortens and which skills it leaves out.
    Listing {
        /// Context window (tokens) for the clients' listing budgets (skillpg.toml's, else
        /// 200,000, as every edge assumes).
        #[arg(long, value_parser = context_window_arg)]
        context_window: Option<usize>,
        #[command(flatten)]
        listing_settings: ListingArgs,
        /// A budget gate for CI: exit 1 when a client's whole listing costs more than this, as
        /// a share of its budget (`90%`) or a cost in its unit (`12000`), for one client
        /// (`codex=90%`) or every client with a budget. `100%` fails when anything is cut.
        #[arg(long = "fail-over", value_name = "[CLIENT=]LIMIT")]
        fail_over: Vec<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The skills installed together; skillpg.toml's `roots` when none are given.
        paths: Vec<PathBuf>,
    },
    /// Where to put each skill for each client: the folders it searches, how deep, which copy
    /// wins a name installed twice, and for a skill a client would not list, the first reason.
    Where {
        /// One client's key (`gemini-cli`), or `all`.
        #[arg(long, default_value = "all")]
        client: String,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Scan a home or project folder as each client scans it (`.claude/skills`, `.agents/skills`,
    /// `.codex/skills`, ...): every skill each client would list, and why each other one would
    /// not (its depth, a gate, a name installed twice, the listing's budget).
    Doctor {
        /// One client's key, or `all`.
        #[arg(long, default_value = "all")]
        client: String,
        /// Context window (tokens) for the listing budgets (200,000 when not given, as every
        /// edge assumes).
        #[arg(long, value_parser = context_window_arg)]
        context_window: Option<usize>,
        #[command(flatten)]
        listing_settings: ListingArgs,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The home or project folder (`~`, or a repository's root).
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Count the three levels in o200k_base tokens.
    Levels {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Price a skill against a system prompt over n turns.
    Cost {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[arg(long, default_value_t = 40)]
        turns: u64,
        /// The turn on which the skill is used.
        #[arg(long)]
        activate_at: Option<u64>,
        /// A bundled file read when the skill is used (repeatable).
        #[arg(long = "read")]
        read: Vec<String>,
        /// $ per million input tokens.
        #[arg(long, default_value_t = CostInputs::DEFAULT_PRICE)]
        price: f64,
        /// $ per million cached input tokens.
        #[arg(long, default_value_t = CostInputs::DEFAULT_CACHED_PRICE)]
        cached_price: f64,
        #[arg(long, requires_all = ["l2", "l3"], conflicts_with = "path")]
        l1: Option<u64>,
        #[arg(long, requires = "l1")]
        l2: Option<u64>,
        #[arg(long, requires = "l1")]
        l3: Option<u64>,
        /// Tokens of the files read on use (with --l1).
        #[arg(long, requires = "l1", conflicts_with = "read")]
        read_tokens: Option<u64>,
        /// The skill to price (or give --l1 --l2 --l3).
        #[arg(required_unless_present = "l1")]
        path: Option<PathBuf>,
    },
    /// Apply the safe fixes and print the diff.
    Fix {
        /// Also apply fixes that change meaning.
        #[arg(long = "unsafe")]
        include_unsafe: bool,
        /// Write the result back (the default only prints the diff).
        #[arg(long)]
        write: bool,
        #[arg(long, default_value = "spec")]
        profile: String,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// List every rule with its code and source, or explain one (`skillpg rules SPG038`).
    Rules {
        /// A code (SPG038) or a rule name (name-dir-mismatch).
        rule: Option<String>,
    },
    /// Route requests to skills with a small model (a preview, not a product's router).
    Route {
        #[command(flatten)]
        router: route_cmd::RouterArgs,
        #[arg(long, value_enum, default_value_t = RouteFormat::Text)]
        format: RouteFormat,
        /// Requests: a labelled JSON list (`[{"query","expected"}]` or skill-creator's
        /// `[{"query","should_trigger"}]`) or one request per line (`request => skill` labels it).
        #[arg(long)]
        requests: PathBuf,
        /// Find the best threshold and margin on the labelled requests first.
        #[arg(long)]
        calibrate: bool,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// The decoder router's system prompt for these skills, as the model sees it (the page shows
    /// it under "The system prompt the model sees").
    Prompt {
        /// The thinned descriptions (the chapter's arm B).
        #[arg(long)]
        thin: bool,
        /// Print, as JSON, the text the model is fed in the decoder's chat template: `prefix`
        /// (the system turn, up to the user turn's special token) and `requests` (each
        /// `--request`'s turn after the prefix), so that a peer runs the same text.
        #[arg(long)]
        chat: bool,
        /// A request whose turn `--chat` prints (repeat it for more).
        #[arg(long = "request", requires = "chat")]
        requests: Vec<String>,
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// The description lab: skill-creator's trigger evals for one skill, split into train and
    /// validation by a seed, with precision, recall and accuracy per part and the near misses;
    /// `--draft` compares a new description on validation (a preview by a small model).
    Eval {
        #[command(flatten)]
        args: eval_cmd::EvalArgs,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compare two description sets on labelled requests: accuracy, Wilson intervals, sign test.
    Compare {
        #[command(flatten)]
        router: route_cmd::RouterArgs,
        #[arg(long, value_enum, default_value_t = RouteFormat::Text)]
        format: RouteFormat,
        #[arg(long)]
        requests: PathBuf,
        /// Skills of arm A.
        #[arg(long, num_args = 1.., required = true)]
        a: Vec<PathBuf>,
        /// Skills of arm B (or --thin-b: A's descriptions cut to their bare subject).
        #[arg(long, num_args = 1..)]
        b: Vec<PathBuf>,
        #[arg(long)]
        thin_b: bool,
    },
    /// The statistics of the comparison.
    Stats {
        #[command(subcommand)]
        what: StatsCommand,
    },
    /// Pack the model's weights for the page and the CLI.
    ModelPack {
        #[arg(long)]
        safetensors: PathBuf,
        #[arg(long)]
        vocab: PathBuf,
        #[arg(long, default_value = route_cmd::DEFAULT_MODEL_DIR)]
        out: PathBuf,
    },
    /// The playground link the page makes for these skills (`#v1=...`), and a Markdown badge
    /// that opens it.
    Share {
        /// The page's address: where it is hosted (`https://OWNER.github.io/REPO/`), or
        /// `scripts/serve`'s.
        #[arg(long, default_value = "http://127.0.0.1:8080/")]
        base: String,
        /// The view the link opens on: check, levels, tokens, cost, routing, share, rules or
        /// present.
        #[arg(long, default_value = "check")]
        view: String,
        /// The profile the page shows.
        #[arg(long, default_value = "spec")]
        profile: String,
        /// Print Zed's share link instead (`zed://skill?data=`: one skill's SKILL.md, which
        /// opens Zed's Create Skill form).
        #[arg(long, conflicts_with = "well_known")]
        zed: bool,
        /// Write the Agent Skills discovery folder here instead: `.well-known/agent-skills/
        /// index.json` (v0.2.0, with each file's SHA-256) and each skill's files beside it, for
        /// a static site's root.
        #[arg(long, value_name = "DIR")]
        well_known: Option<PathBuf>,
        /// Skill folders, folders of skills, SKILL.md files, .zip or .skill archives.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// The GitHub Action's step: check the skills a pull request or push changes (from
    /// GITHUB_EVENT_PATH and git), annotate their lines, write the job summary and outputs.
    Github(github_cmd::GithubArgs),
    /// Serve the checks, counts and fixes to an editor (Language Server Protocol over stdio).
    ///
    /// Profiles: the editor's `initializationOptions.profiles`, else skillpg.toml's at the
    /// workspace folder, else spec.
    Lsp {
        /// Accepted for editors that pass it (VS Code's language client does); stdio is the
        /// only transport.
        #[arg(long, hide = true)]
        stdio: bool,
    },
}

#[derive(Subcommand, Debug)]
enum StatsCommand {
    /// Wilson 95% interval of K successes in N trials, in percent.
    Wilson { k: u64, n: u64 },
    /// Exact two-sided sign test on B and C discordant pairs.
    SignTest { b: u64, c: u64 },
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
enum CheckFormat {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
enum Format {
    Text,
    Json,
}

/// How `route` and `compare` write their results: JSON and CSV are `skillpg-routing`'s export
/// files, the page's byte for byte.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
enum RouteFormat {
    Text,
    Json,
    Csv,
}

fn main() -> ExitCode {
    // `skillpg check | head` closes the pipe early: that ends the output, not in a panic's
    // backtrace (Rust ignores SIGPIPE, so printing fails instead; unsafe code that would restore
    // the signal is forbidden here).
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// `--context-window`: a number of tokens in the range the page allows
/// (`catalog::CONTEXT_WINDOW_RANGE`); anything else is a usage error, never a wrapped product.
fn context_window_arg(text: &str) -> Result<usize, String> {
    let window: usize = text
        .trim()
        .replace(['_', ','], "")
        .parse()
        .map_err(|_| format!("{text:?} is not a number of tokens"))?;
    skillpg_core::catalog::checked_context_window(window)
}

/// Reads every path; a path that cannot be read is a usage error.
fn load(paths: &[PathBuf]) -> Result<Vec<(Ingested, PathBuf)>, String> {
    // Build the tokenizer while the files are read: most runs will count something.
    rayon::spawn(skillpg_tokens::warm_up);
    parallel_map(paths, |p| skillpg_fs::read_path(p).map(|i| (i, p.clone())))
        .into_iter()
        .collect()
}

/// An input that holds no skill (an unreadable archive, a zip bomb), as an error that names it
/// and its findings: counting, fixing or routing it would do nothing, silently.
fn require_skills(inputs: &[(Ingested, PathBuf)]) -> Result<(), String> {
    match inputs
        .iter()
        .find_map(|(ingested, path)| ingested.why_no_skill().map(|why| (path, why)))
    {
        Some((path, why)) => Err(format!("{}: {why}", path.display())),
        None => Ok(()),
    }
}

/// Analyzes every skill found; an input that holds none is an error (`require_skills`).
fn analyze_all(inputs: &[(Ingested, PathBuf)]) -> Result<Vec<Analysis>, String> {
    require_skills(inputs)?;
    let bundles: Vec<&skillpg_core::SkillBundle> =
        inputs.iter().flat_map(|(i, _)| &i.skills).collect();
    Ok(parallel_map(&bundles, |b| analyze(b)))
}

/// The skills of every input, analyzed once for every profile. Each input's own findings (an
/// archive's layout, a bomb, a path that leaves the folder) go through the profile as a skill's
/// do and come first on the input's first skill; an input that held no skill is checked as one
/// empty skill at the input's path (`Ingested::checked_skills`), so its findings are never
/// dropped and its verdict is never "valid".
struct Checked {
    analyses: Vec<Analysis>,
    /// For each skill, the input whose own findings come first on it (its first skill).
    owner: Vec<Option<usize>>,
}

fn analyze_inputs(inputs: &[(Ingested, PathBuf)]) -> Checked {
    let checked: Vec<_> = inputs
        .iter()
        .map(|(ingested, path)| ingested.checked_skills(&path.display().to_string()))
        .collect();
    let mut bundles = Vec::new();
    let mut owner = Vec::new();
    for (input, skills) in checked.iter().enumerate() {
        for (idx, skill) in skills.iter().enumerate() {
            owner.push((idx == 0).then_some(input));
            bundles.push(skill);
        }
    }
    Checked {
        analyses: parallel_map(&bundles, |b| analyze(b)),
        owner,
    }
}

/// Every skill's findings under `profile`.
fn check_under(
    inputs: &[(Ingested, PathBuf)],
    checked: &Checked,
    profile: &Profile,
) -> Vec<Vec<Diagnostic>> {
    let own = parallel_map(&checked.analyses, |a| check(a, profile));
    checked
        .owner
        .iter()
        .zip(own)
        .map(|(owner, own)| {
            let mut all = owner
                .map(|i| inputs[i].0.findings(profile))
                .unwrap_or_default();
            all.extend(own);
            all
        })
        .collect()
}

/// `f` over `items` on every core (rayon's pool, which each thread takes the next item from, so
/// one large skill does not hold up a fixed share of the others), results in order: skills are
/// independent, and tokenizing a large folder is the slow part of a check.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(f).collect()
}

fn profile(key: &str) -> Result<&'static Profile, String> {
    Profile::by_key(key).ok_or_else(|| {
        let keys: Vec<&str> = skillpg_core::profile::ALL.iter().map(|p| p.key).collect();
        format!(
            "unknown profile '{key}' (expected {}, or all)",
            keys.join(", ")
        )
    })
}

/// The project's settings: `--config FILE`, else `skillpg.toml` in the working folder when it
/// exists; with the folder its relative roots are read from.
fn project_config(
    given: Option<&std::path::Path>,
) -> Result<Option<(skillpg_report::config::Config, PathBuf)>, String> {
    let path = match given {
        Some(p) => p.to_path_buf(),
        None => {
            let here = PathBuf::from(skillpg_report::config::FILE_NAME);
            if !here.exists() {
                return Ok(None);
            }
            here
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let config = skillpg_report::config::Config::parse(&text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    Ok(Some((config, dir)))
}

/// The profiles a command checks against: `--profile`, else skillpg.toml's `profiles`, else
/// spec, resolved as every edge resolves them (`Profile::resolve`: each once, an unknown key
/// an error).
fn chosen_profiles(
    key: Option<&str>,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
) -> Result<Vec<&'static Profile>, String> {
    match (key, project) {
        (Some(k), _) => Profile::resolve(&[k]),
        (None, Some((c, _))) => Profile::resolve(&c.profiles),
        (None, None) => Profile::resolve::<&str>(&[]),
    }
}

/// The paths given, else skillpg.toml's `roots` (relative to the file).
fn project_paths(
    paths: Vec<PathBuf>,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
) -> Result<Vec<PathBuf>, String> {
    match (paths.is_empty(), project) {
        (false, _) => Ok(paths),
        (true, Some((c, dir))) if !c.roots.is_empty() => {
            Ok(c.roots.iter().map(|r| dir.join(r)).collect())
        }
        _ => Err(
            "give the skills to check (folders, SKILL.md files, archives), or list `roots` in skillpg.toml"
                .to_owned(),
        ),
    }
}

/// Each skill's findings under `p`, with the project's ignores and severities applied before
/// anything is printed or judged; and how many were ignored.
fn check_in_project(
    inputs: &[(Ingested, PathBuf)],
    checked: &Checked,
    p: &Profile,
    project: Option<&(skillpg_report::config::Config, PathBuf)>,
) -> (Vec<Vec<Diagnostic>>, usize) {
    let mut per_skill = check_under(inputs, checked, p);
    let mut ignored = 0;
    if let Some((c, _)) = project {
        for (a, d) in checked.analyses.iter().zip(per_skill.iter_mut()) {
            ignored += c.apply(d, a.display_name(), &a.dir_name);
        }
    }
    (per_skill, ignored)
}

/// The profiles `key` names: one, or every client for `all`.
fn profiles(key: &str) -> Result<Vec<&'static Profile>, String> {
    Profile::resolve(&[key])
}

/// Claude Code's listing settings (`settings.json`), for the listing budgets.
#[derive(Debug, Clone, clap::Args)]
struct ListingArgs {
    /// Claude Code's `skillListingMaxDescChars`: the most of one description its listing shows
    /// (1,536 by default).
    #[arg(long)]
    max_desc_chars: Option<usize>,
    /// Claude Code's `skillListingBudgetFraction`: the listing's share of the context window
    /// (0.01, 1%, by default).
    #[arg(long)]
    budget_fraction: Option<f64>,
    /// Claude Code's `skillOverrides` for one skill, by its name: `NAME=on`, `name-only`,
    /// `user-invocable-only` or `off` (repeat for each skill).
    #[arg(long = "skill-override", value_name = "NAME=STATE")]
    skill_override: Vec<String>,
}

impl ListingArgs {
    fn settings(self) -> Result<skillpg_core::catalog::ListingSettings, String> {
        if let Some(f) = self.budget_fraction
            && !(f.is_finite() && f > 0.0 && f <= 1.0)
        {
            return Err(format!(
                "--budget-fraction {f}: a share of the window, above 0 and at most 1"
            ));
        }
        use skillpg_core::catalog::{ListingSettings, SkillOverride};
        if let Some(n) = self
            .max_desc_chars
            .filter(|n| !(1..=ListingSettings::MAX_DESCRIPTION_CAP).contains(n))
        {
            return Err(format!(
                "--max-desc-chars {n}: give 1 to {} characters",
                ListingSettings::MAX_DESCRIPTION_CAP
            ));
        }
        let states = || SkillOverride::ALL.map(SkillOverride::as_str).join(", ");
        let overrides = self
            .skill_override
            .iter()
            .map(|o| {
                let (name, state) = o.split_once('=').ok_or_else(|| {
                    format!("--skill-override {o}: write NAME=STATE ({})", states())
                })?;
                let state = SkillOverride::parse(state.trim()).ok_or_else(|| {
                    format!("--skill-override {o}: the state is one of {}", states())
                })?;
                Ok((name.trim().to_owned(), state))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(ListingSettings {
            max_description_chars: self.max_desc_chars,
            budget_fraction: self.budget_fraction,
            overrides,
        })
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Check {
            profile: key,
            baseline,
            config,
            format,
            context_window,
            catalog,
            listing_settings,
            skills_of,
            mut paths,
        } => {
            let settings = listing_settings.settings()?;
            let project = project_config(config.as_deref())?;
            if skills_of {
                let skills = skillpg_fs::skill_folders_holding(&paths);
                if skills.is_empty() {
                    eprintln!("no skill holds the {} file(s) given", paths.len());
                    return Ok(ExitCode::SUCCESS);
                }
                paths = skills;
            }
            let profiles = chosen_profiles(key.as_deref(), project.as_ref())?;
            let context_window = context_window
                .or(project.as_ref().and_then(|(c, _)| c.context_window))
                .unwrap_or(skillpg_core::catalog::DEFAULT_CONTEXT_WINDOW);
            let paths = project_paths(paths, project.as_ref())?;
            let inputs = load(&paths)?;
            let checked = analyze_inputs(&inputs);
            let analyses = &checked.analyses;
            // Each profile's findings per skill (the clients' matrix), and its catalog findings.
            let mut checks = Vec::new();
            let mut catalogs = Vec::new();
            let mut reports = Vec::new();
            let mut ignored = 0;
            for p in &profiles {
                let (per_skill, p_ignored) =
                    check_in_project(&inputs, &checked, p, project.as_ref());
                ignored += p_ignored;
                let mut catalog_diags = if catalog {
                    check_catalog_with(analyses, p, context_window, &settings)
                } else {
                    Vec::new()
                };
                if let Some((c, _)) = &project {
                    c.apply_catalog(&mut catalog_diags);
                }
                reports.push(skillpg_report::check_json(
                    p,
                    analyses,
                    &per_skill,
                    &catalog_diags,
                ));
                checks.push((*p, per_skill));
                catalogs.push(catalog_diags);
            }
            if ignored > 0 {
                eprintln!("skillpg.toml: {ignored} finding(s) ignored, each with its reason");
            }
            let all = profiles.len() > 1;
            match (format, all) {
                (CheckFormat::Json, false) => println!("{}", to_json(&reports[0])?),
                (CheckFormat::Sarif, false) => {
                    println!("{}", to_json(&skillpg_report::sarif(&reports[0]))?)
                }
                (CheckFormat::Text, false) => print!(
                    "{}",
                    render::check_text(checks[0].0, analyses, &checks[0].1, &catalogs[0])
                ),
                (CheckFormat::Json, true) => {
                    let clients = skillpg_report::client_verdicts(analyses, &checks);
                    println!(
                        "{}",
                        to_json(&serde_json::json!({"clients": clients, "checks": reports}))?
                    )
                }
                (CheckFormat::Sarif, true) => {
                    println!("{}", to_json(&skillpg_report::sarif_per_client(&reports))?)
                }
                (CheckFormat::Text, true) => print!(
                    "{}",
                    render::clients_text(
                        &skillpg_report::client_verdicts(analyses, &checks),
                        &reports,
                        &catalogs.concat()
                    )
                ),
            }
            let ok = match &baseline {
                None => reports.iter().all(|r| r.skills.iter().all(|s| s.valid)),
                Some(file) => {
                    let text = std::fs::read_to_string(file)
                        .map_err(|e| format!("{}: {e}", file.display()))?;
                    let known = skillpg_report::baseline::read(&text)
                        .map_err(|e| format!("{}: {e}", file.display()))?;
                    let new = skillpg_report::baseline::new_errors(&reports, &known);
                    let all_errors = skillpg_report::baseline::record(&reports).findings.len();
                    eprintln!(
                        "baseline {}: {} error(s) recorded there not counted, {} new",
                        file.display(),
                        all_errors - new.len(),
                        new.len()
                    );
                    new.is_empty()
                }
            };
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Baseline {
            profile: key,
            config,
            paths,
        } => {
            // Chosen and checked as `check` chooses and checks, skillpg.toml's ignores and
            // severities included: a baseline recorded without them would miss an error the
            // project raised, which `check --baseline` would then call new.
            let project = project_config(config.as_deref())?;
            let profiles = chosen_profiles(key.as_deref(), project.as_ref())?;
            let inputs = load(&project_paths(paths, project.as_ref())?)?;
            let checked = analyze_inputs(&inputs);
            let reports: Vec<skillpg_report::CheckJson> = profiles
                .iter()
                .map(|p| {
                    let per_skill = check_in_project(&inputs, &checked, p, project.as_ref()).0;
                    skillpg_report::check_json(p, &checked.analyses, &per_skill, &[])
                })
                .collect();
            println!("{}", to_json(&skillpg_report::baseline::record(&reports))?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Listing {
            context_window,
            listing_settings,
            fail_over,
            format,
            paths,
        } => {
            let settings = listing_settings.settings()?;
            // skillpg.toml's gates, context window and roots, when none are given here.
            let project = project_config(None)?;
            let fail_over = match (fail_over.is_empty(), &project) {
                (true, Some((c, _))) => c.fail_over.clone(),
                _ => fail_over,
            };
            let gates = fail_over
                .iter()
                .map(|g| skillpg_report::budget_gate::BudgetGate::parse(g))
                .collect::<Result<Vec<_>, String>>()?;
            // One default window on every edge (the page, the Action, the hooks).
            let context_window = context_window
                .or(project.as_ref().and_then(|(c, _)| c.context_window))
                .or(Some(skillpg_core::catalog::DEFAULT_CONTEXT_WINDOW));
            // The budget hook runs with no paths: without skillpg.toml's roots, the catalog is
            // every skill under the working folder (the repository, as pre-commit runs it).
            let paths = match project_paths(paths, project.as_ref()) {
                Ok(paths) => paths,
                Err(_) => {
                    eprintln!("no paths and no skillpg.toml roots: listing every skill under .");
                    vec![PathBuf::from(".")]
                }
            };
            let inputs = load(&paths)?;
            let analyses = analyze_all(&inputs)?;
            let listings = skillpg_report::listings_with(&analyses, context_window, &settings);
            let over = skillpg_report::budget_gate::over(&listings, &gates)?;
            match format {
                Format::Json => println!("{}", to_json(&listings)?),
                Format::Text => print!("{}", render::listings_text(&listings)),
            }
            // The gate's verdict goes to stderr, so the listing on stdout stays what it was.
            for line in &over {
                eprintln!("over the budget gate: {line}");
            }
            Ok(if over.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Where {
            client,
            format,
            paths,
        } => {
            let profiles = profiles(&client)?;
            // skillpg.toml's ignores and severities, as `check` applies them: `where` never
            // says "loads" for a skill `check` fails.
            let project = project_config(None)?;
            let inputs = load(&paths)?;
            let checked = analyze_inputs(&inputs);
            let checks: Vec<_> = profiles
                .iter()
                .map(|p| {
                    (
                        *p,
                        check_in_project(&inputs, &checked, p, project.as_ref()).0,
                    )
                })
                .collect();
            let places = skillpg_report::where_to_put(&checked.analyses, &checks);
            match format {
                Format::Json => println!("{}", to_json(&places)?),
                Format::Text => print!("{}", render::where_text(&places)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Doctor {
            client,
            context_window,
            listing_settings,
            format,
            dir,
        } => {
            let settings = listing_settings.settings()?;
            let context_window =
                context_window.or(Some(skillpg_core::catalog::DEFAULT_CONTEXT_WINDOW));
            let scans = doctor::scan(&dir, &profiles(&client)?, context_window, &settings)?;
            match format {
                Format::Json => println!("{}", to_json(&scans)?),
                Format::Text => print!("{}", doctor::text(&scans)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Levels { format, paths } => {
            let inputs = load(&paths)?;
            let analyses = analyze_all(&inputs)?;
            match format {
                Format::Json => println!(
                    "{}",
                    to_json(&skillpg_report::levels_report_json(&analyses))?
                ),
                Format::Text => print!("{}", render::levels_text(&analyses)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Cost {
            format,
            turns,
            activate_at,
            read,
            price,
            cached_price,
            l1,
            l2,
            l3,
            read_tokens,
            path,
        } => {
            let inputs = match (l1, path) {
                (Some(l1), _) => CostInputs {
                    turns,
                    level1: l1,
                    level2: l2.unwrap_or(0),
                    level3: l3.unwrap_or(0),
                    read_tokens: read_tokens.unwrap_or(0),
                    activate_at,
                    price_per_million: price,
                    cached_price_per_million: cached_price,
                },
                (None, Some(path)) => {
                    let loaded = load(std::slice::from_ref(&path))?;
                    let analyses = analyze_all(&loaded)?;
                    let [a] = analyses.as_slice() else {
                        return Err(format!(
                            "{}: cost takes one skill, found {}",
                            path.display(),
                            analyses.len()
                        ));
                    };
                    let mut read_total = 0u64;
                    for file in &read {
                        let f = a.file(file.trim_start_matches("./")).ok_or_else(|| {
                            format!("--read {file}: no such file in {}", a.display_path)
                        })?;
                        read_total += f.tokens() as u64;
                    }
                    CostInputs {
                        turns,
                        level1: a.levels().level1 as u64,
                        level2: a.levels().level2 as u64,
                        level3: a.levels().level3 as u64,
                        read_tokens: read_total,
                        activate_at,
                        price_per_million: price,
                        cached_price_per_million: cached_price,
                    }
                }
                (None, None) => return Err("give a PATH or --l1 --l2 --l3".to_owned()),
            };
            if activate_at.is_some_and(|k| k == 0 || k > turns) {
                return Err(format!(
                    "--activate-at must be between 1 and --turns ({turns})"
                ));
            }
            let report = cost(&inputs);
            match format {
                Format::Json => {
                    println!("{}", to_json(&skillpg_report::cost_json(&inputs, &report))?)
                }
                Format::Text => print!("{}", render::cost_text(&inputs, &report)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Fix {
            include_unsafe,
            write,
            profile: key,
            paths,
        } => {
            let profile = profile(&key)?;
            let inputs = load(&paths)?;
            require_skills(&inputs)?;
            let mut any_left = false;
            for (ingested, root) in &inputs {
                for skill in &ingested.skills {
                    let a = analyze(skill);
                    let diags = skillpg_core::check(&a, profile);
                    let (Some(doc), Some(md_path)) = (&a.doc, &a.skill_md_path) else {
                        continue;
                    };
                    let fixed =
                        skillpg_core::fix::apply(&doc.text, md_path, &diags, include_unsafe);
                    if fixed.applied.is_empty() {
                        continue;
                    }
                    let display = format!("{}/{}", skill.display_path, md_path);
                    print!(
                        "{}",
                        skillpg_core::fix::unified_diff(&doc.text, &fixed.text, &display)
                    );
                    println!("# applied: {}", fixed.applied.join(", "));
                    any_left |= fixed.n_skipped > 0;
                    if write {
                        let target = skill_md_on_disk(root, &skill.display_path, md_path)?;
                        std::fs::write(&target, fixed.text.as_bytes())
                            .map_err(|e| format!("{}: {e}", target.display()))?;
                        println!("# wrote {}", target.display());
                    }
                }
            }
            if any_left {
                println!("# some fixes overlapped; run again to apply the rest");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Rules { rule: None } => {
            print!("{}", render::rules_text());
            Ok(ExitCode::SUCCESS)
        }
        Command::Rules { rule: Some(key) } => {
            let rules = skillpg_core::rules::all_rules();
            let r = rules
                .iter()
                .find(|r| r.code.eq_ignore_ascii_case(&key) || r.name == key)
                .ok_or_else(|| format!("no rule {key}; `skillpg rules` lists them"))?;
            println!(
                "{} {} ({} by default)\n",
                r.code,
                r.name,
                r.default_severity.as_str()
            );
            println!(
                "{}",
                skillpg_core::rules::rule_doc(r.name).unwrap_or(r.summary)
            );
            println!("\nSource: {} <{}>", r.source.title, r.source.url);
            Ok(ExitCode::SUCCESS)
        }
        Command::Route {
            router,
            format,
            requests,
            calibrate,
            paths,
        } => {
            let skills = route_cmd::load_skills(&paths)?;
            let reqs = route_cmd::load_requests(
                &requests,
                (skills.len() == 1).then(|| skills[0].name.as_str()),
            )?;
            let mut router = route_cmd::LoadedRouter::new(&router)?;
            let mut arm = router
                .run_arms(&[(&skills, Descriptions::AsWritten)], &reqs)?
                .remove(0);
            if calibrate {
                router.calibrate(&mut arm, &reqs)?;
            }
            match format {
                RouteFormat::Json => print!(
                    "{}",
                    export::route_json(&router.model, router.method(), &reqs, &arm)
                ),
                RouteFormat::Csv => print!("{}", export::route_csv(&reqs, &arm)),
                RouteFormat::Text => print!("{}", route_cmd::route_text(&router, &reqs, &arm)),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Prompt {
            thin,
            chat,
            requests,
            paths,
        } => {
            use skillpg_routing::prompt::{prompt_prefix, prompt_request, system_prompt};
            let mut skills = route_cmd::load_skills(&paths)?;
            if thin {
                skills = skills.iter().map(RouteSkill::thinned).collect();
            }
            let system = system_prompt(&skills);
            if chat {
                let turns: Vec<String> = requests.iter().map(|r| prompt_request(r)).collect();
                println!(
                    "{}",
                    serde_json::json!({ "prefix": prompt_prefix(&system), "requests": turns })
                );
            } else {
                print!("{system}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Compare {
            router,
            format,
            requests,
            a,
            b,
            thin_b,
        } => {
            let skills_a = route_cmd::load_skills(&a)?;
            let (skills_b, b_are) = match (thin_b, b.is_empty()) {
                (true, true) => (
                    skills_a.iter().map(RouteSkill::thinned).collect(),
                    Descriptions::Thinned,
                ),
                (false, false) => (route_cmd::load_skills(&b)?, Descriptions::Other),
                (true, false) => return Err("give --b PATH... or --thin-b, not both".into()),
                (false, true) => return Err("give --b PATH... or --thin-b".into()),
            };
            let reqs = route_cmd::load_requests(&requests, None)?;
            if let Some(why) = skillpg_routing::requests::why_not_comparable(&reqs) {
                return Err(format!("compare: {why}"));
            }
            let router = route_cmd::LoadedRouter::new(&router)?;
            let [arm_a, arm_b]: [_; 2] = router
                .run_arms(
                    &[(&skills_a, Descriptions::AsWritten), (&skills_b, b_are)],
                    &reqs,
                )?
                .try_into()
                .map_err(|_| "two arms")?;
            let cmp = skillpg_routing::outcome::compare(&reqs, &arm_a, &arm_b)?;
            match format {
                RouteFormat::Json => print!(
                    "{}",
                    export::compare_json(
                        &router.model,
                        router.method(),
                        &reqs,
                        &arm_a,
                        &arm_b,
                        Some(&cmp)
                    )
                ),
                RouteFormat::Csv => print!("{}", export::compare_csv(&reqs, &arm_a, &arm_b)),
                RouteFormat::Text => print!(
                    "{}",
                    route_cmd::compare_text(&router, &reqs, &arm_a, &arm_b, &cmp)
                ),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Eval { args, format } => {
            print!("{}", eval_cmd::run(&args, matches!(format, Format::Json))?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Stats { what } => {
            match what {
                StatsCommand::Wilson { k, n } => {
                    if k > n {
                        return Err(format!("K ({k}) cannot exceed N ({n})"));
                    }
                    let ci = skillpg_stats::wilson(k, n, skillpg_stats::Z95);
                    println!(
                        "{k}/{n} = {}%  Wilson 95% [{}, {}]",
                        skillpg_stats::percent(k as f64 / n.max(1) as f64),
                        skillpg_stats::percent(ci.low),
                        skillpg_stats::percent(ci.high)
                    );
                }
                StatsCommand::SignTest { b, c } => println!(
                    "exact two-sided sign test, {b} vs {c} discordant pairs: p = {:.4}",
                    skillpg_stats::sign_test(b, c)
                ),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::ModelPack {
            safetensors,
            vocab,
            out,
        } => {
            print!("{}", route_cmd::pack(&safetensors, &vocab, &out)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Github(args) => github_cmd::run(args),
        Command::Share {
            base,
            view,
            profile: key,
            zed,
            well_known,
            paths,
        } => {
            profile(&key)?;
            let view = skillpg_share::View::from_key(&view).ok_or_else(|| {
                format!(
                    "unknown view '{view}' (expected {})",
                    skillpg_share::View::ALL
                        .iter()
                        .map(|v| v.key())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
            let inputs = load(&paths)?;
            require_skills(&inputs)?;
            let skills = inputs
                .into_iter()
                .flat_map(|(ingested, _)| skillpg_share::SkillInput::from_ingested(ingested))
                .collect();
            let skills: Vec<skillpg_share::SkillInput> = skills;
            if zed {
                let [skill] = skills.as_slice() else {
                    return Err(format!(
                        "a Zed link holds one skill; {} were given",
                        skills.len()
                    ));
                };
                // The page's bound, and a word on the files a Zed link cannot carry.
                let (link, note) = skillpg_share::interchange::zed_link_of(skill)?;
                println!("{link}");
                if let Some(note) = note {
                    eprintln!("note: {note}");
                }
                return Ok(ExitCode::SUCCESS);
            }
            if let Some(dir) = well_known {
                for (path, bytes) in skillpg_share::interchange::well_known_files(&skills)? {
                    let target = dir.join(&path);
                    if let Some(parent) = target.parent() {
                        std::fs::create_dir_all(parent)
                            .map_err(|e| format!("{}: {e}", parent.display()))?;
                    }
                    std::fs::write(&target, bytes)
                        .map_err(|e| format!("{}: {e}", target.display()))?;
                }
                println!(
                    "wrote {}",
                    dir.join(".well-known/agent-skills/index.json").display()
                );
                return Ok(ExitCode::SUCCESS);
            }
            let link = skillpg_share::link(&base, skills, &key, view).map_err(|e| e.to_string())?;
            println!("{link}");
            println!("{}", skillpg_share::badge(&link));
            Ok(ExitCode::SUCCESS)
        }
        Command::Lsp { stdio: _ } => {
            // The protocol's exit status: 0 after shutdown and exit, 1 otherwise.
            Ok(match skillpg_lsp::serve_stdio()? {
                skillpg_lsp::Ending::Clean => ExitCode::SUCCESS,
                skillpg_lsp::Ending::Abrupt => ExitCode::from(1),
            })
        }
    }
}

/// The SKILL.md file on disk for a skill found under `root`; archives cannot be written.
fn skill_md_on_disk(
    root: &std::path::Path,
    display_path: &str,
    md_path: &str,
) -> Result<PathBuf, String> {
    let dir = PathBuf::from(display_path);
    let candidate = dir.join(md_path);
    if root.is_dir() && candidate.is_file() {
        Ok(candidate)
    } else if root.is_file()
        && root
            .file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
    {
        Ok(root.to_path_buf())
    } else {
        Err(format!(
            "{}: cannot write fixes into an archive; extract it first",
            root.display()
        ))
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| e.to_string())
}

//! Text output: diagnostics read like rustc's, tables like the chapter's.

use std::fmt::Write;

use skillpg_core::cost::{CostInputs, CostReport};
use skillpg_core::{Analysis, Applicability, Diagnostic, LineIndex, Profile, Severity};

pub use skillpg_core::diagnostic::thousands;

/// The text of `file` in `a`, for source excerpts.
fn file_text<'a>(a: &'a Analysis, file: &str) -> Option<&'a str> {
    if Some(file) == a.skill_md_path.as_deref() {
        return a.doc.as_ref().map(|d| d.text.as_str());
    }
    a.file(file).and_then(|f| f.text.text())
}

/// Each file's line index, built once for all of a skill's findings in it: building it per
/// finding made a file with thousands of findings quadratic (a 5 MB SKILL.md took two minutes).
type LineIndexes = Vec<(String, LineIndex)>;

/// One diagnostic with its source line and a caret under the span.
fn diagnostic_text(out: &mut String, a: &Analysis, d: &Diagnostic, indexes: &mut LineIndexes) {
    let _ = writeln!(out, "{}[{}]: {}", d.severity.as_str(), d.code, d.message);
    let path = if d.file.is_empty() {
        a.display_path.clone()
    } else {
        format!("{}/{}", a.display_path, d.file)
    };
    match d.location {
        Some(loc) => {
            let _ = writeln!(out, "  --> {path}:{}:{}", loc.line, loc.column);
            if let (Some(text), Some(span)) = (file_text(a, &d.file), &d.span) {
                let at = match indexes.iter().position(|(f, _)| *f == d.file) {
                    Some(at) => at,
                    None => {
                        indexes.push((d.file.clone(), LineIndex::new(text)));
                        indexes.len() - 1
                    }
                };
                let index = &indexes[at].1;
                let line_range = index.line_range(text, loc.line);
                let line = &text[line_range.clone()];
                let gutter = loc.line.to_string().len();
                let caret_start = loc.column - 1;
                let span_end = span.end.min(line_range.end).max(span.start);
                let width = text[span.start.min(span_end)..span_end]
                    .chars()
                    .count()
                    .max(1);
                let _ = writeln!(out, "{:gutter$} |", "");
                let _ = writeln!(out, "{} | {}", loc.line, line.replace('\t', " "));
                let _ = writeln!(
                    out,
                    "{:gutter$} | {}{}",
                    "",
                    " ".repeat(caret_start),
                    "^".repeat(width)
                );
            }
        }
        None => {
            let _ = writeln!(out, "  --> {path}");
        }
    }
    if let Some(fix) = &d.fix {
        let safety = if fix.applicability == Applicability::Safe {
            "safe"
        } else {
            "unsafe"
        };
        let _ = writeln!(out, "   = fix ({safety}): {}", fix.title);
    }
    let _ = writeln!(out, "   = source: {} <{}>", d.source.title, d.source.url);
    out.push('\n');
}

/// The whole `check` output.
pub fn check_text(
    profile: &Profile,
    analyses: &[Analysis],
    per_skill: &[Vec<Diagnostic>],
    catalog: &[Diagnostic],
) -> String {
    let mut out = String::new();
    let mut n_valid = 0;
    for (a, diags) in analyses.iter().zip(per_skill) {
        let mut indexes = LineIndexes::new();
        for d in diags {
            diagnostic_text(&mut out, a, d, &mut indexes);
        }
    }
    for d in catalog {
        let _ = writeln!(
            out,
            "{}[{}]: {}\n  = catalog of the {} skills installed together\n",
            d.severity.as_str(),
            d.code,
            d.message,
            analyses.len()
        );
    }
    for (a, diags) in analyses.iter().zip(per_skill) {
        let count = |s: Severity| diags.iter().filter(|d| d.severity == s).count();
        let (e, w, i) = (
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
        );
        if e == 0 {
            n_valid += 1;
        }
        let verdict = if e == 0 { "valid" } else { "INVALID" };
        let _ = writeln!(
            out,
            "{verdict:>7}  {} ({}): {e} error(s), {w} warning(s), {i} note(s)",
            a.display_path,
            a.display_name()
        );
    }
    let _ = writeln!(
        out,
        "{n_valid} of {} skill(s) valid under profile `{}` ({}; as of {})",
        analyses.len(),
        profile.key,
        profile.title,
        profile.as_of
    );
    out
}

/// The chapter's table.
pub fn levels_text(analyses: &[Analysis]) -> String {
    let mut out = String::new();
    let width = analyses
        .iter()
        .map(|a| a.display_name().len())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = writeln!(
        out,
        "{:width$}  {:>8}  {:>8}  {:>9}  {:>6}",
        "skill", "level 1", "level 2", "level 3", "files"
    );
    let mut total = skillpg_core::Levels::default();
    for a in analyses {
        let l = a.levels();
        total = total + l;
        let _ = writeln!(
            out,
            "{:width$}  {:>8}  {:>8}  {:>9}  {:>6}",
            a.display_name(),
            thousands(l.level1 as u64),
            thousands(l.level2 as u64),
            thousands(l.level3 as u64),
            thousands(l.files as u64)
        );
    }
    if analyses.len() > 1 {
        let _ = writeln!(
            out,
            "{:width$}  {:>8}  {:>8}  {:>9}  {:>6}",
            "total",
            thousands(total.level1 as u64),
            thousands(total.level2 as u64),
            thousands(total.level3 as u64),
            thousands(total.files as u64)
        );
    }
    let _ = writeln!(out, "tokens: {}", skillpg_report::TOKENIZER_NOTE);
    let _ = writeln!(
        out,
        "level 1 = `- name: description` + newline; level 2 = the body after the closing `---` line, unstripped; level 3 = every other file"
    );
    out
}

/// The chapter's cost table.
pub fn cost_text(inputs: &CostInputs, r: &CostReport) -> String {
    let mut out = String::new();
    let n = inputs.turns;
    let _ = writeln!(
        out,
        "{n} turns at ${:.2} per million input tokens (${:.2} cached)",
        inputs.price_per_million, inputs.cached_price_per_million
    );
    let _ = writeln!(
        out,
        "{:36} {:>10} {:>9} {:>9}",
        "", "tokens", "cost", "cached"
    );
    for (label, line) in [
        ("everything in the system prompt", &r.system_prompt),
        ("as a skill, used once", &r.skill_used),
        ("as a skill, never used", &r.skill_unused),
    ] {
        let _ = writeln!(
            out,
            "{label:36} {:>10} {:>9} {:>9}",
            thousands(line.tokens),
            format!("${:.4}", line.usd),
            format!("${:.4}", line.usd_cached)
        );
    }
    let _ = writeln!(
        out,
        "the skill is {} used and {} unused; caching makes the prompt cheaper, not smaller",
        skillpg_core::cost::cheaper_phrase(r.system_prompt.tokens, r.skill_used.tokens),
        skillpg_core::cost::cheaper_phrase(r.system_prompt.tokens, r.skill_unused.tokens)
    );
    let _ = writeln!(out, "tokens: {}", skillpg_report::TOKENIZER_NOTE);
    out
}

/// `skillpg rules`.
pub fn rules_text() -> String {
    let mut out = String::new();
    let mut rules = skillpg_core::rules::all_rules();
    rules.sort_by_key(|r| r.code);
    for r in rules {
        let _ = writeln!(
            out,
            "{}  {:28} {:8} {}",
            r.code,
            r.name,
            r.default_severity.as_str(),
            r.summary
        );
        let _ = writeln!(
            out,
            "{:36}source: {} <{}>",
            "", r.source.title, r.source.url
        );
    }
    out
}

/// One client's line of `check --profile all`'s text: how many skills load, and which fail with
/// their first error.
pub struct ClientLine {
    pub client: String,
    pub title: String,
    pub source: String,
    pub as_of: String,
    pub loads: usize,
    pub total: usize,
    /// Each failing skill as `path (code rule)`.
    pub failing: Vec<String>,
}

impl ClientLine {
    /// A client's line before any skill.
    pub fn new(p: &skillpg_core::Profile) -> ClientLine {
        ClientLine {
            client: p.key.to_owned(),
            title: p.title.to_owned(),
            source: p.source_url.to_owned(),
            as_of: p.as_of.to_owned(),
            loads: 0,
            total: 0,
            failing: Vec::new(),
        }
    }

    /// Counts one skill's cell.
    pub fn add(&mut self, cell: &skillpg_report::ClientCellJson) {
        self.total += 1;
        if cell.loads {
            self.loads += 1;
        } else {
            self.failing.push(match &cell.reason {
                Some(d) => format!("{} ({} {})", cell.path, d.code, d.rule),
                None => cell.path.clone(),
            });
        }
    }
}

/// An error once: its code and rule, its place and its message.
type ErrorOnce = (String, String, String);

/// A failing skill's path, and each of its errors with the clients that raise it.
pub type FailingSkill = (String, Vec<(ErrorOnce, Vec<String>)>);

/// One skill's errors under every client (`(client, its check)` in the chosen order), each
/// once with the clients that raise it; `None` when every client loads it.
pub fn failing_skill<'a>(
    path: &str,
    per_client: impl Iterator<Item = (&'a str, &'a skillpg_report::SkillCheckJson)>,
) -> Option<FailingSkill> {
    let mut errors: Vec<(ErrorOnce, Vec<String>)> = Vec::new();
    let mut fails = false;
    for (client, skill) in per_client.filter(|(_, s)| !s.valid) {
        fails = true;
        for d in skill.diagnostics.iter().filter(|d| d.severity == "error") {
            let place = match (d.file.as_str(), d.line, d.column) {
                ("", _, _) => path.to_owned(),
                (f, Some(l), Some(c)) => format!("{path}/{f}:{l}:{c}"),
                (f, _, _) => format!("{path}/{f}"),
            };
            let key = (format!("{} {}", d.code, d.rule), place, d.message.clone());
            match errors.iter_mut().find(|(k, _)| *k == key) {
                Some((_, clients)) => clients.push(client.to_owned()),
                None => errors.push((key, vec![client.to_owned()])),
            }
        }
    }
    fails.then(|| (path.to_owned(), errors))
}

/// `skillpg check --profile all`'s text: each client's line (how many load, which fail and
/// why), every error of every failing skill once with the clients that raise it (`failing`, in
/// the order the skills were given), and the catalog's findings.
pub fn clients_text(
    lines: &[ClientLine],
    failing: &[FailingSkill],
    catalog: &[Diagnostic],
) -> String {
    let mut out = String::new();
    let width = lines.iter().map(|r| r.client.len()).max().unwrap_or(6);
    for r in lines {
        let mut line = format!("{:width$}  {} of {} load", r.client, r.loads, r.total);
        if !r.failing.is_empty() {
            line.push_str(&format!("; fails: {}", r.failing.join("; ")));
        }
        let _ = writeln!(out, "{line}");
    }
    let clients: Vec<&str> = lines.iter().map(|l| l.client.as_str()).collect();
    out.push_str(&errors_by_skill(failing, &clients));
    let _ = writeln!(out);
    for r in lines {
        let _ = writeln!(
            out,
            "{:width$}  {} <{}>, as of {}",
            r.client, r.title, r.source, r.as_of
        );
    }
    for d in catalog {
        let _ = writeln!(out, "\n{}[{}]: {}", d.severity.as_str(), d.code, d.message);
    }
    out
}

/// Every error of every failing skill, by its path, each once with the clients that raise it
/// (`file:line:col`), and the command that shows one client's findings in full.
fn errors_by_skill(skills: &[FailingSkill], clients: &[&str]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nErrors that stop a client:\n");
    for (path, errors) in skills {
        let _ = writeln!(out, "{path}");
        for ((code, place, message), who) in errors {
            let who = if who.len() == clients.len() {
                "every client".to_owned()
            } else {
                who.join(", ")
            };
            let _ = writeln!(out, "  error[{code}] {place}: {message} ({who})");
        }
    }
    if let Some((path, _)) = skills.first() {
        let client = clients.first().copied().unwrap_or("spec");
        let _ = writeln!(
            out,
            "`skillpg check --profile {client} {path}` shows one client's findings in full: the lines, the warnings and the fixes."
        );
    }
    out
}

/// `skillpg listing`: each client's budget, what the listing costs, and the skills it shortens
/// or leaves out.
pub fn listings_text(listings: &[skillpg_report::ListingJson]) -> String {
    let mut out = String::new();
    for l in listings {
        match l.budget {
            Some(_) => {
                let _ = writeln!(out, "{}: {}", l.title, listing_summary(l));
                for s in &l.skills {
                    match (s.shown_chars, &s.state) {
                        (None, Some(state)) => {
                            let _ =
                                writeln!(out, "  {}: not listed (skillOverrides: {state})", s.name);
                        }
                        (_, Some(state)) if state == "name-only" => {
                            let _ = writeln!(out, "  {}: name only (skillOverrides)", s.name);
                        }
                        (None, None) => {
                            let _ = writeln!(out, "  {}: left out", s.name);
                        }
                        (Some(n), _) if n < s.description_chars => {
                            let _ = writeln!(
                                out,
                                "  {}: {} of {} characters shown",
                                s.name,
                                thousands(n as u64),
                                thousands(s.description_chars as u64)
                            );
                        }
                        (Some(_), _) => {}
                    }
                }
            }
            None => {
                let _ = writeln!(
                    out,
                    "{}: {} {} of level 1, no documented budget",
                    l.title,
                    thousands(l.whole as u64),
                    l.unit
                );
            }
        }
    }
    out
}

/// `skillpg where`: for each client, its folders, depth and precedence, then each skill's paths,
/// or why the client would not list it.
pub fn where_text(places: &[skillpg_report::WhereJson]) -> String {
    let mut out = String::new();
    for w in places {
        let _ = writeln!(out, "{} ({})", w.title, w.client);
        let _ = writeln!(out, "  project: {}", w.project_text());
        let _ = writeln!(out, "  home:    {}", w.user_text());
        let _ = writeln!(out, "  depth:   {}", w.depth);
        let _ = writeln!(out, "  twice:   {}", w.wins);
        for s in &w.skills {
            let _ = writeln!(out, "  {}", s.place_text());
            if !s.same_name.is_empty() {
                let _ = writeln!(
                    out,
                    "    the same name as {}: {}",
                    s.same_name.join(", "),
                    w.wins
                );
            }
        }
        let _ = writeln!(out, "  source:  {}\n", w.source);
    }
    out
}

/// One listing in a line: "412 of 8,000 characters at a 200,000-token window (fits)", or what is
/// over and what the client cuts; "no documented budget" where it has none.
pub fn listing_summary(l: &skillpg_report::ListingJson) -> String {
    let window = l
        .context_window
        .map(|w| format!("a {}-token window", thousands(w as u64)))
        .unwrap_or_else(|| "an unknown window".to_owned());
    let Some(budget) = l.budget else {
        return format!(
            "{} characters, no documented budget",
            thousands(l.whole as u64)
        );
    };
    let (cut, out_of) = (l.cut(), l.left_out());
    format!(
        "{} of {} {} at {window}{}",
        thousands(l.whole as u64),
        thousands(budget as u64),
        l.unit,
        if l.whole <= budget {
            " (fits)".to_owned()
        } else {
            format!(" (over: {cut} description(s) shortened, {out_of} skill(s) left out)")
        }
    )
}

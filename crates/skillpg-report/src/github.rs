//! What the GitHub Action writes (`skillpg github`), as pure text from the reports: workflow
//! commands that annotate the lines (`::error file=…,line=…,col=…::…`), the job summary (each
//! client's verdict per skill, the levels, each client's budget), and the pull-request comment.
//!
//! The comment opens with [`COMMENT_MARKER`], so the action finds its own comment and updates
//! it in place rather than adding one per push.

use crate::{CheckJson, ClientVerdictsJson, LevelsJson, ListingJson};

/// The hidden first line of the action's comment, by which it is found again.
pub const COMMENT_MARKER: &str = "<!-- skillpg-action -->";

/// Escapes a workflow command's message (`%`, CR, LF), as GitHub's toolkit does.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property (also `:` and `,`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command per finding of every report: `error`, `warning` or `notice` by
/// severity, on the file's line and column where the finding has them. A finding raised by
/// several profiles is written once, naming them.
pub fn annotations(reports: &[CheckJson]) -> String {
    /// One annotation, and the profiles that raised it.
    #[derive(PartialEq)]
    struct Note {
        severity: String,
        file: String,
        message: String,
        line: Option<usize>,
        column: Option<usize>,
    }
    let mut seen: Vec<(Note, Vec<&str>)> = Vec::new();
    for r in reports {
        for s in &r.skills {
            for d in &s.diagnostics {
                let note = Note {
                    severity: d.severity.clone(),
                    file: if d.file.is_empty() {
                        s.path.clone()
                    } else {
                        format!("{}/{}", s.path.trim_end_matches('/'), d.file)
                    },
                    message: format!("{} {}: {}", d.code, d.rule, d.message),
                    line: d.line,
                    column: d.column,
                };
                match seen.iter_mut().find(|(n, _)| *n == note) {
                    Some((_, profiles)) => profiles.push(&r.profile),
                    None => seen.push((note, vec![&r.profile])),
                }
            }
        }
    }
    let mut out = String::new();
    for (n, profiles) in seen {
        let command = match n.severity.as_str() {
            "error" => "error",
            "warning" => "warning",
            _ => "notice",
        };
        let mut props = format!("file={}", escape_property(&n.file));
        if let Some(l) = n.line {
            props.push_str(&format!(",line={l}"));
        }
        if let Some(c) = n.column {
            props.push_str(&format!(",col={c}"));
        }
        props.push_str(&format!(
            ",title={}",
            escape_property(&format!("skillpg ({})", profiles.join(", ")))
        ));
        out.push_str(&format!(
            "::{command} {props}::{}\n",
            escape_data(&n.message)
        ));
    }
    out
}

/// Escapes a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn thousands(n: usize) -> String {
    skillpg_core::diagnostic::thousands(n as u64)
}

/// The job summary: the verdict line, each client's verdict per skill, the levels table and
/// each client's listing against its budget.
pub fn summary(
    clients: &[ClientVerdictsJson],
    levels: &[LevelsJson],
    listings: &[ListingJson],
) -> String {
    let n_skills = levels.len();
    let failing: usize = clients
        .iter()
        .map(|c| c.skills.iter().filter(|s| !s.loads).count())
        .sum();
    let mut out = String::from("## Skill check\n\n");
    out.push_str(&if failing == 0 {
        format!(
            "{n_skills} skill(s) checked under {}: every client loads every skill.\n\n",
            clients
                .iter()
                .map(|c| format!("`{}`", c.client))
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        format!("{n_skills} skill(s) checked: **{failing} verdict(s) fail**.\n\n")
    });
    if n_skills == 0 {
        out.push_str("No skill was changed.\n");
        return out;
    }
    out.push_str("### Where it loads\n\n| skill |");
    for c in clients {
        out.push_str(&format!(" {} |", c.client));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(clients.len()));
    out.push('\n');
    for (i, l) in levels.iter().enumerate() {
        out.push_str(&format!("| `{}` |", cell(&l.name)));
        for c in clients {
            let v = match c.skills.get(i) {
                Some(s) if s.loads && s.warnings == 0 => "✅ loads".to_owned(),
                Some(s) if s.loads => format!("✅ loads ({} warning(s))", s.warnings),
                Some(s) => format!(
                    "❌ fails: {}",
                    s.reason
                        .as_ref()
                        .map(|r| format!("{} {}", r.code, cell(&r.message)))
                        .unwrap_or_else(|| format!("{} error(s)", s.errors))
                ),
                None => String::new(),
            };
            out.push_str(&format!(" {v} |"));
        }
        out.push('\n');
    }
    out.push_str(
        "\n### Levels (o200k_base tokens, an approximation of each vendor's tokenizer)\n\n",
    );
    out.push_str("| skill | level 1: listed always | level 2: body, when used | level 3: files, when read | files |\n|---|---:|---:|---:|---:|\n");
    for l in levels {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            cell(&l.name),
            thousands(l.level1),
            thousands(l.level2),
            thousands(l.level3),
            l.files
        ));
    }
    let budgeted: Vec<&ListingJson> = listings.iter().filter(|l| l.budget.is_some()).collect();
    if !budgeted.is_empty() {
        out.push_str("\n### Each client's listing of these skills together\n\n| client | listing | budget | shortened | left out |\n|---|---:|---:|---:|---:|\n");
        for l in budgeted {
            let budget = l.budget.unwrap_or_default();
            out.push_str(&format!(
                "| {} | {} {} | {} ({:.0}%) | {} | {} |\n",
                l.client,
                thousands(l.whole),
                l.unit,
                thousands(budget),
                100.0 * l.whole as f64 / budget.max(1) as f64,
                l.cut(),
                l.left_out()
            ));
        }
    }
    out
}

/// The pull-request comment: the marker, the summary, and a playground link per skill when
/// the caller has them (`(name, link)`; an empty link is a skill too large for one).
pub fn comment(summary: &str, links: &[(String, String)]) -> String {
    let mut out = format!("{COMMENT_MARKER}\n{summary}");
    if !links.is_empty() {
        out.push_str("\n### Open in Skill Playground\n\n");
        for (name, link) in links {
            if link.is_empty() {
                out.push_str(&format!(
                    "- `{}`: too large for a link (over 60,000 characters)\n",
                    cell(name)
                ));
            } else {
                out.push_str(&format!("- [`{}`]({link})\n", cell(name)));
            }
        }
    }
    out.push_str("\n<sub>Checked by skillpg. A verdict models each client's documented checks; token counts are o200k_base's.</sub>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_what_would_end_them() {
        assert_eq!(escape_data("50% a\nb"), "50%25 a%0Ab");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}

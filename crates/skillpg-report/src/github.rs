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

/// `s` as an inline code span that holds it as text whatever it contains: fenced by one more
/// backtick than its longest run of them (CommonMark's rule), padded where it starts or ends
/// with one, and safe in a table cell. A skill's name with a backtick can no longer close the
/// span and put mentions, images or links into the bot's comment.
fn code(s: &str) -> String {
    let s = cell(s);
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.is_empty() || s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
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
                .map(|c| code(&c.client))
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
        out.push_str(&format!("| {} |", code(&l.name)));
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
            "| {} | {} | {} | {} | {} |\n",
            code(&l.name),
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

/// GitHub's limit on an issue or pull-request comment's body, in characters: a longer body
/// is refused (HTTP 422), and the step that posts it fails.
pub const MAX_COMMENT_CHARS: usize = 65_536;

/// The most of [`MAX_COMMENT_CHARS`] the comment uses: the rest is headroom for the counting
/// (GitHub counts characters; this counts bytes, which is never fewer) and the footer.
const COMMENT_BUDGET: usize = MAX_COMMENT_CHARS - 1_536;

/// A skill's playground link for the comment, as `skillpg github` could make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlaygroundLink {
    /// The link.
    Made(String),
    /// The skill's state is longer than a link may be (`chars` characters as a link).
    TooLong { chars: usize },
}

/// A skill a pull request deleted or renamed: its folder before, and after when renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedSkill {
    pub before: String,
    pub after: Option<String>,
}

/// The summary's section for skills a change deleted or renamed (empty when none).
pub fn removed_section(removed: &[RemovedSkill]) -> String {
    if removed.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n### Deleted or renamed\n\n");
    for r in removed {
        match &r.after {
            Some(after) => out.push_str(&format!(
                "- {} → {}: renamed (checked under its new folder)\n",
                code(&r.before),
                code(after)
            )),
            None => out.push_str(&format!(
                "- {}: deleted (no longer installed; a client that listed it will not)\n",
                code(&r.before)
            )),
        }
    }
    out
}

/// The pull-request comment: the marker, the summary, and a playground link per skill when the
/// caller has them, within GitHub's limit for a comment ([`MAX_COMMENT_CHARS`]) whatever the
/// skills: the summary's tables are cut at a row with "and N more", and a link that does not
/// fit is left out with a note saying how to make it.
pub fn comment(summary: &str, links: &[(String, PlaygroundLink)]) -> String {
    const FOOTER: &str = "\n<sub>Checked by skillpg. A verdict models each client's documented checks; token counts are o200k_base's.</sub>\n";
    let mut out = format!("{COMMENT_MARKER}\n");
    let lines: Vec<&str> = summary.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if out.len() + line.len() > COMMENT_BUDGET / 2 && !links.is_empty()
            || out.len() + line.len() > COMMENT_BUDGET
        {
            let rows = lines[i..].iter().filter(|l| l.starts_with('|')).count();
            out.push_str(&format!(
                "\n_… and {rows} more table row(s), cut to keep this comment within GitHub's {} characters; the job summary holds them all._\n",
                thousands(MAX_COMMENT_CHARS)
            ));
            break;
        }
        out.push_str(line);
    }
    if !links.is_empty() {
        out.push_str("\n### Open in Skill Playground\n\n");
        let mut left_out = 0;
        for (name, link) in links {
            let line = match link {
                PlaygroundLink::Made(url) => format!("- [{}]({url})\n", code(name)),
                PlaygroundLink::TooLong { chars } => format!(
                    "- {}: too large for a link ({} characters; a link holds at most 60,000)\n",
                    code(name),
                    thousands(*chars)
                ),
            };
            if out.len() + line.len() > COMMENT_BUDGET {
                left_out += 1;
                continue;
            }
            out.push_str(&line);
        }
        if left_out > 0 {
            out.push_str(&format!(
                "- … and {left_out} more link(s) left out to keep this comment within GitHub's {} characters (`skillpg share --base URL PATH` prints any of them)\n",
                thousands(MAX_COMMENT_CHARS)
            ));
        }
    }
    out.push_str(FOOTER);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_comment_stays_within_githubs_limit_and_says_what_it_cut() {
        let rows: String = (0..5_000)
            .map(|i| format!("| `skill-{i}` | ✅ loads | ✅ loads |\n"))
            .collect();
        let summary = format!("## Skill check\n\n| skill | a | b |\n|---|---|---|\n{rows}");
        let links: Vec<(String, PlaygroundLink)> = (0..40)
            .map(|i| {
                (
                    format!("skill-{i}"),
                    PlaygroundLink::Made(format!("https://x.example/#v1={}", "A".repeat(40_000))),
                )
            })
            .chain([("huge".to_owned(), PlaygroundLink::TooLong { chars: 90_000 })])
            .collect();
        let body = comment(&summary, &links);
        assert!(body.chars().count() < MAX_COMMENT_CHARS, "{}", body.len());
        assert!(body.starts_with(COMMENT_MARKER));
        assert!(body.contains("more table row(s), cut"), "the cut is said");
        assert!(
            body.contains("more link(s) left out"),
            "the dropped links are said"
        );
        assert!(body.contains("Checked by skillpg"), "the footer stays");
        // Small enough: nothing is cut.
        let small = comment(
            "## Skill check\n\n| a |\n",
            &[(
                "a".into(),
                PlaygroundLink::Made("https://x.example/#v1=A".into()),
            )],
        );
        assert!(
            !small.contains("cut") && !small.contains("left out"),
            "{small}"
        );
        assert!(small.contains("[`a`](https://x.example/#v1=A)"));
    }

    #[test]
    fn deleted_and_renamed_skills_are_listed() {
        let s = removed_section(&[
            RemovedSkill {
                before: "skills/old".into(),
                after: None,
            },
            RemovedSkill {
                before: "skills/a".into(),
                after: Some("skills/b".into()),
            },
        ]);
        assert!(s.contains("`skills/old`: deleted"), "{s}");
        assert!(s.contains("`skills/a` → `skills/b`: renamed"), "{s}");
        assert!(removed_section(&[]).is_empty());
    }

    #[test]
    fn workflow_commands_escape_what_would_end_them() {
        assert_eq!(escape_data("50% a\nb"), "50%25 a%0Ab");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }

    /// A name with backticks stays one code span: nothing in it becomes a mention, an image or
    /// a link in the comment.
    #[test]
    fn a_name_with_backticks_stays_code() {
        assert_eq!(code("plain"), "`plain`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`@team ![x](y)`"), "`` `@team ![x](y)` ``");
        assert_eq!(code("a|b"), "`a\\|b`");
        let comment = comment(
            &format!("| {} |\n", code("x` @everyone ![i](https://e/i.png) `y")),
            &[],
        );
        // The name is one code span (a fence of two, which its single backticks cannot close):
        // outside it, no mention and no image.
        let span = "``x` @everyone ![i](https://e/i.png) `y``";
        assert!(comment.contains(span), "{comment}");
        let outside = comment.replace(span, "");
        assert!(
            !outside.contains("@everyone") && !outside.contains("!["),
            "{comment}"
        );
    }
}

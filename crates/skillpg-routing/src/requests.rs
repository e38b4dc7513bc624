//! Request files: a JSON list in skill-creator's per-skill format (`[{"query",
//! "should_trigger"}]`) or the multi-skill format (`[{"query", "expected"}]`), or one request per
//! line with an optional `=> expected-skill` (or `=> NONE`). One parser, for the CLI and the page.

use serde::Serialize;

use crate::NONE;

/// One request, labelled or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    /// The request as a person would phrase it.
    pub query: String,
    /// The skill's name, [`NONE`], or empty when unlabelled.
    pub expected: String,
}

impl Labelled {
    /// The label, or `None` when the request has none.
    pub fn label(&self) -> Option<&str> {
        Some(self.expected.trim()).filter(|e| !e.is_empty())
    }
}

/// One request of the multi-skill format.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MultiSkillIn {
    query: String,
    expected: String,
}

/// Reads either JSON format, each through its one reader: skill-creator's per-skill format is
/// `skill_creator::parse_evals` (typed, bounded, no empty query), and needs the skill's name
/// (`should_trigger: true` expects that skill, `false` expects NONE, as far as that skill goes);
/// the multi-skill format `[{"query", "expected"}]` is read here, typed too.
pub fn parse_labelled(
    json: &str,
    skill_for_per_skill_format: Option<&str>,
) -> Result<Vec<Labelled>, String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let items = value.as_array().ok_or("expected a JSON list of requests")?;
    if items.iter().any(|i| i.get("should_trigger").is_some()) {
        if let Some(i) = items.iter().position(|i| i.get("expected").is_some()) {
            return Err(format!(
                "item {i} has \"expected\" in a list of skill-creator's should_trigger items: use one format"
            ));
        }
        let Some(skill) = skill_for_per_skill_format else {
            return Err(
                "the list uses skill-creator's should_trigger format; say which skill it is for"
                    .to_owned(),
            );
        };
        let items = crate::skill_creator::parse_evals(json)?;
        return Ok(items
            .into_iter()
            .map(|q| Labelled {
                query: q.query,
                expected: if q.should_trigger {
                    skill.to_owned()
                } else {
                    NONE.to_owned()
                },
            })
            .collect());
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let one: MultiSkillIn = serde_json::from_value(item.clone())
                .map_err(|e| format!("item {i} is not {{\"query\", \"expected\"}}: {e}"))?;
            if one.query.trim().is_empty() {
                return Err(format!("item {i}: the query is empty"));
            }
            Ok(Labelled {
                query: one.query,
                expected: one.expected,
            })
        })
        .collect()
}

/// Reads a list of requests as a person writes it: a JSON list in either format, or one request
/// per line with an optional `=> expected-skill` (or `=> NONE`).
pub fn parse_requests(
    text: &str,
    skill_for_per_skill_format: Option<&str>,
) -> Result<Vec<Labelled>, String> {
    if text.trim_start().starts_with('[') {
        return parse_labelled(text, skill_for_per_skill_format);
    }
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| match l.rsplit_once("=>") {
            Some((q, e)) => Labelled {
                query: q.trim().to_owned(),
                expected: e.trim().to_owned(),
            },
            None => Labelled {
                query: l.to_owned(),
                expected: String::new(),
            },
        })
        .collect())
}

/// The requests without a label, by 1-based position.
pub fn unlabelled(requests: &[Labelled]) -> Vec<usize> {
    requests
        .iter()
        .enumerate()
        .filter(|(_, r)| r.label().is_none())
        .map(|(i, _)| i + 1)
        .collect()
}

/// Why a comparison cannot run on these requests (some have no label), or `None`.
pub fn why_not_comparable(requests: &[Labelled]) -> Option<String> {
    if requests.is_empty() {
        return Some("there are no requests".to_owned());
    }
    let missing = unlabelled(requests);
    if missing.is_empty() {
        return None;
    }
    let shown: Vec<String> = missing.iter().take(5).map(usize::to_string).collect();
    Some(format!(
        "a comparison needs every request labelled with the skill it should choose (`request => skill`, or NONE): {} of {} have no label (request {}{})",
        missing.len(),
        requests.len(),
        shown.join(", "),
        if missing.len() > 5 { ", ..." } else { "" }
    ))
}

#[derive(Serialize)]
struct PerSkill<'a> {
    query: &'a str,
    should_trigger: bool,
}

#[derive(Serialize)]
struct MultiSkill<'a> {
    query: &'a str,
    expected: &'a str,
}

fn pretty<T: Serialize>(value: &T) -> String {
    // Serializing plain structs of strings and booleans cannot fail.
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// skill-creator's per-skill evaluation format for `skill`: a request labelled with that skill
/// should trigger it, every other labelled one should not. Unlabelled requests are left out
/// (they say nothing about triggering).
pub fn to_skill_creator_json(items: &[Labelled], skill: &str) -> String {
    let v: Vec<PerSkill<'_>> = items
        .iter()
        .filter_map(|l| {
            l.label().map(|e| PerSkill {
                query: &l.query,
                should_trigger: e == skill,
            })
        })
        .collect();
    pretty(&v)
}

/// The multi-skill format.
pub fn to_labelled_json(items: &[Labelled]) -> String {
    let v: Vec<MultiSkill<'_>> = items
        .iter()
        .map(|l| MultiSkill {
            query: &l.query,
            expected: &l.expected,
        })
        .collect();
    pretty(&v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_json_formats() {
        let multi = parse_labelled(
            r#"[{"query": "a", "expected": "x"}, {"query": "b", "expected": "NONE"}]"#,
            None,
        )
        .expect("multi");
        assert_eq!(multi[1].expected, NONE);
        let per = parse_labelled(
            r#"[{"query": "a", "should_trigger": true}, {"query": "b", "should_trigger": false}]"#,
            Some("sql-review"),
        )
        .expect("per");
        assert_eq!(
            (per[0].expected.as_str(), per[1].expected.as_str()),
            ("sql-review", NONE)
        );
        assert!(parse_labelled(r#"[{"query": "a", "should_trigger": true}]"#, None).is_err());
        assert!(
            parse_labelled(r#"[{"expected": "x"}]"#, None)
                .expect_err("no query")
                .contains("item 0")
        );
        // skill-creator's list goes through the eval set's reader: an empty query is refused.
        assert!(
            parse_labelled(r#"[{"query": " ", "should_trigger": true}]"#, Some("s"))
                .expect_err("empty")
                .contains("query 1 is empty")
        );
        assert!(
            parse_labelled(
                r#"[{"query": "a", "should_trigger": true}, {"query": "b", "expected": "x"}]"#,
                Some("s")
            )
            .expect_err("mixed")
            .contains("one format")
        );
        assert!(
            parse_labelled(r#"[{"query": "a", "expected": "x", "extra": 1}]"#, None)
                .expect_err("unknown")
                .contains("item 0")
        );
        assert_eq!(
            parse_labelled(&to_labelled_json(&multi), None).expect("round trip"),
            multi
        );
    }

    #[test]
    fn one_parser_for_lines_and_json() {
        let lines = parse_requests(
            "format this CSV => csv-tables\n\nhello => NONE\nno label\n",
            None,
        )
        .expect("lines");
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[0],
            Labelled {
                query: "format this CSV".into(),
                expected: "csv-tables".into()
            }
        );
        assert_eq!(unlabelled(&lines), vec![3]);
        assert!(
            why_not_comparable(&lines)
                .expect("unlabelled")
                .contains("1 of 3 have no label (request 3)")
        );
        assert!(why_not_comparable(&lines[..2]).is_none());
        assert!(why_not_comparable(&[]).is_some());
        let json = parse_requests(
            r#"[{"query": "q", "should_trigger": true}, {"query": "r", "should_trigger": false}]"#,
            Some("pdf"),
        )
        .expect("json");
        assert_eq!(json[0].expected, "pdf");
        assert_eq!(json[1].expected, NONE);
        let back = to_skill_creator_json(&json, "pdf");
        assert_eq!(
            parse_requests(&back, Some("pdf")).expect("round trip"),
            json
        );
    }
}

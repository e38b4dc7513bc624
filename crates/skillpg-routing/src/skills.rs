//! The skills a router sees: each one's name and description, as an analysis reads them, and
//! the chapter's "thin" arm, every description cut to its bare subject.

use serde::{Deserialize, Serialize};

/// A skill as a router sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteSkill {
    /// Its name (as the catalog shows it: the frontmatter's, else the folder's).
    pub name: String,
    /// Its description, trimmed (empty when it has none).
    pub description: String,
}

impl RouteSkill {
    /// The pairs a router sees for every skill of one input (`label` names it in the error),
    /// each read as the engine reads it (YAML parsed, quotes and block scalars resolved): how the
    /// CLI, the benchmarks and the tests read skills from disk (`skillpg_fs::read_path`), so that
    /// they all prompt with the page's text. An input without a skill is an error that says why.
    pub fn all_in(
        label: &str,
        input: &skillpg_core::ingest::Ingested,
    ) -> Result<Vec<RouteSkill>, String> {
        if let Some(why) = input.why_no_skill() {
            return Err(format!("{label}: {why}"));
        }
        Ok(input
            .skills
            .iter()
            .map(|bundle| RouteSkill::from_analysis(&skillpg_core::analyze(bundle)))
            .collect())
    }

    /// The pair an analysis offers a router.
    pub fn from_analysis(a: &skillpg_core::Analysis) -> RouteSkill {
        RouteSkill {
            name: a.display_name().to_owned(),
            description: a.description().unwrap_or("").trim().to_owned(),
        }
    }

    /// The text an embedding model embeds for it: `name: description`.
    pub fn embedding_text(&self) -> String {
        format!("{}: {}", self.name, self.description)
    }

    /// The same skill with its description thinned.
    pub fn thinned(&self) -> RouteSkill {
        RouteSkill {
            name: self.name.clone(),
            description: thin(&self.description),
        }
    }
}

/// The skills' names, in order.
pub fn names(skills: &[RouteSkill]) -> Vec<String> {
    skills.iter().map(|s| s.name.clone()).collect()
}

/// Cuts a description to its bare subject, as the chapter's "thin" arm: the first clause,
/// before the first `.`, `;`, ` - `, `:` or " Use".
pub fn thin(description: &str) -> String {
    let d = description.trim();
    let mut cut = d.len();
    for pat in [". ", ".\n", ";", " - ", ": ", " Use ", " use when"] {
        if let Some(i) = d.find(pat) {
            cut = cut.min(i);
        }
    }
    let mut res = d[..cut].trim_end_matches('.').trim().to_owned();
    res.push('.');
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thin_keeps_the_subject() {
        assert_eq!(
            thin("Review a SQL migration for locks. Use when someone adds a migration."),
            "Review a SQL migration for locks."
        );
        assert_eq!(thin("Helps with SQL."), "Helps with SQL.");
        assert_eq!(thin("  "), ".");
    }

    #[test]
    fn a_skill_from_its_analysis() {
        let md = b"---\nname: sql-review\ndescription: >\n  Review SQL. Use when a migration changes.\n---\nBody\n".to_vec();
        let bundle = skillpg_core::SkillBundle::new(
            "sql-review",
            vec![skillpg_core::BundleFile {
                path: "SKILL.md".into(),
                bytes: md,
            }],
        );
        let s = RouteSkill::from_analysis(&skillpg_core::analyze(&bundle));
        assert_eq!(
            s,
            RouteSkill {
                name: "sql-review".into(),
                description: "Review SQL. Use when a migration changes.".into()
            }
        );
        assert_eq!(
            s.embedding_text(),
            "sql-review: Review SQL. Use when a migration changes."
        );
        assert_eq!(s.thinned().description, "Review SQL.");
    }
}

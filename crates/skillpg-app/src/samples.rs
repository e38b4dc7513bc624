//! The gallery: sample skills written for this project (not taken from the corpus).

use crate::state::SkillInput;

/// A gallery entry.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Button label.
    pub title: &'static str,
    /// One line on what it shows.
    pub blurb: &'static str,
    /// Folder name and files.
    pub dir: &'static str,
    /// Files: path and text.
    pub files: &'static [(&'static str, &'static str)],
}

impl Sample {
    /// The sample as page input.
    pub fn input(&self) -> SkillInput {
        SkillInput::new(self.dir, self.files.iter().map(|(p, t)| ((*p).to_owned(), t.as_bytes().to_vec())).collect())
    }
}

/// Every sample.
pub static SAMPLES: [Sample; 2] = [
    Sample {
        title: "A good skill",
        blurb: "release notes: a trigger in the description, two references that say what they cost and when to read them",
        dir: "release-notes",
        files: &[
            ("SKILL.md", include_str!("../../../web/samples/release-notes/SKILL.md")),
            ("references/style.md", include_str!("../../../web/samples/release-notes/references/style.md")),
            ("references/examples.md", include_str!("../../../web/samples/release-notes/references/examples.md")),
        ],
    },
    Sample {
        title: "Every common mistake",
        blurb: "a name that is not kebab-case, an unknown field, no trigger, a shell wildcard, a broken link, a stale count",
        dir: "pdf-helper",
        files: &[("SKILL.md", include_str!("../../../web/samples/pdf-helper/SKILL.md"))],
    },
];

/// The routing set: six skills (rich descriptions) and 28 labelled requests, written for this
/// project; the chapter's experiment at the same size.
pub static ROUTING_SKILLS: [(&str, &str); 6] = [
    ("accessibility-audit", include_str!("../../../web/samples/routing/accessibility-audit/SKILL.md")),
    ("app-store-listing", include_str!("../../../web/samples/routing/app-store-listing/SKILL.md")),
    ("incident-postmortem", include_str!("../../../web/samples/routing/incident-postmortem/SKILL.md")),
    ("invoice-reconciliation", include_str!("../../../web/samples/routing/invoice-reconciliation/SKILL.md")),
    ("release-notes", include_str!("../../../web/samples/routing/release-notes/SKILL.md")),
    ("sql-review", include_str!("../../../web/samples/routing/sql-review/SKILL.md")),
];

/// The labelled requests of the routing set (`[{"query", "expected"}]`).
pub static ROUTING_REQUESTS: &str = include_str!("../../../web/samples/routing/requests.json");

/// An eval set for sql-review, in skill-creator's format (`[{"query", "should_trigger"}]`):
/// the description lab's sample.
pub static SQL_REVIEW_EVALS: &str = include_str!("../../../web/samples/routing/evals-sql-review.json");

/// The routing set's skills as page input.
pub fn routing_inputs() -> Vec<SkillInput> {
    ROUTING_SKILLS.iter().map(|(dir, md)| SkillInput::new(*dir, vec![("SKILL.md".to_owned(), md.as_bytes().to_vec())])).collect()
}

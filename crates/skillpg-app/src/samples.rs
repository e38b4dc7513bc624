//! The gallery: sample skills written for this project (not taken from the corpus).

use skillpg_share::SkillInput;

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
        SkillInput::new(
            self.dir,
            self.files
                .iter()
                .map(|(p, t)| ((*p).to_owned(), t.as_bytes().to_vec()))
                .collect(),
        )
    }
}

/// Every sample.
pub static SAMPLES: [Sample; 2] = [
    Sample {
        title: "A good skill",
        blurb: "release notes: a trigger in the description, two references that say what they cost and when to read them",
        dir: "release-notes",
        files: &[
            (
                "SKILL.md",
                include_str!("../../../web/samples/release-notes/SKILL.md"),
            ),
            (
                "references/style.md",
                include_str!("../../../web/samples/release-notes/references/style.md"),
            ),
            (
                "references/examples.md",
                include_str!("../../../web/samples/release-notes/references/examples.md"),
            ),
        ],
    },
    Sample {
        title: "Every common mistake",
        blurb: "a name that is not kebab-case, an unknown field, no trigger, a shell wildcard, a broken link, a stale count",
        dir: "pdf-helper",
        files: &[(
            "SKILL.md",
            include_str!("../../../web/samples/pdf-helper/SKILL.md"),
        )],
    },
];

/// The routing set: six skills (rich descriptions) and 28 labelled requests, written for this
/// project; the chapter's experiment at the same size.
pub static ROUTING_SKILLS: [(&str, &str); 6] = [
    (
        "accessibility-audit",
        include_str!("../../../web/samples/routing/accessibility-audit/SKILL.md"),
    ),
    (
        "app-store-listing",
        include_str!("../../../web/samples/routing/app-store-listing/SKILL.md"),
    ),
    (
        "incident-postmortem",
        include_str!("../../../web/samples/routing/incident-postmortem/SKILL.md"),
    ),
    (
        "invoice-reconciliation",
        include_str!("../../../web/samples/routing/invoice-reconciliation/SKILL.md"),
    ),
    (
        "release-notes",
        include_str!("../../../web/samples/routing/release-notes/SKILL.md"),
    ),
    (
        "sql-review",
        include_str!("../../../web/samples/routing/sql-review/SKILL.md"),
    ),
];

/// The labelled requests of the routing set (`[{"query", "expected"}]`).
pub static ROUTING_REQUESTS: &str = include_str!("../../../web/samples/routing/requests.json");

/// An eval set for sql-review, in skill-creator's format (`[{"query", "should_trigger"}]`):
/// the description lab's sample.
pub static SQL_REVIEW_EVALS: &str =
    include_str!("../../../web/samples/routing/evals-sql-review.json");

/// The routing set's skills as page input.
pub fn routing_inputs() -> Vec<SkillInput> {
    ROUTING_SKILLS
        .iter()
        .map(|(dir, md)| {
            SkillInput::new(*dir, vec![("SKILL.md".to_owned(), md.as_bytes().to_vec())])
        })
        .collect()
}

/// The loaded skills that loading `sample` in place of everything would lose: those that are
/// neither a skill of the sample nor an unchanged gallery sample (nothing the person loaded or
/// edited is replaced without asking).
pub fn would_replace(loaded: &[SkillInput], sample: &[SkillInput]) -> Vec<String> {
    let gallery: Vec<SkillInput> = SAMPLES.iter().map(Sample::input).collect();
    loaded
        .iter()
        .filter(|k| {
            !sample
                .iter()
                .chain(&gallery)
                .any(|s| s.dir_name == k.dir_name && s.files == k.files)
        })
        .map(|k| k.dir_name.clone())
        .collect()
}

/// What the page asks before replacing `lost` skills with a sample.
pub fn replace_question(lost: &[String]) -> String {
    let names = if lost.len() <= 5 {
        lost.join(", ")
    } else {
        format!("{} and {} more", lost[..5].join(", "), lost.len() - 5)
    };
    format!(
        "Loading the sample replaces the {} skill(s) you loaded or edited ({names}). Replace them? (Cancel keeps them; a share link or the claude.ai zip keeps a copy.)",
        lost.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_the_person_brought_or_edited_is_asked_about() {
        let routing = routing_inputs();
        assert!(
            would_replace(&[SAMPLES[0].input()], &routing).is_empty(),
            "the gallery's sample as it was"
        );
        assert!(
            would_replace(&routing, &routing).is_empty(),
            "the sample itself"
        );
        let mut edited = SAMPLES[0].input();
        edited.files[0].1.extend_from_slice(b"\nmore");
        let mine = SkillInput::new(
            "mine",
            vec![("SKILL.md".into(), b"---\nname: mine\n---\n".to_vec())],
        );
        assert_eq!(
            would_replace(&[edited, mine], &routing),
            vec!["release-notes".to_owned(), "mine".to_owned()]
        );
        assert!(
            replace_question(&["a".into()]).starts_with(
                "Loading the sample replaces the 1 skill(s) you loaded or edited (a)."
            )
        );
    }
}

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
        SkillInput { dir_name: self.dir.to_owned(), files: self.files.iter().map(|(p, t)| ((*p).to_owned(), t.as_bytes().to_vec())).collect() }
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

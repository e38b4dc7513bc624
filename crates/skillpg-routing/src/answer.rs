//! How the chapter reads a decoder's answer: an exact name after trimming and case-folding, or
//! NONE; anything else counts as NONE and is kept verbatim.

use crate::NONE;

/// How an answer was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// The skill chosen (an index into the names), or `None` for NONE and for anything else.
    pub choice: Option<usize>,
    /// Whether the answer was a name or NONE exactly (after trimming and case-folding); when
    /// not, it counts as NONE and is shown verbatim.
    pub recognised: bool,
}

/// Reads an answer as the chapter does.
pub fn read_answer(answer: &str, names: &[String]) -> Reading {
    let a = answer.trim().to_lowercase();
    if let Some(i) = names.iter().position(|n| n.trim().to_lowercase() == a) {
        return Reading {
            choice: Some(i),
            recognised: true,
        };
    }
    Reading {
        choice: None,
        recognised: a == NONE.to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_the_chapter_reads_them() {
        let names = vec!["sql-review".to_owned(), "release-notes".to_owned()];
        assert_eq!(
            read_answer("  SQL-Review\n", &names),
            Reading {
                choice: Some(0),
                recognised: true
            }
        );
        assert_eq!(
            read_answer("none", &names),
            Reading {
                choice: None,
                recognised: true
            }
        );
        // Anything else is NONE, kept verbatim by the caller.
        assert_eq!(
            read_answer("release-notes.", &names),
            Reading {
                choice: None,
                recognised: false
            }
        );
        assert_eq!(
            read_answer("The skill is sql-review", &names),
            Reading {
                choice: None,
                recognised: false
            }
        );
    }
}

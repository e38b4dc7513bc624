//! Explanations a description's author can act on, from the embeddings of the lab's run:
//!
//! - which words and phrases carry a query's score ([`units`]: the description's content words,
//!   stop words skipped and punctuation taken off, and its runs of two and three content words;
//!   each occluded in turn and the description re-embedded);
//! - which words are missing ([`candidate_terms`]: the content words of the should-trigger
//!   queries the description lost, not in it yet; each appended and judged on train only by
//!   [`train_change`]);
//! - why a query went elsewhere ([`why_lost`]: "went to X by 0.015; X's description says '…'").
//!
//! Pure: the scores come from whichever router ran.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::eval::{EvalQuery, QueryResult, Split};

/// Words that carry no topic of their own: occluding them measures the sentence's grammar, not
/// what it is about.
const STOP_WORDS: [&str; 64] = [
    "a", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
    "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "not", "of",
    "on", "or", "our", "so", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "to", "too", "up", "us", "use", "used", "using", "via",
    "was", "we", "what", "when", "where", "which", "who", "will", "with", "you", "your", "also",
];

/// Whether `word` (lowercase, cleaned) is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// A token's text without the punctuation around it ("slides," is "slides"; "(PDF)" is "PDF").
pub fn clean(token: &str) -> &str {
    token.trim_matches(|c: char| !c.is_alphanumeric())
}

/// A word or a run of words of a description that an explanation weighs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Bytes of the description it covers (whole tokens, punctuation included).
    pub range: Range<usize>,
    /// What it says, punctuation taken off the ends.
    pub text: String,
    /// How many words it holds (1, 2 or 3).
    pub words: usize,
}

/// The whitespace-separated tokens of `text`, as byte ranges.
fn tokens(text: &str) -> Vec<Range<usize>> {
    crate::eval::words(text)
}

/// The description's content words, then its runs of two and of three consecutive content
/// words (no stop word and nothing empty inside), in order of position within each length; no
/// more units than the description has words, so weighing them costs no more embeddings than
/// weighing every word did (runs of three go first when there is no room).
pub fn units(description: &str) -> Vec<Unit> {
    let toks = tokens(description);
    let content: Vec<bool> = toks
        .iter()
        .map(|r| {
            let w = clean(&description[r.clone()]).to_lowercase();
            !w.is_empty() && !is_stop_word(&w)
        })
        .collect();
    let mut out = Vec::new();
    for len in 1..=3 {
        for start in 0..toks.len().saturating_sub(len - 1) {
            if !content[start..start + len].iter().all(|&c| c) {
                continue;
            }
            let range = toks[start].start..toks[start + len - 1].end;
            let text = clean(&description[range.clone()]).to_owned();
            out.push(Unit {
                range,
                text,
                words: len,
            });
        }
    }
    out.truncate(toks.len());
    out
}

/// The description without `unit` (and one space next to it): what is embedded to weigh it.
pub fn without(description: &str, unit: &Unit) -> String {
    crate::eval::without(description, &unit.range)
}

/// The descriptions to embed to weigh every unit, in [`units`]' order.
pub fn occlusions(description: &str) -> Vec<String> {
    units(description)
        .iter()
        .map(|u| without(description, u))
        .collect()
}

/// Words the description lacks that the lost should-trigger queries use: each query's content
/// words not in the description (case aside), most frequent first, then by first use; at most
/// `max`.
pub fn candidate_terms(description: &str, lost_queries: &[&str], max: usize) -> Vec<String> {
    let present: std::collections::HashSet<String> = tokens(description)
        .iter()
        .map(|r| clean(&description[r.clone()]).to_lowercase())
        .collect();
    let mut counts: Vec<(String, usize, usize)> = Vec::new();
    for (order, q) in lost_queries.iter().enumerate() {
        let mut seen_here = std::collections::HashSet::new();
        for r in tokens(q) {
            let w = clean(&q[r]).to_lowercase();
            if w.chars().count() < 3
                || is_stop_word(&w)
                || present.contains(&w)
                || !seen_here.insert(w.clone())
            {
                continue;
            }
            match counts.iter_mut().find(|(t, _, _)| *t == w) {
                Some(entry) => entry.1 += 1,
                None => counts.push((w, 1, order)),
            }
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
    counts.into_iter().take(max).map(|(t, _, _)| t).collect()
}

/// The description with `term` appended, as a suggestion is tried.
pub fn appended(description: &str, term: &str) -> String {
    format!("{} {term}", description.trim_end())
}

/// What a change does on the train part alone: how many train queries it turns right and how
/// many it turns wrong (validation is not consulted).
pub fn train_change(
    items: &[EvalQuery],
    splits: &[Split],
    current: &[QueryResult],
    changed: &[QueryResult],
) -> (usize, usize) {
    let mut fixed = 0;
    let mut broken = 0;
    for (((q, s), a), b) in items.iter().zip(splits).zip(current).zip(changed) {
        if *s != Split::Train {
            continue;
        }
        match (
            q.should_trigger == a.triggered(),
            q.should_trigger == b.triggered(),
        ) {
            (false, true) => fixed += 1,
            (true, false) => broken += 1,
            _ => {}
        }
    }
    (fixed, broken)
}

/// One sentence on why a should-trigger query did not choose its skill: where it went and by
/// how much (`scores`: the query's score against every skill, `target` the skill it should have
/// chosen, `chosen` the one it did, `tau` the threshold), and what that skill's description says
/// that the query also says.
pub fn why_lost(
    query: &str,
    names: &[String],
    descriptions: &[String],
    scores: &[f32],
    target: usize,
    chosen: Option<usize>,
    tau: f32,
) -> String {
    let own = scores.get(target).copied().unwrap_or(0.0);
    let Some(other) = chosen.filter(|&c| c != target) else {
        return format!(
            "went to no skill: its score {own:.3} is under τ {tau:.2}, or too close to another's to clear δ"
        );
    };
    let by = scores.get(other).copied().unwrap_or(0.0) - own;
    let name = names.get(other).map_or("another skill", String::as_str);
    let said = shared_words(query, descriptions.get(other).map_or("", String::as_str));
    format!("went to {name} by {by:.3}; {name}'s description says “{said}”")
}

/// The words of `description` the query also uses (content words, in the description's order,
/// runs joined by "…"), or its first eight words when it shares none.
fn shared_words(query: &str, description: &str) -> String {
    let in_query: std::collections::HashSet<String> = tokens(query)
        .iter()
        .map(|r| clean(&query[r.clone()]).to_lowercase())
        .filter(|w| !is_stop_word(w))
        .collect();
    let toks = tokens(description);
    let hits: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(_, r)| in_query.contains(&clean(&description[(*r).clone()]).to_lowercase()))
        .map(|(i, _)| i)
        .collect();
    if hits.is_empty() {
        let end = toks.get(7).map_or(description.len(), |r| r.end);
        return format!(
            "{}{}",
            &description[..end],
            if toks.len() > 8 { " …" } else { "" }
        );
    }
    let mut out = String::new();
    for (n, i) in hits.iter().enumerate() {
        if n > 0 {
            out.push_str(if *i == hits[n - 1] + 1 { " " } else { " … " });
        }
        out.push_str(clean(&description[toks[*i].clone()]));
    }
    out
}

/// Keyword stuffing: the content words a draft adds that come from the train queries and from
/// nowhere in the skill's own text (its current description and body). A description that
/// grows by the queries' own words fits those queries; one that says what the skill does uses
/// the skill's words. A signal of its own, beside [`Overfit`]: it reads the text, not the
/// outcomes, so it speaks even where the validation part is too small to show anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stuffing {
    /// The content words the draft adds.
    pub added: usize,
    /// Those taken from the train queries and found nowhere in the skill's text, in the
    /// draft's order.
    pub from_queries: Vec<String>,
}

/// The fewest query words a draft must add, and the least share of its added words they must
/// be, to read as stuffing.
pub const STUFFING_MIN_WORDS: usize = 4;

/// The content words of `text`, as the stuffing and fitting signals read them: lowercase runs
/// of letters and digits of three characters or more, stop words aside.
fn content(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 3 && !is_stop_word(w))
        .collect()
}

/// [`Stuffing`] of `draft` against `current`, with the train queries and the skill's body;
/// `None` when the draft adds fewer than [`STUFFING_MIN_WORDS`] such words or they are under
/// half of what it adds.
pub fn stuffing(
    current: &str,
    draft: &str,
    train_queries: &[&str],
    body: &str,
) -> Option<Stuffing> {
    let known: std::collections::HashSet<String> =
        content(current).into_iter().chain(content(body)).collect();
    let asked: std::collections::HashSet<String> =
        train_queries.iter().flat_map(|q| content(q)).collect();
    let mut added: Vec<String> = Vec::new();
    for w in content(draft) {
        if !known.contains(&w) && !added.contains(&w) {
            added.push(w);
        }
    }
    let from_queries: Vec<String> = added
        .iter()
        .filter(|w| asked.contains(*w))
        .cloned()
        .collect();
    let stuffed = from_queries.len() >= STUFFING_MIN_WORDS && from_queries.len() * 2 >= added.len();
    stuffed.then_some(Stuffing {
        added: added.len(),
        from_queries,
    })
}

impl Stuffing {
    /// The signal in words.
    pub fn words(&self) -> String {
        let shown: Vec<&str> = self
            .from_queries
            .iter()
            .take(8)
            .map(String::as_str)
            .collect();
        format!(
            "the draft adds {} words new to the skill, {} of them taken from the train queries and found nowhere in the skill's own text ({}{}): a description that grows by the queries' words fits those queries (keyword stuffing); say what the skill does and when to use it instead",
            self.added,
            self.from_queries.len(),
            shown.join(", "),
            if self.from_queries.len() > shown.len() {
                ", …"
            } else {
                ""
            }
        )
    }
}

/// Words a draft adds that the lab suggests from the train queries it lost
/// ([`candidate_terms`]), and the draft judged on the train queries those
/// words were not drawn from: a gain on the queries that supplied the words is fitted to them.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// The words, in the draft's order.
    pub words: Vec<String>,
    /// Train queries that use any of them (the words were drawn from these).
    pub drawn_from: u64,
    /// The draft against the description as written on the other train queries.
    pub elsewhere: skillpg_stats::Paired,
    /// The draft's net change on the queries the words were drawn from.
    pub drawn_net: i64,
}

/// [`Fitted`] of `draft` against `current`, or `None` when it adds no suggested word that the
/// skill's own `body` lacks (a word of the skill's own text is its own, whoever suggested it:
/// an honest rewrite says what the body says).
pub fn fitted(
    items: &[crate::eval::EvalQuery],
    splits: &[crate::eval::Split],
    current_results: &[crate::eval::QueryResult],
    draft_results: &[crate::eval::QueryResult],
    current: &str,
    draft: &str,
    body: &str,
) -> Option<Fitted> {
    let lost: Vec<&str> = items
        .iter()
        .zip(current_results)
        .zip(splits)
        .filter(|((q, r), s)| {
            **s == crate::eval::Split::Train && q.should_trigger && !r.triggered()
        })
        .map(|((q, _), _)| q.query.as_str())
        .collect();
    let suggested = candidate_terms(current, &lost, usize::MAX);
    // Suggested words are content words (`candidate_terms`), so content words are all that
    // can match them.
    let had: std::collections::HashSet<String> =
        content(current).into_iter().chain(content(body)).collect();
    let mut words: Vec<String> = Vec::new();
    for w in content(draft) {
        if suggested.contains(&w) && !had.contains(&w) && !words.contains(&w) {
            words.push(w);
        }
    }
    if words.is_empty() {
        return None;
    }
    let (mut a, mut b, mut drawn_from, mut drawn_net) = (Vec::new(), Vec::new(), 0u64, 0i64);
    for (((q, rc), rd), s) in items
        .iter()
        .zip(current_results)
        .zip(draft_results)
        .zip(splits)
    {
        if *s != crate::eval::Split::Train {
            continue;
        }
        let (was, now) = (
            q.should_trigger == rc.triggered(),
            q.should_trigger == rd.triggered(),
        );
        if content(&q.query).iter().any(|w| words.contains(w)) {
            drawn_from += 1;
            drawn_net += i64::from(now) - i64::from(was);
        } else {
            a.push(was);
            b.push(now);
        }
    }
    Some(Fitted {
        words,
        drawn_from,
        elsewhere: skillpg_stats::Paired::from_outcomes(&a, &b),
        drawn_net,
    })
}

impl Fitted {
    /// The signal in words.
    pub fn words(&self) -> String {
        let e = &self.elsewhere;
        let n = e.both + e.only_a + e.only_b + e.neither;
        format!(
            "the draft adds words suggested from the train queries it lost ({}); {} train {} them, and there it gains {:+}: that gain is fitted to the queries the words came from. On the other {n} train queries it turns {} right and {} wrong; judge it there and on validation",
            self.words.join(", "),
            self.drawn_from,
            if self.drawn_from == 1 {
                "query uses"
            } else {
                "queries use"
            },
            self.drawn_net,
            e.only_b,
            e.only_a
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_skip_stop_words_take_punctuation_off_and_add_phrases() {
        let d = "Build slides, decks and (PDF) reports for the team.";
        let u = units(d);
        let words: Vec<&str> = u
            .iter()
            .filter(|u| u.words == 1)
            .map(|u| u.text.as_str())
            .collect();
        assert_eq!(
            words,
            vec!["Build", "slides", "decks", "PDF", "reports", "team"]
        );
        let phrases: Vec<&str> = u
            .iter()
            .filter(|u| u.words > 1)
            .map(|u| u.text.as_str())
            .collect();
        // Nine words, nine units: the run of three ("Build slides, decks") finds no room.
        assert_eq!(
            phrases,
            vec!["Build slides", "slides, decks", "PDF) reports"]
        );
        assert_eq!(
            without(d, &u[1]),
            "Build decks and (PDF) reports for the team."
        );
        assert_eq!(occlusions(d).len(), u.len());
        // As many units as words at most.
        let dense = "Alpha beta gamma delta epsilon zeta.";
        assert_eq!(units(dense).len(), 6, "six words: the six of them, no run");
    }

    #[test]
    fn missing_words_come_from_the_lost_queries_most_used_first() {
        let d = "Reviews SQL migrations.";
        let lost = [
            "Check this Alembic migration for locks",
            "Will this alembic upgrade lock the table?",
            "Review the index on orders",
        ];
        assert_eq!(
            candidate_terms(d, &lost, 3),
            vec!["alembic", "check", "migration"]
        );
        assert_eq!(
            appended("Reviews SQL migrations. ", "alembic"),
            "Reviews SQL migrations. alembic"
        );
    }

    #[test]
    fn a_lost_query_says_where_it_went_and_what_the_captor_says() {
        let names = vec!["sql-review".to_owned(), "release-notes".to_owned()];
        let descriptions = vec![
            "Reviews SQL migrations.".to_owned(),
            "Writes release notes from merged pull requests before a deploy.".to_owned(),
        ];
        let s = why_lost(
            "Write notes for the merged migration PR",
            &names,
            &descriptions,
            &[0.30, 0.315],
            0,
            Some(1),
            0.2,
        );
        assert_eq!(
            s,
            "went to release-notes by 0.015; release-notes's description says “notes … merged”"
        );
        let s = why_lost("hello", &names, &descriptions, &[0.1, 0.05], 0, None, 0.2);
        assert!(
            s.starts_with("went to no skill: its score 0.100 is under τ 0.20"),
            "{s}"
        );
    }

    #[test]
    fn train_change_ignores_validation() {
        let q = |s| EvalQuery {
            query: "q".into(),
            should_trigger: s,
        };
        let r = |t: bool| QueryResult {
            trigger_rate: if t { 1.0 } else { 0.0 },
            margin: 0.0,
        };
        let items = [q(true), q(true), q(false)];
        let splits = [Split::Train, Split::Validation, Split::Train];
        assert_eq!(
            train_change(
                &items,
                &splits,
                &[r(false), r(false), r(false)],
                &[r(true), r(true), r(true)]
            ),
            (1, 1)
        );
    }
    #[test]
    fn words_suggested_from_lost_train_queries_are_flagged_and_judged_elsewhere() {
        let items = vec![
            EvalQuery {
                query: "rotate the signing secret".into(),
                should_trigger: true,
            },
            EvalQuery {
                query: "verify the signing header".into(),
                should_trigger: true,
            },
            EvalQuery {
                query: "retry a failed delivery".into(),
                should_trigger: true,
            },
            EvalQuery {
                query: "bake bread".into(),
                should_trigger: false,
            },
        ];
        let splits = vec![crate::eval::Split::Train; 4];
        let r = |t: bool| crate::eval::QueryResult {
            trigger_rate: if t { 1.0 } else { 0.0 },
            margin: 0.0,
        };
        let current = [r(false), r(false), r(true), r(false)];
        let draft = [r(true), r(true), r(true), r(false)];
        let f = fitted(
            &items,
            &splits,
            &current,
            &draft,
            "Handles webhook endpoints.",
            "Handles webhook endpoints. signing secret header",
            "Rotates keys.",
        )
        .expect("suggested words were added");
        assert_eq!(f.words, ["signing", "secret", "header"]);
        assert_eq!((f.drawn_from, f.drawn_net), (2, 2));
        assert_eq!((f.elsewhere.only_a, f.elsewhere.only_b), (0, 0));
        assert!(f.words().contains("that gain is fitted"), "{}", f.words());
        // An honest rewrite in the skill's own words adds none of them.
        assert_eq!(
            fitted(
                &items,
                &splits,
                &current,
                &draft,
                "Handles webhook endpoints.",
                "Receives webhook deliveries and checks them. Use when an endpoint is set up.",
                "",
            ),
            None
        );
        // A suggested word the skill's body uses is the skill's own.
        let own = fitted(
            &items,
            &splits,
            &current,
            &draft,
            "Handles webhook endpoints.",
            "Handles webhook endpoints and their signing secret.",
            "Verify the signing secret of each delivery.",
        );
        assert_eq!(own, None);
    }
}

//! The routing view's state, plain Rust: a run of the embedding model over the skills (as
//! written and thinned) and the requests, and everything the view derives from it under the
//! current thresholds (the arm shown, the exports, calibration, collisions, the A/B
//! comparison). The view renders it and forwards events; the experiment's logic is
//! `skillpg-routing`'s.

use skillpg_routing::decide::{self, Calibration, Thresholds};
use skillpg_routing::export;
use skillpg_routing::outcome::{self, AbComparison, Arm, Descriptions, Method};
use skillpg_routing::requests::{Labelled, why_not_comparable};
use skillpg_routing::skills::{self, RouteSkill};

/// The Cache API store that keeps the routing model across visits and builds; `sw.js` names
/// the same store (a test reads it there), so the page and the worker share one copy.
pub const MODEL_CACHE: &str = "skill-playground-model-minilm-i8-v2";

/// The weights the page loads (`model/minilm-<WEIGHTS>.spgm`), named in its exports.
pub const WEIGHTS: &str = "i8";

/// Two descriptions at or above this cosine compete for the same requests.
pub const COLLISION: f32 = 0.6;

/// What one run produced; decisions are derived from it under the current thresholds.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteRun {
    /// The requests, labelled or not.
    pub requests: Vec<Labelled>,
    /// Cosines with the descriptions as written.
    pub rich: Arm,
    /// The same with every description thinned.
    pub thin: Arm,
    /// Skill-to-skill cosines (descriptions as written).
    pub collisions: Vec<Vec<f32>>,
    /// Milliseconds the run took (embeddings included).
    pub ms: f64,
}

/// The texts a run embeds, in three batches: the skills as written, thinned, and the requests.
pub fn texts_to_embed(skills: &[RouteSkill], requests: &[Labelled]) -> [Vec<String>; 3] {
    [
        skills.iter().map(RouteSkill::embedding_text).collect(),
        skills
            .iter()
            .map(|s| s.thinned().embedding_text())
            .collect(),
        requests.iter().map(|r| r.query.clone()).collect(),
    ]
}

impl RouteRun {
    /// The run from the three batches' embeddings (see [`texts_to_embed`]).
    pub fn new(
        skills: &[RouteSkill],
        requests: Vec<Labelled>,
        [rich, thin, asked]: [Vec<Vec<f32>>; 3],
        ms: f64,
    ) -> RouteRun {
        let names = skills::names(skills);
        let t = Thresholds::DEFAULT;
        // The preview's router over the texts embedded.
        let [rich_texts, thin_texts, queries] = texts_to_embed(skills, &requests);
        let arm = |vecs: &[Vec<f32>], texts: &[String], descriptions| {
            Arm::preview(
                names.clone(),
                descriptions,
                &asked,
                vecs,
                texts,
                &queries,
                t,
            )
        };
        RouteRun {
            rich: arm(&rich, &rich_texts, Descriptions::AsWritten),
            thin: arm(&thin, &thin_texts, Descriptions::Thinned),
            collisions: decide::score_matrix(&rich, &rich),
            requests,
            ms,
        }
    }

    /// The arm shown: as written or thinned, decided under `t`.
    pub fn arm(&self, thinned: bool, t: Thresholds) -> Arm {
        if thinned { &self.thin } else { &self.rich }.decided_under(t)
    }

    /// The arm shown as the export file `skillpg route --format json` writes.
    pub fn json(&self, thinned: bool, t: Thresholds) -> String {
        export::route_json(
            &export::embedding_model(WEIGHTS),
            Method::Embedding { thresholds: t },
            &self.requests,
            &self.arm(thinned, t),
        )
    }

    /// The same as CSV.
    pub fn csv(&self, thinned: bool, t: Thresholds) -> String {
        export::route_csv(&self.requests, &self.arm(thinned, t))
    }

    /// The thresholds that suit the labelled requests best, or why there are none.
    pub fn calibrate(&self, thinned: bool) -> Result<Calibration, String> {
        if let Some(why) = why_not_comparable(&self.requests) {
            return Err(format!("Calibration needs labels: {why}."));
        }
        let arm = if thinned { &self.thin } else { &self.rich };
        let labels: Vec<&str> = self.requests.iter().map(|r| r.expected.trim()).collect();
        Ok(arm.calibrate(&labels))
    }

    /// The descriptions as written (A) against thinned (B), or why they cannot be compared.
    pub fn comparison(&self, t: Thresholds) -> Result<AbComparison, String> {
        outcome::compare(
            &self.requests,
            &self.rich.decided_under(t),
            &self.thin.decided_under(t),
        )
    }

    /// A sentence for each pair of skills whose descriptions compete.
    pub fn collision_warnings(&self) -> Vec<String> {
        let names = &self.rich.names;
        let mut out = Vec::new();
        for (i, row) in self.collisions.iter().enumerate() {
            for (j, &v) in row.iter().enumerate().skip(i + 1) {
                if v >= COLLISION {
                    out.push(format!(
                        "{} and {} compete (cosine {v:.2}): a request for one may reach the other.",
                        names[i], names[j]
                    ));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillpg_routing::NONE;

    #[test]
    fn the_service_worker_keeps_the_model_in_the_pages_store() {
        let sw = include_str!("../../../web/sw.js");
        assert!(
            sw.contains(&format!("const MODEL_CACHE = '{MODEL_CACHE}';")),
            "web/sw.js names the store the page reads"
        );
    }

    fn skill(name: &str, description: &str) -> RouteSkill {
        RouteSkill {
            name: name.into(),
            description: description.into(),
        }
    }

    fn run(labels: [&str; 2]) -> RouteRun {
        let skills = [skill("a", "Does A. Use when A."), skill("b", "Does B.")];
        let requests = vec![
            Labelled {
                query: "want a".into(),
                expected: labels[0].into(),
            },
            Labelled {
                query: "hello".into(),
                expected: labels[1].into(),
            },
        ];
        let [texts_rich, texts_thin, texts_asked] = texts_to_embed(&skills, &requests);
        assert_eq!(
            (
                texts_rich[0].as_str(),
                texts_thin[0].as_str(),
                texts_asked[1].as_str()
            ),
            ("a: Does A. Use when A.", "a: Does A.", "hello")
        );
        // Unit vectors: a and b orthogonal, thin a drifts towards b.
        let rich = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let thin = vec![vec![0.6, 0.8], vec![0.0, 1.0]];
        let asked = vec![vec![1.0, 0.0], vec![0.1, 0.0]];
        RouteRun::new(&skills, requests, [rich, thin, asked], 12.0)
    }

    #[test]
    fn the_arm_shown_follows_the_switch_and_the_thresholds() {
        let r = run(["a", NONE]);
        assert_eq!(r.arm(false, Thresholds::DEFAULT).choices(), ["a", NONE]);
        assert_eq!(
            r.arm(
                false,
                Thresholds {
                    tau: 0.05,
                    delta: 0.0
                }
            )
            .choices(),
            ["a", "a"]
        );
        assert_eq!(r.arm(true, Thresholds::DEFAULT).choices(), ["a", NONE]);
        let json: serde_json::Value =
            serde_json::from_str(&r.json(true, Thresholds::DEFAULT)).expect("json");
        assert_eq!(
            (json["model"].as_str(), json["descriptions"].as_str()),
            (Some("all-MiniLM-L6-v2, i8 weights"), Some("thinned"))
        );
        assert!(
            r.csv(false, Thresholds::DEFAULT)
                .starts_with("\"query\",\"expected\",\"choice\",\"answer\",\"a\",\"b\"\n")
        );
    }

    #[test]
    fn calibration_and_comparison_need_every_label() {
        let r = run(["a", NONE]);
        let c = r.calibrate(false).expect("labelled");
        assert_eq!(c.correct, 2);
        assert_eq!(
            r.comparison(Thresholds::DEFAULT)
                .expect("labelled")
                .stats
                .a
                .correct,
            2
        );
        let unlabelled = run(["a", ""]);
        assert!(
            unlabelled
                .calibrate(false)
                .expect_err("a label is missing")
                .contains("request 2")
        );
        assert!(unlabelled.comparison(Thresholds::DEFAULT).is_err());
    }

    #[test]
    fn competing_descriptions_are_flagged() {
        let mut r = run(["a", NONE]);
        assert!(r.collision_warnings().is_empty());
        r.collisions[0][1] = 0.61;
        assert_eq!(
            r.collision_warnings(),
            ["a and b compete (cosine 0.61): a request for one may reach the other."]
        );
    }
}

//! The chapter's routing protocol on a decoder: the system prompt lists every skill's
//! `- name: description` line and asks for one name or NONE, in the model's chat template
//! (ChatML, as Qwen2.5 and SmolLM2 use it), then either
//! - *chapter*: greedy decoding to the end of the turn (with a cap), the answer parsed as the
//!   chapter does: an exact name after trimming and case-folding, or NONE; anything else counts
//!   as NONE and is kept verbatim;
//! - *choice*: the log-probability of each candidate answer (every name, and NONE, each followed
//!   by the end of the turn) after the same prompt, as a distribution.
//!
//! The system turn is the same for every request, so it is prefilled once and its key/value
//! cache reused: a request costs only its own tokens. The prompt is cut at a special token
//! (`<|im_start|>`), where the tokenizer starts afresh, so the cut never changes the ids.

use skillpg_routing::NONE;
use skillpg_routing::answer::{Reading, read_answer};
use skillpg_routing::outcome::{Decision, Evidence};
use skillpg_routing::sampling::{Sampling, SplitMix64, draw};
use skillpg_routing::skills::RouteSkill;

use crate::bpe::Bpe;
use crate::forward::Forward;
use crate::model::Logits;

/// The most tokens an answer may run to in the chapter's protocol.
pub const DEFAULT_MAX_ANSWER_TOKENS: usize = 24;

// The prompt's text is the experiment's (the page shows it without loading a model).
pub use skillpg_routing::prompt::{prompt_prefix, prompt_request, system_prompt};

/// One request's answer under the chapter's protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct ChapterAnswer {
    /// What the model wrote, verbatim (without the end-of-turn token).
    pub verbatim: String,
    /// How it was read.
    pub parsed: Reading,
    /// Tokens prefilled for this request (its own, the prefix being cached).
    pub prefill_tokens: usize,
    /// Tokens generated.
    pub generated_tokens: usize,
    /// Whether decoding stopped at the cap rather than at the end of the turn.
    pub capped: bool,
}

/// One request's answer under constrained choice.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceAnswer {
    /// Log-probability of each candidate (the names in order, then NONE), each as the whole
    /// answer followed by the end of the turn.
    pub log_probs: Vec<f32>,
    /// The same, normalised over the candidates (sums to 1).
    pub distribution: Vec<f32>,
    /// The most probable candidate: a skill's index, or `None` for NONE.
    pub choice: Option<usize>,
    /// Tokens prefilled for this request (its own and the candidates').
    pub prefill_tokens: usize,
}

impl ChapterAnswer {
    /// The answer as a decision, with what it rests on.
    pub fn decision(&self) -> Decision {
        let evidence = Evidence::Answer {
            verbatim: self.verbatim.clone(),
            recognised: self.parsed.recognised,
            prefill_tokens: self.prefill_tokens as u64,
            generated_tokens: self.generated_tokens as u64,
            capped: self.capped,
        };
        Decision {
            choice: self.parsed.choice,
            evidence,
        }
    }
}

impl ChoiceAnswer {
    /// The answer as a decision, with what it rests on.
    pub fn decision(&self) -> Decision {
        let evidence = Evidence::Choice {
            distribution: self.distribution.clone(),
            log_probs: self.log_probs.clone(),
            prefill_tokens: self.prefill_tokens as u64,
        };
        Decision {
            choice: self.choice,
            evidence,
        }
    }
}

/// A decoder routing requests over one set of skills, its system turn cached in the backend's
/// key/value cache. It holds no reference to the backend, so a worker can keep it beside the
/// backend it was made with; every call takes that same backend (whose cache no other router
/// may use meanwhile) and tokenizer.
#[derive(Debug)]
pub struct DecoderRouter {
    names: Vec<String>,
    prefix_len: usize,
    prefix_ids: Vec<u32>,
    reuse_prefix: bool,
    stops: Vec<u32>,
    /// Each candidate's tokens (names, then NONE), end-of-turn included.
    candidates: Vec<Vec<u32>>,
}

/// ChatML's end-of-turn token, or why the tokenizer does not speak ChatML: the one check of the
/// loader (`Loaded::checked`) and the protocol.
pub fn chatml_end(bpe: &Bpe) -> Result<u32, String> {
    for marker in ["<|im_start|>", "<|im_end|>"] {
        if bpe.special(marker).is_none() {
            return Err(format!(
                "the tokenizer has no {marker} token: the model does not use the ChatML template (Qwen2.5 and SmolLM2 do)"
            ));
        }
    }
    bpe.special("<|im_end|>")
        .ok_or_else(|| "the tokenizer has no <|im_end|> token".to_owned())
}

impl DecoderRouter {
    /// Prefills the system turn for `skills` (`(name, description)`) into `model`'s cache, or
    /// says why the model's tokenizer cannot hold this chat template (or why the device failed).
    /// With `reuse_prefix` false every request prefills the whole prompt again (to measure what
    /// the cache saves).
    pub async fn new(
        model: &mut impl Forward,
        bpe: &Bpe,
        skills: &[RouteSkill],
        reuse_prefix: bool,
    ) -> Result<DecoderRouter, String> {
        let end = chatml_end(bpe)?;
        let mut stops = vec![end];
        stops.extend(bpe.special("<|endoftext|>"));
        let names = skillpg_routing::skills::names(skills);
        let candidates = names.iter().map(String::as_str).chain([NONE]).map(|n| {
            let mut ids = bpe.encode(n);
            ids.push(end);
            ids
        });
        let candidates = candidates.collect();
        let prefix_ids = bpe.encode(&prompt_prefix(&system_prompt(skills)));
        // Room for a request and its answer after the system turn, within what the model was
        // trained to read.
        let room = 256;
        let context = model.config().context;
        if prefix_ids.len() + room > context {
            return Err(format!(
                "the system prompt for these {} skills is {} tokens; the model reads {context} at most, and a request and its answer need about {room} more: route fewer skills at once",
                skills.len(),
                prefix_ids.len(),
            ));
        }
        model.truncate(0);
        if reuse_prefix {
            model.forward(&prefix_ids, Logits::None).await?;
        }
        let prefix_len = model.cached();
        Ok(DecoderRouter {
            names,
            prefix_len,
            prefix_ids,
            reuse_prefix,
            stops,
            candidates,
        })
    }

    /// Tokens of the shared prefix (system turn).
    pub fn prefix_tokens(&self) -> usize {
        self.prefix_ids.len()
    }

    /// The skills' names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The request's ids after the prefix (the whole prompt's when the prefix is not reused),
    /// and the cache rewound to the prefix.
    fn request_ids(&self, model: &mut impl Forward, bpe: &Bpe, request: &str) -> Vec<u32> {
        model.truncate(self.prefix_len);
        let mut ids = if self.reuse_prefix {
            Vec::new()
        } else {
            self.prefix_ids.clone()
        };
        ids.extend(bpe.encode(&prompt_request(request)));
        ids
    }

    /// The chapter's protocol: greedy decoding to the end of the turn, at most `max_tokens`.
    pub async fn chapter(
        &self,
        model: &mut impl Forward,
        bpe: &Bpe,
        request: &str,
        max_tokens: usize,
    ) -> Result<ChapterAnswer, String> {
        self.chapter_sampled(model, bpe, request, max_tokens, None)
            .await
    }

    /// The chapter's protocol, each token drawn at `sampling`'s temperature from its seed
    /// (greedy without one): one of a query's repeated runs.
    pub async fn chapter_sampled(
        &self,
        model: &mut impl Forward,
        bpe: &Bpe,
        request: &str,
        max_tokens: usize,
        sampling: Option<Sampling>,
    ) -> Result<ChapterAnswer, String> {
        let ids = self.request_ids(model, bpe, request);
        // A temperature of 0 is greedy: the same argmax as without sampling, one rule for ties.
        let mut rng = sampling
            .filter(|s| s.temperature.is_finite() && s.temperature > 0.0)
            .map(|s| (s.temperature, SplitMix64(s.seed)));
        // Greedy, the backend takes the argmax where its logits are (a GPU reads back the token
        // alone); sampled, the whole distribution is drawn from.
        let mut next = match &mut rng {
            Some((t, rng)) => draw(&model.forward(&ids, Logits::Last).await?, *t, rng),
            None => model.forward_argmax(&ids).await?,
        };
        let mut answer = Vec::new();
        let mut capped = true;
        for _ in 0..max_tokens {
            if self.stops.contains(&next) {
                capped = false;
                break;
            }
            answer.push(next);
            if answer.len() == max_tokens {
                break;
            }
            next = match &mut rng {
                Some((t, rng)) => draw(&model.forward(&[next], Logits::Last).await?, *t, rng),
                None => model.forward_argmax(&[next]).await?,
            };
        }
        let verbatim = bpe.decode(&answer);
        let parsed = read_answer(&verbatim, &self.names);
        Ok(ChapterAnswer {
            verbatim,
            parsed,
            prefill_tokens: ids.len(),
            generated_tokens: answer.len(),
            capped,
        })
    }

    /// Constrained choice: every candidate's log-probability after the prompt.
    pub async fn choice(
        &self,
        model: &mut impl Forward,
        bpe: &Bpe,
        request: &str,
    ) -> Result<ChoiceAnswer, String> {
        let ids = self.request_ids(model, bpe, request);
        // Each candidate's first token after the prompt, then each of its others after the
        // tokens before it: log-probabilities the backend computes where its logits are.
        let firsts: Vec<(usize, u32)> = self
            .candidates
            .iter()
            .map(|cand| (ids.len() - 1, cand[0]))
            .collect();
        let first = model.forward_log_probs(&ids, &firsts).await?;
        let prompt_len = model.cached();
        let mut prefill = ids.len();
        let mut log_probs = Vec::with_capacity(self.candidates.len());
        for (cand, &first_lp) in self.candidates.iter().zip(&first) {
            model.truncate(prompt_len);
            let mut lp = first_lp;
            if cand.len() > 1 {
                let wanted: Vec<(usize, u32)> = cand[1..]
                    .iter()
                    .enumerate()
                    .map(|(i, &id)| (i, id))
                    .collect();
                let rest = model
                    .forward_log_probs(&cand[..cand.len() - 1], &wanted)
                    .await?;
                prefill += cand.len() - 1;
                for v in rest {
                    lp += v;
                }
            }
            log_probs.push(lp);
        }
        let max = log_probs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = log_probs.iter().map(|l| (l - max).exp()).sum();
        let distribution = log_probs.iter().map(|l| (l - max).exp() / sum).collect();
        let best = crate::forward::argmax(&log_probs) as usize;
        let choice = (best < self.names.len()).then_some(best);
        Ok(ChoiceAnswer {
            log_probs,
            distribution,
            choice,
            prefill_tokens: prefill,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_prompt_lists_every_skill_on_one_line() {
        let skill = |name: &str, description: &str| RouteSkill {
            name: name.into(),
            description: description.into(),
        };
        let s = system_prompt(&[skill("a", "Does\n  A."), skill("b", "Does B.")]);
        assert!(s.contains("\n- a: Does A.\n- b: Does B.\n"), "{s}");
        assert!(s.ends_with("NONE only."));
    }
}

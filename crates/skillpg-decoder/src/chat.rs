//! The decoder's half of the chapter's routing protocol, in the model's chat template (ChatML,
//! as Qwen2.5 and SmolLM2 use it): a system turn prefilled once into the key/value cache and
//! reused, so that a request costs only its own tokens; then, for each request's turn, either
//! - *answer*: greedy (or seeded) decoding to the end of the turn, with a cap ([`ChatRouter::answer`]);
//! - *choice*: the log-probability of each candidate answer, each followed by the end of the turn,
//!   after the same prompt, as a distribution ([`ChatRouter::choice`]).
//!
//! The words are the experiment's: the system turn that lists the skills, the request's turn,
//! the candidates (every name, then NONE) and how an answer is read
//! (`skillpg_routing::prompt` and `answer`). `skillpg_runtime::decoder` binds them to this, so
//! that the model crate knows nothing of skills. The prompt is cut at a special token
//! (`<|im_start|>`), where the tokenizer starts afresh, so the cut never changes the ids.

use skillpg_math::sampling::{Sampling, SplitMix64, draw};

use crate::DecoderError;
use crate::bpe::Bpe;
use crate::forward::Forward;
use crate::model::Logits;

/// The most tokens an answer may run to in the chapter's protocol.
pub const DEFAULT_MAX_ANSWER_TOKENS: usize = 24;

/// What the model wrote for one request's turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatAnswer {
    /// What the model wrote, verbatim (without the end-of-turn token).
    pub verbatim: String,
    /// Tokens prefilled for this request (its own, the prefix being cached).
    pub prefill_tokens: usize,
    /// Tokens generated.
    pub generated_tokens: usize,
    /// Whether decoding stopped at the cap rather than at the end of the turn.
    pub capped: bool,
}

/// Every candidate's score for one request's turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceScores {
    /// Log-probability of each candidate, in the order given, each as the whole answer followed
    /// by the end of the turn.
    pub log_probs: Vec<f32>,
    /// The same, normalised over the candidates (sums to 1).
    pub distribution: Vec<f32>,
    /// The most probable candidate's index (the highest among equals, as the greedy token).
    pub best: usize,
    /// Tokens prefilled for this request (its own and the candidates').
    pub prefill_tokens: usize,
}

/// A decoder's conversation over one system turn, cached in the backend's key/value cache. It
/// holds no reference to the backend, so a worker can keep it beside the backend it was made
/// with; every call takes that same backend (whose cache no other router may use meanwhile) and
/// tokenizer.
#[derive(Debug)]
pub struct ChatRouter {
    prefix_len: usize,
    prefix_ids: Vec<u32>,
    reuse_prefix: bool,
    stops: Vec<u32>,
    /// Each candidate's tokens, end-of-turn included.
    candidates: Vec<Vec<u32>>,
}

/// ChatML's end-of-turn token, or why the tokenizer does not speak ChatML: the one check of the
/// loader (`Loaded::checked`) and the protocol.
pub fn chatml_end(bpe: &Bpe) -> Result<u32, DecoderError> {
    chatml_end_of(bpe).map_err(DecoderError::Model)
}

fn chatml_end_of(bpe: &Bpe) -> Result<u32, String> {
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

impl ChatRouter {
    /// Prefills `prefix` (the system turn, in the template) into `model`'s cache, with the
    /// answers [`ChatRouter::choice`] scores, or says why the model's tokenizer cannot hold this
    /// chat template (or why the device failed). With `reuse_prefix` false every request
    /// prefills the whole prompt again (to measure what the cache saves).
    pub async fn new(
        model: &mut impl Forward,
        bpe: &Bpe,
        prefix: &str,
        candidates: &[&str],
        reuse_prefix: bool,
    ) -> Result<ChatRouter, DecoderError> {
        let end = chatml_end(bpe)?;
        let mut stops = vec![end];
        stops.extend(bpe.special("<|endoftext|>"));
        let candidates = candidates.iter().map(|n| {
            let mut ids = bpe.encode(n);
            ids.push(end);
            ids
        });
        let candidates = candidates.collect();
        let prefix_ids = bpe.encode(prefix);
        // Room for a request and its answer after the system turn, within what the model was
        // trained to read.
        let room = 256;
        let context = model.config().context;
        if prefix_ids.len() + room > context {
            return Err(DecoderError::Prompt(format!(
                "the system prompt is {} tokens; the model reads {context} at most, and a request and its answer need about {room} more: route fewer skills at once",
                prefix_ids.len(),
            )));
        }
        model.truncate(0);
        if reuse_prefix {
            model.forward(&prefix_ids, Logits::None).await?;
        }
        let prefix_len = model.cached();
        Ok(ChatRouter {
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

    /// The turn's ids after the prefix (the whole prompt's when the prefix is not reused), and
    /// the cache rewound to the prefix.
    fn request_ids(&self, model: &mut impl Forward, bpe: &Bpe, turn: &str) -> Vec<u32> {
        model.truncate(self.prefix_len);
        let mut ids = if self.reuse_prefix {
            Vec::new()
        } else {
            self.prefix_ids.clone()
        };
        ids.extend(bpe.encode(turn));
        ids
    }

    /// Decoding after `turn` (the request's turn, in the template) to the end of the model's
    /// turn, at most `max_tokens`, each token drawn at `sampling`'s temperature from its seed, or
    /// greedy without one (one of a query's repeated runs).
    pub async fn answer(
        &self,
        model: &mut impl Forward,
        bpe: &Bpe,
        turn: &str,
        max_tokens: usize,
        sampling: Option<Sampling>,
    ) -> Result<ChatAnswer, DecoderError> {
        let ids = self.request_ids(model, bpe, turn);
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
        Ok(ChatAnswer {
            verbatim: bpe.decode(&answer),
            prefill_tokens: ids.len(),
            generated_tokens: answer.len(),
            capped,
        })
    }

    /// Constrained choice: every candidate's log-probability after `turn` (the request's turn,
    /// in the template).
    pub async fn choice(
        &self,
        model: &mut impl Forward,
        bpe: &Bpe,
        turn: &str,
    ) -> Result<ChoiceScores, DecoderError> {
        let ids = self.request_ids(model, bpe, turn);
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
        Ok(ChoiceScores {
            best: crate::forward::argmax(&log_probs) as usize,
            log_probs,
            distribution,
            prefill_tokens: prefill,
        })
    }
}

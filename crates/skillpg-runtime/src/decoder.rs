//! A decoder where the placement ladder puts it: the GPU (`skillpg_gpu::decoder::GpuDecoder`) or
//! the CPU path (`skillpg_decoder::forward::CpuForward`), behind one [`Forward`], measured on a
//! request-sized piece of work (a 16-token prompt, then four greedy steps) when the choice is
//! automatic and no kept measurement fits. [`DecoderRouting`] routes requests with it for every
//! edge: a GPU that fails hands the model to the CPU path ([`DecoderBackend::fall_back`]), which
//! answers the request again, and the placement says so. [`SkillsChat`] binds the experiment's
//! words (the system turn that lists the skills, NONE, how an answer is read, a `Decision`) to
//! the model's conversation (`skillpg_decoder::chat`), which knows nothing of skills.

use skillpg_decoder::DecoderError;
use skillpg_decoder::bpe::Bpe;
use skillpg_decoder::chat::{ChatRouter, DEFAULT_MAX_ANSWER_TOKENS};
use skillpg_decoder::forward::{CpuForward, Forward};
use skillpg_decoder::model::{Config, Decoder, Logits};
use skillpg_gpu::decoder::{DecoderKernels, GpuDecoder};
use skillpg_routing::NONE;
use skillpg_routing::answer::read_answer;
use skillpg_routing::backend::{Measured, Path, Placement, Plan, STOP_AFTER, Why};
use skillpg_routing::outcome::{Decision, Evidence};
use skillpg_routing::prompt::{prompt_prefix, prompt_request, system_prompt};
use skillpg_routing::protocol::DecoderMode;
use skillpg_routing::sampling::Sampling;
use skillpg_routing::skills::RouteSkill;

use crate::{Ask, Clock, Start};

/// What runs the model.
#[allow(
    clippy::large_enum_variant,
    reason = "one value an engine, moved only when the backend changes"
)]
#[derive(Debug)]
pub enum DecoderBackend {
    Cpu(CpuForward<Decoder>),
    Gpu(Box<GpuDecoder>),
}

impl DecoderBackend {
    /// The model back, whichever backend held it.
    pub fn into_model(self) -> Decoder {
        match self {
            DecoderBackend::Cpu(cpu) => cpu.into_model(),
            DecoderBackend::Gpu(gpu) => gpu.into_model(),
        }
    }

    /// The CPU path, after the GPU failed (a no-op on the CPU path).
    pub fn fall_back(self) -> DecoderBackend {
        DecoderBackend::Cpu(CpuForward::new(self.into_model()))
    }

    /// Whether the GPU runs.
    pub fn on_gpu(&self) -> bool {
        matches!(self, DecoderBackend::Gpu(_))
    }

    /// What the GPU holds, for its line: weights' megabytes and storage.
    pub fn gpu_holds(&self) -> Option<(f64, String)> {
        match self {
            DecoderBackend::Gpu(g) => Some((g.device_bytes as f64 / 1e6, g.storage.clone())),
            DecoderBackend::Cpu(_) => None,
        }
    }
}

impl Forward for DecoderBackend {
    fn config(&self) -> Config {
        match self {
            DecoderBackend::Cpu(c) => c.config(),
            DecoderBackend::Gpu(g) => g.config(),
        }
    }

    fn cached(&self) -> usize {
        match self {
            DecoderBackend::Cpu(c) => c.cached(),
            DecoderBackend::Gpu(g) => g.cached(),
        }
    }

    fn truncate(&mut self, len: usize) {
        match self {
            DecoderBackend::Cpu(c) => c.truncate(len),
            DecoderBackend::Gpu(g) => g.truncate(len),
        }
    }

    async fn forward(&mut self, ids: &[u32], logits: Logits) -> Result<Vec<f32>, DecoderError> {
        match self {
            DecoderBackend::Cpu(c) => c.forward(ids, logits).await,
            DecoderBackend::Gpu(g) => g.forward(ids, logits).await,
        }
    }

    async fn forward_argmax(&mut self, ids: &[u32]) -> Result<u32, DecoderError> {
        match self {
            DecoderBackend::Cpu(c) => c.forward_argmax(ids).await,
            DecoderBackend::Gpu(g) => g.forward_argmax(ids).await,
        }
    }

    async fn forward_log_probs(
        &mut self,
        ids: &[u32],
        wanted: &[(usize, u32)],
    ) -> Result<Vec<f32>, DecoderError> {
        match self {
            DecoderBackend::Cpu(c) => c.forward_log_probs(ids, wanted).await,
            DecoderBackend::Gpu(g) => g.forward_log_probs(ids, wanted).await,
        }
    }
}

/// The probe's prompt length and greedy steps: a request of the chapter's protocol is about
/// twenty tokens and a short answer.
const PROBE_PROMPT: usize = 16;
const PROBE_STEPS: usize = 4;

/// Runs the probe on `model` from an empty cache, step by step; `Ok(false)` when it stopped
/// because the clock passed `deadline` (absolute milliseconds).
async fn probe(
    model: &mut impl Forward,
    clock: Clock<'_>,
    deadline: f64,
) -> Result<bool, DecoderError> {
    let vocab = model.config().vocab.max(1);
    let ids: Vec<u32> = (0..PROBE_PROMPT)
        .map(|i| ((i * 7919 + 13) % vocab) as u32)
        .collect();
    model.truncate(0);
    let mut next = model.forward_argmax(&ids).await?;
    for _ in 0..PROBE_STEPS {
        if clock() > deadline {
            return Ok(false);
        }
        next = model.forward_argmax(&[next]).await?;
    }
    model.truncate(0);
    Ok(clock() <= deadline)
}

/// Milliseconds of the probe's second run (the first warms it), or of its first when that was
/// stopped at `budget` milliseconds.
async fn time_probe(
    model: &mut impl Forward,
    clock: Clock<'_>,
    budget: f64,
) -> Result<(f64, bool), DecoderError> {
    let start = clock();
    if !probe(model, clock, start + budget).await? {
        model.truncate(0);
        return Ok((clock() - start, true));
    }
    let start = clock();
    probe(model, clock, f64::INFINITY).await?;
    Ok((clock() - start, false))
}

/// Puts `model` where the ladder says (see [`crate::embedder::place`]); the backend, its
/// placement, and a new measurement to keep when one was made.
pub async fn place(model: Decoder, ask: Ask<'_>) -> (DecoderBackend, Placement, Option<Measured>) {
    let (model_key, clock) = (ask.model_key, ask.clock);
    let cpu = |model, path, why, adapter| {
        (
            DecoderBackend::Cpu(CpuForward::new(model)),
            Placement { path, why, adapter },
            None,
        )
    };
    let (gpu, adapter, plan) = match crate::start(&ask).await {
        Start::Gpu { gpu, adapter, plan } => (gpu, adapter, plan),
        Start::Cpu(placement) => {
            return (DecoderBackend::Cpu(CpuForward::new(model)), placement, None);
        }
    };
    let upload = async |model| match GpuDecoder::new(DecoderKernels::new(gpu), model).await {
        Ok(g) => Ok(g),
        Err((model, e)) => Err(cpu(
            model,
            Path::Cpu,
            Why::GpuRefused(e.to_string()),
            Some(adapter.clone()),
        )),
    };
    let cpu_ms = match plan {
        // Chosen, or kept from an earlier measurement: the GPU runs, nothing to time.
        Plan::Place(path, why) => {
            return match upload(model).await {
                Ok(g) => (
                    DecoderBackend::Gpu(Box::new(g)),
                    Placement {
                        path,
                        why,
                        adapter: Some(adapter),
                    },
                    None,
                ),
                Err(refused) => refused,
            };
        }
        // The CPU's time first (on the model itself), then the GPU's on its own copy.
        Plan::Measure => match time_probe(&mut CpuForward::new(&model), clock, f64::INFINITY).await
        {
            Ok((ms, _)) => ms,
            Err(e) => {
                return cpu(
                    model,
                    Path::Cpu,
                    Why::GpuFailed(e.to_string()),
                    Some(adapter),
                );
            }
        },
    };
    let mut on_gpu = match upload(model).await {
        Ok(g) => g,
        Err(refused) => return refused,
    };
    match time_probe(&mut on_gpu, clock, STOP_AFTER * cpu_ms).await {
        Ok((gpu_ms, gpu_stopped)) => {
            let measured = Measured::on(&adapter, model_key, gpu_ms, cpu_ms, gpu_stopped);
            let placement = Placement::measured(measured.clone(), adapter);
            let backend = if placement.path == Path::Gpu {
                DecoderBackend::Gpu(Box::new(on_gpu))
            } else {
                DecoderBackend::Cpu(CpuForward::new(on_gpu.into_model()))
            };
            (backend, placement, Some(measured))
        }
        Err(e) => cpu(
            on_gpu.into_model(),
            Path::Cpu,
            Why::GpuFailed(e.to_string()),
            Some(adapter),
        ),
    }
}

/// The chapter's protocol over `skills` on a decoder: its system turn lists every skill's
/// `- name: description` line and asks for one name or NONE; an answer is read as the chapter
/// reads it, and constrained choice scores every name, then NONE.
#[derive(Debug)]
pub struct SkillsChat {
    names: Vec<String>,
    chat: ChatRouter,
}

impl SkillsChat {
    /// The system turn for `skills` prefilled into `model`'s cache (every request prefills it
    /// again when `reuse_prefix` is false), or why the model cannot hold it.
    pub async fn new(
        model: &mut impl Forward,
        bpe: &Bpe,
        skills: &[RouteSkill],
        reuse_prefix: bool,
    ) -> Result<SkillsChat, DecoderError> {
        let names = skillpg_routing::skills::names(skills);
        let candidates: Vec<&str> = names.iter().map(String::as_str).chain([NONE]).collect();
        let prefix = prompt_prefix(&system_prompt(skills));
        let chat = ChatRouter::new(model, bpe, &prefix, &candidates, reuse_prefix).await?;
        Ok(SkillsChat { names, chat })
    }

    /// Tokens of the system turn.
    pub fn prefix_tokens(&self) -> usize {
        self.chat.prefix_tokens()
    }

    /// The chapter's protocol: decoding to the end of the turn (at most `max_tokens`, drawn at
    /// `sampling`, greedy without one), the answer read as a name or NONE.
    pub async fn chapter(
        &self,
        model: &mut impl Forward,
        bpe: &Bpe,
        request: &str,
        max_tokens: usize,
        sampling: Option<Sampling>,
    ) -> Result<Decision, DecoderError> {
        let turn = prompt_request(request);
        let answer = self
            .chat
            .answer(model, bpe, &turn, max_tokens, sampling)
            .await?;
        let read = read_answer(&answer.verbatim, &self.names);
        let evidence = Evidence::Answer {
            verbatim: answer.verbatim,
            recognised: read.recognised,
            prefill_tokens: answer.prefill_tokens as u64,
            generated_tokens: answer.generated_tokens as u64,
            capped: answer.capped,
        };
        Ok(Decision {
            choice: read.choice,
            evidence,
        })
    }

    /// Constrained choice: the most probable of every name and NONE.
    pub async fn choice(
        &self,
        model: &mut impl Forward,
        bpe: &Bpe,
        request: &str,
    ) -> Result<Decision, DecoderError> {
        let scores = self
            .chat
            .choice(model, bpe, &prompt_request(request))
            .await?;
        let evidence = Evidence::Choice {
            distribution: scores.distribution,
            log_probs: scores.log_probs,
            prefill_tokens: scores.prefill_tokens as u64,
        };
        Ok(Decision {
            choice: (scores.best < self.names.len()).then_some(scores.best),
            evidence,
        })
    }
}

/// A decoder where the ladder put it, its tokenizer, and the router of the skills it was last
/// asked about (their system turn prefilled once and reused for every request over them): how
/// every edge routes with a decoder. A GPU that fails during a request hands the model to the
/// CPU path, which answers that request again and every later one
/// ([`Placement::after_failure`]): the one fallback, here once for the CLI and the worker.
#[derive(Debug)]
pub struct DecoderRouting {
    /// `None` only within [`DecoderRouting::fall_back`], while the model moves to the CPU.
    backend: Option<DecoderBackend>,
    bpe: Bpe,
    placement: Placement,
    router: Option<(Vec<RouteSkill>, SkillsChat)>,
}

impl DecoderRouting {
    /// The model on `backend`, placed as `placement` says, with no router yet.
    pub fn new(backend: DecoderBackend, bpe: Bpe, placement: Placement) -> DecoderRouting {
        DecoderRouting {
            backend: Some(backend),
            bpe,
            placement,
            router: None,
        }
    }

    /// Where the model runs and why (after a GPU failure, the CPU path and that failure).
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// What the GPU holds, for its line ([`DecoderBackend::gpu_holds`]).
    pub fn gpu_holds(&self) -> Option<(f64, String)> {
        self.backend.as_ref().and_then(DecoderBackend::gpu_holds)
    }

    /// The model and its tokenizer back, to place again.
    pub fn into_parts(self) -> Result<(Decoder, Bpe), DecoderError> {
        let backend = self.backend.ok_or_else(lost)?;
        Ok((backend.into_model(), self.bpe))
    }

    /// Routes one request over `skills` under `mode` (the chapter's protocol drawn at
    /// `sampling`, greedy without one; or constrained choice), the router made first when the
    /// skills changed: the decision and the system turn's tokens. A failure on the GPU moves
    /// the model to the CPU path, which answers the request.
    pub async fn route(
        &mut self,
        skills: &[RouteSkill],
        request: &str,
        mode: DecoderMode,
        sampling: Option<Sampling>,
    ) -> Result<(Decision, usize), DecoderError> {
        match self.route_here(skills, request, mode, sampling).await {
            // Only the device's failures move the model: a prompt too long for its context, or
            // a model it cannot use, would fail the same way on the CPU.
            Err(DecoderError::Device(failure))
                if self.backend.as_ref().is_some_and(DecoderBackend::on_gpu) =>
            {
                self.fall_back(&failure);
                self.route_here(skills, request, mode, sampling).await
            }
            out => out,
        }
    }

    /// One request on the backend the model is on now.
    async fn route_here(
        &mut self,
        skills: &[RouteSkill],
        request: &str,
        mode: DecoderMode,
        sampling: Option<Sampling>,
    ) -> Result<(Decision, usize), DecoderError> {
        let backend = self.backend.as_mut().ok_or_else(lost)?;
        if self.router.as_ref().is_none_or(|(s, _)| s != skills) {
            self.router = None;
            let router = SkillsChat::new(backend, &self.bpe, skills, true).await?;
            self.router = Some((skills.to_vec(), router));
        }
        let Some((_, router)) = &self.router else {
            return Err(DecoderError::Device("no router".to_owned()));
        };
        let decision = match mode {
            DecoderMode::Chapter => {
                router
                    .chapter(
                        backend,
                        &self.bpe,
                        request,
                        DEFAULT_MAX_ANSWER_TOKENS,
                        sampling,
                    )
                    .await?
            }
            DecoderMode::Choice => router.choice(backend, &self.bpe, request).await?,
        };
        Ok((decision, router.prefix_tokens()))
    }

    /// The model to the CPU path after the GPU failed (`failure`, the device's words); the
    /// router, prefilled on the GPU, is made again there.
    fn fall_back(&mut self, failure: &str) {
        self.router = None;
        self.backend = self.backend.take().map(DecoderBackend::fall_back);
        self.placement = self.placement.after_failure(failure);
    }
}

/// What a routing whose model was lost in a fallback says (it is not: the move cannot fail).
fn lost() -> DecoderError {
    DecoderError::Device("the decoder was lost moving to the CPU path".to_owned())
}

//! Where the routing models run, once for every edge that runs them (the `skillpg` CLI, the
//! page's two workers): the placement ladder (`skillpg_routing::backend`'s decision: the
//! person's choice, the adapter there is, and, left automatic, a measurement of both paths on a
//! request-sized piece of work, kept per adapter and model), the backends behind it, and the one
//! fallback: a GPU that fails hands the model to the fast CPU path, which finishes the work, and
//! the backend line says so.
//!
//! - [`embedder`]: the embedding model on the GPU or the fast CPU path;
//! - [`decoder`]: a decoder on the GPU or the CPU path, one [`skillpg_decoder::forward::Forward`].
//!
//! It measures with the clock the edge gives it (`Instant` natively, `performance.now()` in a
//! worker), so it builds for wasm32 as for the CLI.

pub mod decoder;
pub mod embedder;

use skillpg_routing::backend::{
    self, Adapter, AdapterKind, BackendChoice, Path, Placement, Plan, Why,
};

/// A clock in milliseconds (the edge's own).
pub type Clock<'a> = &'a dyn Fn() -> f64;

/// What an edge asks of the ladder.
#[derive(Clone, Copy)]
pub struct Ask<'a> {
    /// The person's choice.
    pub choice: skillpg_routing::backend::BackendChoice,
    /// Measurements kept from earlier loads.
    pub kept: &'a [skillpg_routing::backend::Measured],
    /// The model, in words (what a kept measurement is kept for).
    pub model_key: &'a str,
    /// Where the person chooses ("in the page", "with --backend").
    pub chosen_by: &'a str,
    /// The edge's clock.
    pub clock: Clock<'a>,
}

impl std::fmt::Debug for Ask<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ask")
            .field("choice", &self.choice)
            .field("kept", &self.kept)
            .field("model_key", &self.model_key)
            .field("chosen_by", &self.chosen_by)
            .finish()
    }
}

/// An adapter, as placement sees it.
pub fn adapter_of(a: &skillpg_gpu::AdapterSummary) -> Adapter {
    let kind = match a.device_type {
        skillpg_gpu::DeviceType::DiscreteGpu => AdapterKind::DiscreteGpu,
        skillpg_gpu::DeviceType::IntegratedGpu => AdapterKind::IntegratedGpu,
        skillpg_gpu::DeviceType::VirtualGpu => AdapterKind::VirtualGpu,
        skillpg_gpu::DeviceType::Cpu => AdapterKind::Cpu,
        skillpg_gpu::DeviceType::Other => AdapterKind::Other,
    };
    Adapter {
        name: a.name.clone(),
        backend: a.backend.clone(),
        kind,
    }
}

/// The ladder's first step for an edge: the GPU to use (with the plan for it), or the CPU
/// placement when the plan never touches the GPU.
pub(crate) enum Start {
    /// The GPU is needed: to measure it, or because it is chosen or kept.
    Gpu {
        gpu: skillpg_gpu::Gpu,
        adapter: Adapter,
        plan: Plan,
    },
    /// The CPU path, for this reason, on this adapter if any.
    Cpu(Placement),
}

/// Asks what the adapter is (unless the CPU is chosen), plans (`skillpg_routing::backend::plan`),
/// and starts the GPU only when the plan needs it: a kept decision for the CPU path never makes a
/// device or compiles a kernel.
pub(crate) async fn start(ask: &Ask<'_>) -> Start {
    let summary = if ask.choice == BackendChoice::Cpu {
        Err(skillpg_gpu::GpuError::Unavailable(
            "not asked for".to_owned(),
        ))
    } else {
        skillpg_gpu::adapter_summary().await
    };
    let adapter = summary
        .as_ref()
        .map(adapter_of)
        .map_err(ToString::to_string);
    let kept_one = adapter
        .as_ref()
        .ok()
        .and_then(|a| backend::kept(ask.kept, a, ask.model_key));
    let plan = backend::plan(
        ask.choice,
        adapter.as_ref().map_err(|e| e.as_str()),
        kept_one,
        ask.chosen_by,
    );
    match (adapter, plan) {
        (Ok(adapter), plan @ (Plan::Measure | Plan::Place(Path::Gpu, _))) => {
            match skillpg_gpu::Gpu::new().await {
                Ok(gpu) => Start::Gpu { gpu, adapter, plan },
                Err(e) => Start::Cpu(Placement {
                    path: Path::Cpu,
                    why: Why::GpuRefused(e.to_string()),
                    adapter: Some(adapter),
                }),
            }
        }
        (adapter, Plan::Place(path, why)) => Start::Cpu(Placement {
            path,
            why,
            adapter: adapter.ok(),
        }),
        (adapter, Plan::Measure) => Start::Cpu(Placement {
            path: Path::Cpu,
            why: Why::NoAdapter("no adapter".to_owned()),
            adapter: adapter.ok(),
        }),
    }
}

/// How long `runs` take on one path: each run timed; the first (pipelines, caches) is not
/// counted unless it is the only one, and a first run over `budget` milliseconds stops there
/// (the result is then that run, flagged).
pub(crate) struct Timed {
    pub ms: f64,
    pub stopped: bool,
}

/// The milliseconds of `run`'s second pass (the first warms it), or its first when that alone
/// went past `budget`. `Err` when a run failed.
pub(crate) async fn time_twice<F, Fut, E>(
    clock: Clock<'_>,
    budget: f64,
    mut run: F,
) -> Result<Timed, E>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), E>>,
{
    let start = clock();
    run().await?;
    let first = clock() - start;
    if first > budget {
        return Ok(Timed {
            ms: first,
            stopped: true,
        });
    }
    let start = clock();
    run().await?;
    Ok(Timed {
        ms: clock() - start,
        stopped: false,
    })
}

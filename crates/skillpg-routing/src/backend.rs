//! Where a model runs, decided once for every edge (the CLI, the page's two workers): the
//! person's choice, the adapter there is, and, left automatic, a measurement. A GPU is not
//! assumed faster: on the first load of a model on an adapter, each path runs one short piece
//! of work of a request's size (a probe) and the faster runs; the measurement is kept per
//! adapter and model ([`Measured`]), so later loads decide at once. The backend line says what
//! was measured ("WebGPU …: 0.9 ms a request, the CPU path 8.1 ms"), and says so when the CPU
//! runs though a real GPU is there. A GPU that fails later hands the model to the fast CPU path,
//! which finishes the work ([`Placement::after_failure`]): the one fallback of every edge.
//!
//! Pure: what measures and what runs lives in `skillpg_runtime`, for every edge.

use serde::{Deserialize, Serialize};

/// Where the person asked a model to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendChoice {
    /// Measured: the faster of the GPU and the CPU path.
    #[default]
    Auto,
    /// The GPU on any adapter, software included (how the tests run the kernels).
    Webgpu,
    /// The CPU path.
    Cpu,
}

impl BackendChoice {
    /// Every choice, in the order a menu lists them.
    pub const ALL: [BackendChoice; 3] = [
        BackendChoice::Auto,
        BackendChoice::Webgpu,
        BackendChoice::Cpu,
    ];

    /// `auto`, `webgpu` or `cpu`: the name in a menu's value and in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::Webgpu => "webgpu",
            BackendChoice::Cpu => "cpu",
        }
    }

    /// The choice named `s` (an empty name is `auto`).
    pub fn parse(s: &str) -> Result<BackendChoice, String> {
        match s {
            "" => Ok(BackendChoice::Auto),
            _ => BackendChoice::ALL
                .into_iter()
                .find(|c| c.as_str() == s)
                .ok_or_else(|| format!("unknown backend {s} (auto, webgpu or cpu)")),
        }
    }
}

/// What kind of device an adapter is (wgpu's `DeviceType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdapterKind {
    DiscreteGpu,
    IntegratedGpu,
    VirtualGpu,
    /// The CPU pretending to be a GPU: SwiftShader, lavapipe.
    Cpu,
    Other,
}

impl AdapterKind {
    /// Whether the adapter is real hardware.
    pub fn is_hardware(self) -> bool {
        matches!(
            self,
            AdapterKind::DiscreteGpu | AdapterKind::IntegratedGpu | AdapterKind::VirtualGpu
        )
    }

    /// The kind in words.
    pub fn as_str(self) -> &'static str {
        match self {
            AdapterKind::DiscreteGpu => "discrete GPU",
            AdapterKind::IntegratedGpu => "integrated GPU",
            AdapterKind::VirtualGpu => "virtual GPU",
            AdapterKind::Cpu => "software, on the CPU",
            AdapterKind::Other => "unknown kind",
        }
    }
}

/// An adapter, as placement needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adapter {
    /// Its name ("NVIDIA H200", "llvmpipe …"; empty for SwiftShader in Chromium).
    pub name: String,
    /// Its backend (Vulkan, BrowserWebGpu, …).
    pub backend: String,
    pub kind: AdapterKind,
}

impl Adapter {
    /// What identifies the adapter in a kept measurement.
    pub fn key(&self) -> String {
        format!("{} / {} / {}", self.backend, self.kind.as_str(), self.name)
    }

    /// The adapter in words, for a backend line.
    pub fn describe(&self) -> String {
        let name = if self.name.is_empty() {
            String::new()
        } else {
            format!("{}, ", self.name)
        };
        format!("{name}{}, {}", self.backend, self.kind.as_str())
    }
}

/// One path's measurement: each path ran the same request-sized piece of work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measured {
    /// The adapter ([`Adapter::key`]).
    pub adapter: String,
    /// The model, in words.
    pub model: String,
    /// Milliseconds on the GPU.
    pub gpu_ms: f64,
    /// Milliseconds on the CPU path.
    pub cpu_ms: f64,
    /// The GPU's first run was so much slower than the CPU's that it was not run again: `gpu_ms`
    /// is that first run (pipelines compiled, caches cold), a bound from below.
    pub gpu_stopped: bool,
}

impl Measured {
    /// What a measurement of `model` on `adapter` found: the one constructor of both placers'
    /// measurements (`skillpg_runtime::embedder` and `decoder`).
    pub fn on(
        adapter: &Adapter,
        model: &str,
        gpu_ms: f64,
        cpu_ms: f64,
        gpu_stopped: bool,
    ) -> Measured {
        Measured {
            adapter: adapter.key(),
            model: model.to_owned(),
            gpu_ms,
            cpu_ms,
            gpu_stopped,
        }
    }

    /// Whether the GPU was the faster.
    pub fn gpu_wins(&self) -> bool {
        !self.gpu_stopped && self.gpu_ms < self.cpu_ms
    }
}

/// The most measurements the page keeps (adapters × models a person uses).
pub const MAX_KEPT: usize = 16;

/// The kept measurement for this adapter and model, if any.
pub fn kept<'a>(kept: &'a [Measured], adapter: &Adapter, model: &str) -> Option<&'a Measured> {
    let key = adapter.key();
    kept.iter().find(|m| m.adapter == key && m.model == model)
}

/// `kept` with `m` in place of any earlier one for the same adapter and model, newest first,
/// at most [`MAX_KEPT`].
pub fn keep(kept: &[Measured], m: Measured) -> Vec<Measured> {
    let mut out: Vec<Measured> = kept
        .iter()
        .filter(|k| !(k.adapter == m.adapter && k.model == m.model))
        .cloned()
        .collect();
    out.insert(0, m);
    out.truncate(MAX_KEPT);
    out
}

/// How the GPU's first run compares with the CPU's run before the GPU is measured further: a
/// first run this many times the CPU's is not run again (on a software adapter a model's first
/// run can take a minute).
pub const STOP_AFTER: f64 = 10.0;

/// Where the model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    Gpu,
    Cpu,
}

/// Why it runs there.
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// The person chose it (`by` says where: "in the page", "with --backend").
    Chosen { by: String },
    /// There is no adapter (the reason).
    NoAdapter(String),
    /// Measured now, or kept from an earlier load.
    Measured { measured: Measured, now: bool },
    /// The GPU could not take the model (the device's words).
    GpuRefused(String),
    /// The GPU failed while running (the device's words): the CPU path took over.
    GpuFailed(String),
    /// Left automatic with no kept measurement: the CPU path runs at once, so that the first
    /// result never waits for the GPU to be found and measured; both paths are measured after
    /// it, and the faster one runs from then on (and on later loads, kept).
    MeasureLater,
}

/// The first step of a placement: run on a path now, or measure both first.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// Place it here, for this reason.
    Place(Path, Why),
    /// Measure both paths (the GPU's first run stopped at [`STOP_AFTER`] times the CPU's).
    Measure,
}

/// Where a model should run: `adapter` is the adapter there is (or why there is none), `kept` a
/// measurement of this adapter and model kept from an earlier load.
pub fn plan(
    choice: BackendChoice,
    adapter: Result<&Adapter, &str>,
    kept: Option<&Measured>,
    chosen_by: &str,
) -> Plan {
    let chosen = || Why::Chosen {
        by: chosen_by.to_owned(),
    };
    match (choice, adapter) {
        (BackendChoice::Cpu, _) => Plan::Place(Path::Cpu, chosen()),
        (_, Err(e)) => Plan::Place(Path::Cpu, Why::NoAdapter(e.to_owned())),
        (BackendChoice::Webgpu, Ok(_)) => Plan::Place(Path::Gpu, chosen()),
        (BackendChoice::Auto, Ok(_)) => match kept {
            Some(m) => Plan::Place(
                if m.gpu_wins() { Path::Gpu } else { Path::Cpu },
                Why::Measured {
                    measured: m.clone(),
                    now: false,
                },
            ),
            None => Plan::Measure,
        },
    }
}

/// Where a backend line's details (a device's raw error) start: what comes before is for a
/// person, what comes after for a bug report.
pub const DETAILS: &str = " — details: ";

/// A backend line split into its words for a person and its details, if any.
pub fn split_details(line: &str) -> (&str, Option<&str>) {
    match line.split_once(DETAILS) {
        Some((words, details)) => (words, Some(details)),
        None => (line, None),
    }
}

/// Where a model runs and why, with what the line names each path.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub path: Path,
    pub why: Why,
    /// The adapter, when there is one.
    pub adapter: Option<Adapter>,
}

impl Placement {
    /// The placement a fresh measurement gives.
    pub fn measured(measured: Measured, adapter: Adapter) -> Placement {
        let path = if measured.gpu_wins() {
            Path::Gpu
        } else {
            Path::Cpu
        };
        Placement {
            path,
            why: Why::Measured {
                measured,
                now: true,
            },
            adapter: Some(adapter),
        }
    }

    /// The placement after the GPU failed (`error`, the device's words) while running: the fast
    /// CPU path, which finishes the work. The one fallback of every edge.
    pub fn after_failure(&self, error: &str) -> Placement {
        Placement {
            path: Path::Cpu,
            why: Why::GpuFailed(error.to_owned()),
            adapter: self.adapter.clone(),
        }
    }

    /// The backend line: what runs (`gpu` or `cpu`, the edge's words for each path) and why.
    pub fn line(&self, gpu: &str, cpu: &str) -> String {
        let on_gpu = |a: &Option<Adapter>| {
            a.as_ref().map_or_else(
                || "the GPU".to_owned(),
                |a| format!("the GPU ({})", a.describe()),
            )
        };
        match (&self.why, self.path) {
            (Why::Chosen { by }, Path::Gpu) => format!("{gpu}: chosen {by}"),
            (Why::Chosen { by }, Path::Cpu) => format!("{cpu}: chosen {by}"),
            // Plain words first; the adapter's own error after `DETAILS`, which the page shows
            // behind a toggle and a terminal prints as it is.
            (Why::NoAdapter(e), _) => format!("{cpu} (this browser offers no WebGPU){DETAILS}{e}"),
            (Why::GpuRefused(e), _) => format!("{cpu}: the GPU could not take the model ({e})"),
            (Why::GpuFailed(e), _) => format!(
                "{cpu}: the GPU failed ({e}), so this and later requests run on the CPU path"
            ),
            (Why::MeasureLater, _) => format!(
                "{cpu}: runs at once; WebGPU, if this browser offers it, is measured after the first result and the faster path runs from then on"
            ),
            (Why::Measured { measured: m, now }, path) => {
                let when = if *now {
                    "measured on this load"
                } else {
                    "measured on an earlier load, kept for this adapter and model"
                };
                let gpu_ms = if m.gpu_stopped {
                    format!("over {:.1} ms", m.gpu_ms)
                } else {
                    format!("{:.1} ms", m.gpu_ms)
                };
                match path {
                    Path::Gpu => format!(
                        "{gpu}: {gpu_ms} a request, the CPU path {:.1} ms ({when})",
                        m.cpu_ms
                    ),
                    Path::Cpu => {
                        let real = self.adapter.as_ref().is_some_and(|a| a.kind.is_hardware());
                        let note = if real {
                            "; the CPU path runs though a GPU is here: it is faster for this model on this machine"
                        } else {
                            ""
                        };
                        format!(
                            "{cpu}: {:.1} ms a request, {} {gpu_ms} ({when}){note}",
                            m.cpu_ms,
                            on_gpu(&self.adapter)
                        )
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter(kind: AdapterKind) -> Adapter {
        Adapter {
            name: "NVIDIA H200".into(),
            backend: "Vulkan".into(),
            kind,
        }
    }

    fn measured(gpu_ms: f64, cpu_ms: f64, gpu_stopped: bool) -> Measured {
        Measured {
            adapter: adapter(AdapterKind::DiscreteGpu).key(),
            model: "m".into(),
            gpu_ms,
            cpu_ms,
            gpu_stopped,
        }
    }

    #[test]
    fn the_choice_the_adapter_and_a_kept_measurement_decide() {
        let real = adapter(AdapterKind::DiscreteGpu);
        let soft = adapter(AdapterKind::Cpu);
        let by = "in the page";
        assert_eq!(
            plan(BackendChoice::Cpu, Ok(&real), None, by),
            Plan::Place(Path::Cpu, Why::Chosen { by: by.into() })
        );
        assert_eq!(
            plan(BackendChoice::Webgpu, Ok(&soft), None, by),
            Plan::Place(Path::Gpu, Why::Chosen { by: by.into() })
        );
        assert_eq!(
            plan(BackendChoice::Auto, Err("none"), None, by),
            Plan::Place(Path::Cpu, Why::NoAdapter("none".into()))
        );
        // Not by the adapter's type: a software adapter is measured too, a real GPU too.
        assert_eq!(
            plan(BackendChoice::Auto, Ok(&soft), None, by),
            Plan::Measure
        );
        assert_eq!(
            plan(BackendChoice::Auto, Ok(&real), None, by),
            Plan::Measure
        );
        let slow_gpu = measured(12.0, 8.0, false);
        assert!(matches!(
            plan(BackendChoice::Auto, Ok(&real), Some(&slow_gpu), by),
            Plan::Place(Path::Cpu, Why::Measured { now: false, .. })
        ));
        assert!(matches!(
            plan(
                BackendChoice::Auto,
                Ok(&real),
                Some(&measured(0.9, 8.1, false)),
                by
            ),
            Plan::Place(Path::Gpu, _)
        ));
        assert!(
            !measured(0.5, 8.0, true).gpu_wins(),
            "a stopped measurement never picks the GPU"
        );
    }

    #[test]
    fn the_line_says_what_was_measured_and_when_the_cpu_beats_a_real_gpu() {
        let line =
            Placement::measured(measured(0.9, 8.1, false), adapter(AdapterKind::DiscreteGpu))
                .line("WebGPU via wgpu", "CPU path (wasm SIMD)");
        assert_eq!(
            line,
            "WebGPU via wgpu: 0.9 ms a request, the CPU path 8.1 ms (measured on this load)"
        );
        let line = Placement::measured(
            measured(12.0, 8.1, false),
            adapter(AdapterKind::IntegratedGpu),
        )
        .line("WebGPU", "CPU path");
        assert!(
            line.starts_with(
                "CPU path: 8.1 ms a request, the GPU (NVIDIA H200, Vulkan, integrated GPU) 12.0 ms"
            ) && line.contains("though a GPU is here"),
            "{line}"
        );
        let line = Placement::measured(measured(950.0, 8.1, true), adapter(AdapterKind::Cpu))
            .line("WebGPU", "CPU path");
        assert!(
            line.contains("over 950.0 ms") && !line.contains("though a GPU"),
            "{line}"
        );
        let failed =
            Placement::measured(measured(0.9, 8.1, false), adapter(AdapterKind::DiscreteGpu))
                .after_failure("device lost");
        assert_eq!(failed.path, Path::Cpu);
        assert!(
            failed
                .line("WebGPU", "CPU path")
                .contains("the GPU failed (device lost)")
        );
        // Run at once, measured after the first result: the line says so, in plain words.
        let later = Placement {
            path: Path::Cpu,
            why: Why::MeasureLater,
            adapter: None,
        }
        .line("WebGPU", "CPU path");
        assert!(
            later.starts_with("CPU path: runs at once;")
                && later.contains("measured after the first result"),
            "{later}"
        );
    }

    #[test]
    fn measurements_are_kept_per_adapter_and_model_newest_first() {
        let a = adapter(AdapterKind::DiscreteGpu);
        let first = measured(1.0, 2.0, false);
        let kept_list = keep(&[], first.clone());
        assert_eq!(kept(&kept_list, &a, "m"), Some(&first));
        assert_eq!(kept(&kept_list, &a, "other"), None);
        let again = keep(&kept_list, measured(3.0, 2.0, false));
        assert_eq!(again.len(), 1, "the same adapter and model: replaced");
        let many = (0..40).fold(Vec::new(), |k, i| {
            keep(
                &k,
                Measured {
                    model: format!("m{i}"),
                    ..first.clone()
                },
            )
        });
        assert_eq!(many.len(), MAX_KEPT);
        assert_eq!(many[0].model, "m39");
    }

    #[test]
    fn names_round_trip() {
        for c in BackendChoice::ALL {
            assert_eq!(BackendChoice::parse(c.as_str()), Ok(c));
            assert_eq!(
                serde_json::to_string(&c).expect("json"),
                format!("\"{}\"", c.as_str())
            );
        }
        assert_eq!(BackendChoice::parse(""), Ok(BackendChoice::Auto));
        assert!(
            BackendChoice::parse("gpu")
                .expect_err("unknown")
                .contains("auto, webgpu or cpu")
        );
    }
}

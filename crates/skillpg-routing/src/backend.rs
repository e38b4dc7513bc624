//! Where a model runs, and the one rule that picks it: a WebGPU or Vulkan adapter whose device
//! type is CPU (SwiftShader, lavapipe) runs the WGSL kernels slower than the CPU path, so left
//! to itself a router runs on the CPU there, and on the GPU only where the adapter is real
//! hardware. The person may force either.

use serde::{Deserialize, Serialize};

/// Where the person asked a model to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendChoice {
    /// The GPU when the adapter is real hardware, the CPU path otherwise.
    #[default]
    Auto,
    /// The GPU on any adapter, software included (how the tests run the kernels).
    Webgpu,
    /// The CPU path.
    Cpu,
}

impl BackendChoice {
    /// Every choice, in the order a menu lists them.
    pub const ALL: [BackendChoice; 3] = [BackendChoice::Auto, BackendChoice::Webgpu, BackendChoice::Cpu];

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
            _ => BackendChoice::ALL.into_iter().find(|c| c.as_str() == s).ok_or_else(|| format!("unknown backend {s} (auto, webgpu or cpu)")),
        }
    }

    /// Whether the model runs on the adapter of device type `adapter` (wgpu's `DeviceType` in
    /// words: `Cpu`, `DiscreteGpu`, …), or on the CPU path; `None` when there is no adapter.
    pub fn runs_on_gpu(self, adapter: Option<&str>) -> bool {
        match (self, adapter) {
            (BackendChoice::Cpu, _) | (_, None) => false,
            (BackendChoice::Webgpu, Some(_)) => true,
            (BackendChoice::Auto, Some(device_type)) => !is_software(device_type),
        }
    }
}

/// Whether an adapter's device type says it is the CPU pretending to be a GPU.
pub fn is_software(device_type: &str) -> bool {
    device_type.eq_ignore_ascii_case("cpu")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule() {
        use BackendChoice::*;
        assert!(Auto.runs_on_gpu(Some("DiscreteGpu")) && Auto.runs_on_gpu(Some("IntegratedGpu")));
        assert!(!Auto.runs_on_gpu(Some("Cpu")) && !Auto.runs_on_gpu(Some("cpu")) && !Auto.runs_on_gpu(None));
        assert!(Webgpu.runs_on_gpu(Some("Cpu")) && !Webgpu.runs_on_gpu(None));
        assert!(!Cpu.runs_on_gpu(Some("DiscreteGpu")));
    }

    #[test]
    fn names_round_trip() {
        for c in BackendChoice::ALL {
            assert_eq!(BackendChoice::parse(c.as_str()), Ok(c));
            assert_eq!(serde_json::to_string(&c).expect("json"), format!("\"{}\"", c.as_str()));
        }
        assert_eq!(BackendChoice::parse(""), Ok(BackendChoice::Auto));
        assert!(BackendChoice::parse("gpu").expect_err("unknown").contains("auto, webgpu or cpu"));
    }
}

//! Each kernel of a pass timed, for the benchmarks' per-kernel tables: with timestamp queries
//! where the adapter writes them (each dispatch in a compute pass of its own, its start and end
//! stamped on the device), else each dispatch submitted alone and waited for on the CPU, which
//! adds a submit's fixed cost to every kernel, and the table says so. Natively only.

use crate::GpuError;
use std::collections::BTreeMap;
use std::fmt::Write;

/// How the kernels were timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Timestamp queries, each dispatch in a pass of its own.
    Timestamps,
    /// Each dispatch submitted alone and waited for (a submit's fixed cost included).
    CpuWait,
}

impl Timing {
    /// The table's note on what its times are.
    pub fn note(self) -> &'static str {
        match self {
            Timing::Timestamps => {
                "timed on the device by timestamp queries, each dispatch in a compute pass of its own"
            }
            Timing::CpuWait => {
                "timed on the CPU (this adapter writes no timestamps): each dispatch submitted alone and waited for, so every time includes a submit's fixed cost"
            }
        }
    }
}

/// One dispatch, timed: its kind, milliseconds, and the bytes it moved and operations it did
/// (estimated from the shapes: weights read once, activations read and written once).
#[derive(Debug, Clone, PartialEq)]
pub struct KernelTime {
    pub kind: &'static str,
    pub ms: f64,
    pub bytes: f64,
    pub flops: f64,
}

/// What an adapter can do at best, when known (wgpu does not say): for the table's share of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Peak {
    pub gb_s: f64,
    pub gflop_s: f64,
}

/// The published peaks of a few adapters, by a part of their name: memory bandwidth and f32
/// arithmetic without tensor cores.
pub fn known_peak(adapter_name: &str) -> Option<Peak> {
    const KNOWN: [(&str, f64, f64); 4] = [
        ("H200", 4_800.0, 67_000.0),
        ("H100", 3_350.0, 67_000.0),
        ("A100", 2_039.0, 19_500.0),
        ("RTX 4090", 1_008.0, 82_600.0),
    ];
    KNOWN
        .iter()
        .find(|(name, _, _)| adapter_name.contains(name))
        .map(|&(_, gb_s, gflop_s)| Peak { gb_s, gflop_s })
}

/// The per-kernel table: for each kind, its count, total milliseconds, achieved GB/s and
/// GFLOP/s, and their share of `peak` where it is known; then the sum and how it was timed.
pub fn table(title: &str, times: &[KernelTime], timing: Timing, peak: Option<Peak>) -> String {
    let mut kinds: BTreeMap<&str, (usize, f64, f64, f64)> = BTreeMap::new();
    for t in times {
        let e = kinds.entry(t.kind).or_default();
        *e = (e.0 + 1, e.1 + t.ms, e.2 + t.bytes, e.3 + t.flops);
    }
    let mut rows: Vec<_> = kinds.into_iter().collect();
    rows.sort_by(|a, b| b.1.1.total_cmp(&a.1.1));
    let total: f64 = times.iter().map(|t| t.ms).sum();
    let mut out = String::new();
    let _ = writeln!(out, "{title}");
    let share =
        |v: f64, of: Option<f64>| of.map_or(String::new(), |p| format!(" ({:.0}%)", 100.0 * v / p));
    let _ = writeln!(
        out,
        "| kernel | count | total ms | share | GB/s | GFLOP/s |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for (kind, (count, ms, bytes, flops)) in rows {
        let secs = ms / 1e3;
        let (gb_s, gflop_s) = if secs > 0.0 {
            (bytes / secs / 1e9, flops / secs / 1e9)
        } else {
            (0.0, 0.0)
        };
        let _ = writeln!(
            out,
            "| {kind} | {count} | {ms:.3} | {:.0}% | {gb_s:.1}{} | {gflop_s:.1}{} |",
            100.0 * ms / total.max(1e-12),
            share(gb_s, peak.map(|p| p.gb_s)),
            share(gflop_s, peak.map(|p| p.gflop_s)),
        );
    }
    let _ = writeln!(out, "| all | {} | {total:.3} | 100% | | |", times.len());
    let peak_note = peak.map_or_else(
        || "no published peak known for this adapter".to_owned(),
        |p| format!("shares of {:.0} GB/s and {:.0} GFLOP/s", p.gb_s, p.gflop_s),
    );
    let _ = writeln!(out, "({}; {peak_note})", timing.note());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_groups_by_kind_and_says_how_it_timed() {
        let t = |kind, ms| KernelTime {
            kind,
            ms,
            bytes: 2e6,
            flops: 4e6,
        };
        let out = table(
            "decode",
            &[
                t("attention", 1.0),
                t("product (matvec)", 0.5),
                t("product (matvec)", 0.5),
            ],
            Timing::CpuWait,
            known_peak("NVIDIA H200"),
        );
        assert!(
            out.contains("| product (matvec) | 2 | 1.000 | 50% | 4.0 (0%) | 8.0 (0%) |"),
            "{out}"
        );
        assert!(out.contains("| all | 3 | 2.000 |"), "{out}");
        assert!(
            out.contains("timed on the CPU") && out.contains("4800 GB/s"),
            "{out}"
        );
        assert!(table("x", &[t("a", 1.0)], Timing::Timestamps, None).contains("no published peak"));
    }
}

/// A dispatch to time: what it runs and what it costs.
#[derive(Debug)]
pub(crate) struct Timed<'a> {
    pub pipeline: &'a wgpu::ComputePipeline,
    pub bind: &'a wgpu::BindGroup,
    pub groups: (u32, u32),
    pub kind: &'static str,
    pub bytes: f64,
    pub flops: f64,
}

/// Runs `dispatches` in order, each timed (their inputs already written); see the module doc.
pub(crate) fn time_dispatches(
    gpu: &crate::Gpu,
    dispatches: &[Timed<'_>],
) -> Result<(Vec<KernelTime>, Timing), GpuError> {
    let timed = |d: &Timed<'_>, ms| KernelTime {
        kind: d.kind,
        ms,
        bytes: d.bytes,
        flops: d.flops,
    };
    if gpu.has_timestamps() && !dispatches.is_empty() {
        let count = 2 * dispatches.len() as u32;
        let set = gpu.timestamp_set(count);
        let bytes = u64::from(count) * 8;
        let resolved = gpu.buffer(
            "timestamps",
            bytes,
            wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        );
        let staging = gpu.buffer(
            "timestamps-read",
            bytes,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut enc = gpu.encoder();
        for (i, d) in dispatches.iter().enumerate() {
            let writes = wgpu::ComputePassTimestampWrites {
                query_set: &set,
                beginning_of_pass_write_index: Some(2 * i as u32),
                end_of_pass_write_index: Some(2 * i as u32 + 1),
            };
            let mut pass = gpu.pass(&mut enc, d.kind, Some(writes));
            gpu.dispatch_in(&mut pass, d.pipeline, d.bind, d.groups);
        }
        enc.resolve_query_set(&set, 0..count, &resolved, 0);
        enc.copy_buffer_to_buffer(&resolved, 0, &staging, 0, bytes);
        gpu.submit(enc);
        let raw = pollster::block_on(gpu.read_staging_bytes(&staging, bytes))?;
        let ticks: Vec<u64> = raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect();
        let period = f64::from(gpu.timestamp_period());
        let times = dispatches
            .iter()
            .zip(ticks.chunks_exact(2))
            .map(|(d, t)| timed(d, t[1].saturating_sub(t[0]) as f64 * period / 1e6))
            .collect();
        return Ok((times, Timing::Timestamps));
    }
    let mut times = Vec::with_capacity(dispatches.len());
    for d in dispatches {
        let start = std::time::Instant::now();
        let mut enc = gpu.encoder();
        {
            let mut pass = gpu.pass(&mut enc, d.kind, None);
            gpu.dispatch_in(&mut pass, d.pipeline, d.bind, d.groups);
        }
        gpu.submit(enc);
        gpu.wait()?;
        times.push(timed(d, start.elapsed().as_secs_f64() * 1e3));
    }
    Ok((times, Timing::CpuWait))
}

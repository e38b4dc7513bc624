//! Criterion benchmark of one prompt's products, every integer kernel this CPU runs (numbers in
//! BENCHMARKS.md): SmolLM2's feed-forward shapes (1,536 × 576 and 576 × 1,536) in Q4_1 times the
//! chapter's 354-token system turn, so that a kernel change is measured apart from the forward
//! pass around it (`cargo bench -p skillpg-decoder --bench products`). The weights and inputs are
//! made here; no file is needed.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skillpg_decoder::qdot::{Kernel, QuantizedActs, UnpackedRow};
use skillpg_decoder::quant::GgmlType;

/// `rows` rows of `cols` Q4_1 values: random nibbles, scales and minima of a trained model's size.
fn q4_1_rows(rows: usize, cols: usize) -> Vec<u8> {
    let mut s = 1u64;
    let mut bytes: Vec<u8> = (0..rows * cols / 32 * 20)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as u8
        })
        .collect();
    for block in bytes.chunks_exact_mut(20) {
        block[..2].copy_from_slice(&half::f16::from_f32(0.002).to_le_bytes());
        block[2..4].copy_from_slice(&half::f16::from_f32(-0.015).to_le_bytes());
    }
    bytes
}

fn products(c: &mut Criterion) {
    let inputs = 354;
    for (rows, cols) in [(1536, 576), (576, 1536)] {
        let bytes = q4_1_rows(rows, cols);
        let xs: Vec<f32> = (0..inputs * cols)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) / 25.0)
            .collect();
        let mut acts = QuantizedActs::default();
        acts.quantize(&xs);
        let mut out = vec![0.0f32; inputs * rows];
        let mut group = c.benchmark_group(format!(
            "prompt products, {rows} x {cols} Q4_1, {inputs} inputs"
        ));
        group.throughput(Throughput::Elements((rows * cols * inputs) as u64));
        for kernel in Kernel::available()
            .into_iter()
            .filter(|k| *k != Kernel::Scalar)
        {
            group.bench_function(kernel.name(), |b| {
                b.iter(|| {
                    kernel.rows(
                        GgmlType::Q4_1,
                        black_box(&bytes),
                        cols / 32 * 20,
                        &acts,
                        &mut out,
                        rows,
                        &mut UnpackedRow::default(),
                    )
                });
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = products
}
criterion_main!(benches);

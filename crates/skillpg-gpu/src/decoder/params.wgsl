// The decoder kernels' two uniform blocks: `Params`, fixed for each planned dispatch (a matrix's
// shape, a kernel's flags), written once at load; and `Step`, what one forward pass changes (its
// tokens, their first position, the rows whose logits it wants), written once a pass.
// `decoder::Params` and `decoder::Step` on the Rust side.
struct Params {
    rows: u32,       // product: outputs of this chunk of the matrix; attention: query heads
    cols: u32,       // product: inputs; norm: width; element-wise: values a token
    row_words: u32,  // product: u32 words of a stored weight row
    out_stride: u32, // product: outputs a token in the output buffer (the whole matrix's)
    out_offset: u32, // product: this chunk's first output
    in_stride: u32,  // product and norm: values a token in the input buffer
    flags: u32,      // FLAG_* below
    heads: u32,      // rope, attention: query heads
    kv_heads: u32,
    head_dim: u32,
    capacity: u32,   // positions the key/value cache holds (where the values start)
    eps: f32,
    ff: u32,         // product with the SiLU input, silu_mul: the feed-forward width
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

struct Step {
    n: u32,     // tokens of this pass
    start: u32, // positions already in the key/value cache
    first: u32, // the first row whose logits are wanted
    rows: u32,  // how many rows' logits are wanted
}

const FLAG_BIAS: u32 = 1u;       // add the bias (binding 4)
const FLAG_ACCUMULATE: u32 = 2u; // add into the output (the residual stream) instead of writing it
const FLAG_NORM: u32 = 4u;       // RMSNorm the input rows first, gains in binding 5
const FLAG_SILU: u32 = 8u;       // the input is [gate | up], 2·ff a token: read silu(gate)·up
const FLAG_LOGITS: u32 = 16u;    // the input rows are the logits' (Step.first, Step.rows), not all n
const FLAG_HALVES: u32 = 32u;    // rope: rotate_half pairs (i, i + d/2), else adjacent (2i, 2i + 1)

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<uniform> s: Step;

// The workgroup's index in a dispatch that spills past 65,535 groups into y.
fn group_index(wid: vec3<u32>) -> u32 {
    return wid.y * 65535u + wid.x;
}

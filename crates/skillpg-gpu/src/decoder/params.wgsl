// The decoder kernels' uniform block (`decoder::Params` on the Rust side).
struct Params {
    n: u32,          // tokens (rows of the activations)
    cols: u32,       // inputs of a product; width of a norm; elements of an element-wise kernel
    rows: u32,       // outputs of this product (this chunk of the matrix)
    out_stride: u32, // outputs a token in the product's output buffer (the whole matrix's)
    out_offset: u32, // this chunk's first output
    row_words: u32,  // u32 words of a stored weight row
    flag: u32,       // product: 1 = add the bias; rope: 1 = halves (rotate_half), 0 = adjacent pairs
    heads: u32,      // heads in the buffer (rope) or query heads (attention)
    kv_heads: u32,
    head_dim: u32,
    start: u32,      // positions already in the key/value cache
    eps: f32,
    in_row: u32,     // rms_norm: first input row
    pad0: u32,
    pad1: u32,
    pad2: u32,
}

@group(0) @binding(0) var<uniform> p: Params;

// Invocation index of a 64-wide dispatch that spills past 65,535 workgroups into y.
fn flat(gid: vec3<u32>) -> u32 {
    return gid.y * 65535u * 64u + gid.x;
}

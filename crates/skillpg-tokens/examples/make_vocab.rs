//! Writes `data/o200k_base.bin`, the compact vocabulary `skillpg-tokens` embeds, from
//! tiktoken-rs's own o200k_base: for each rank in order, one length byte then the token's
//! bytes. Raw bytes compress far better than tiktoken's base64 text (the page ships about
//! 0.8 MB less gzip), and need no base64 decoding at start-up.
//!
//! Run: `cargo run -p skillpg-tokens --example make_vocab`. `tests/vocab_identity.rs` proves
//! that the result encodes exactly as tiktoken-rs does.

#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    reason = "a one-off generator"
)]

fn main() {
    let bpe = tiktoken_rs::o200k_base().unwrap();
    let mut out = Vec::new();
    let mut n = 0u32;
    // The ordinary ranks are dense from 0; the special tokens (199999, 200018) come after.
    while let Ok(bytes) = bpe.decode_bytes(&[n]) {
        if n >= skillpg_tokens::N_ORDINARY {
            break;
        }
        assert!(
            bytes.len() <= u8::MAX as usize,
            "token {n} is {} bytes",
            bytes.len()
        );
        out.push(bytes.len() as u8);
        out.extend_from_slice(&bytes);
        n += 1;
    }
    assert_eq!(n, skillpg_tokens::N_ORDINARY);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/o200k_base.bin");
    std::fs::write(path, &out).unwrap();
    println!("wrote {n} tokens, {} bytes to {path}", out.len());
}

//! Fuzzes the GGUF reader, its tokenizer and the model's tensors on arbitrary bytes: a file the
//! person brought must load or be refused with a message, never panic.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(g) = skillpg_decoder::gguf::Gguf::parse(data) {
        let _ = skillpg_decoder::bpe::Bpe::from_gguf(&g);
    }
    let _ = skillpg_decoder::load::Loaded::from_gguf(data.to_vec());
});

//! Fuzzes a Hugging Face checkpoint's reader: `model.safetensors` and `config.json` from
//! arbitrary bytes (split at the first NUL: config, then weights), with a small real
//! tokenizer. It must load or refuse with a message, never panic.

#![no_main]

use libfuzzer_sys::fuzz_target;

const TOKENIZER: &str = include_str!("../seeds/tokenizer/tiny.json");

fuzz_target!(|data: &[u8]| {
    let (config, weights) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(config) = std::str::from_utf8(config) else { return };
    let _ = skillpg_decoder::model::Decoder::from_safetensors(weights.to_vec(), config);
    let _ = skillpg_decoder::load::Loaded::from_checkpoint(weights.to_vec(), config, TOKENIZER);
});

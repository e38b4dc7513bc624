//! Fuzzes the reader of a checkpoint's `tokenizer.json` and the tokenizer it builds: encoding
//! and decoding a text must not panic, and what it encodes must decode back.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(bpe) = skillpg_decoder::bpe::Bpe::from_tokenizer_json(text) {
        let ids = bpe.encode("Route this: <|im_start|>user\nhello<|im_end|>");
        let _ = bpe.decode(&ids);
    }
});

//! Fuzzes the share-link decoder (base64, deflate, JSON, bounds) on an arbitrary fragment: a
//! link is a stranger's text, and it must give a state or a message, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = skillpg_app::state::decode(text);
    let _ = skillpg_app::state::decode_fragment(&format!("#s={text}"));
});

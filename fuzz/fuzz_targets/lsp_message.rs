//! Fuzzes the language server's message reader (`skillpg_lsp::transport::read_frame`): what an
//! editor or anything else on the server's standard input sends is a stranger's bytes; every
//! frame must be a message or an error reply, never a panic, an abort or an allocation sized by
//! a header.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = std::io::BufReader::new(data);
    for _ in 0..1_000 {
        match skillpg_lsp::transport::read_frame(&mut input) {
            Ok(Some(frame)) => {
                let _ = frame.reply();
            }
            Ok(None) | Err(_) => break,
        }
    }
});

//! The encoder built from the compact vocabulary gives exactly tiktoken-rs's o200k_base ids:
//! on every text file of the shared corpus, and on inputs chosen to be awkward.

#![allow(
    clippy::print_stdout,
    reason = "the test prints the figures it measured, for the closing notes"
)]

mod common;

#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn same_ids_as_tiktoken_rs_on_the_corpus_and_edge_cases() {
    let mut texts = common::corpus_texts();
    texts.extend(
        [
            "",
            " ",
            "\n\n\n",
            "\t\t x",
            "héllo wörld",
            "日本語のテキスト",
            "emoji 👩‍👩‍👧‍👦 🇫🇷",
            "<|endoftext|> <|endofprompt|>",
            "don't you'll I'M",
            "1234567890 3.14159",
            "a\u{200B}b\u{202E}c",
            "\r\n\r\n",
            "ﬁ ligature and ǅ",
            "😀😀😀😀😀😀",
        ]
        .map(str::to_owned),
    );
    let reference = tiktoken_rs::o200k_base().expect("o200k");
    let mut n_tokens = 0usize;
    for text in &texts {
        let ours = skillpg_tokens::encode(text);
        assert_eq!(
            ours,
            reference.encode_ordinary(text),
            "ids differ on a text starting {:?}",
            text.chars().take(60).collect::<String>()
        );
        n_tokens += ours.len();
    }
    println!("identical ids on {} texts, {n_tokens} tokens", texts.len());
}

/// Text generated to mix every class the pre-tokenizer's pattern tells apart (cased and uncased
/// letters, marks, modifier letters, letter numbers, other numbers, punctuation, `/`, every kind
/// of Unicode whitespace and line break, contractions in any case, `ſ`), compared with
/// tiktoken-rs: the hand-written pre-tokenizer must cut exactly where the regex does.
#[test]
fn same_ids_as_tiktoken_rs_on_generated_mixtures() {
    const ALPHABET: &[&str] = &[
        "a",
        "Z",
        "é",
        "É",
        "ǅ",
        "ʰ",
        "日",
        "ا",
        "\u{301}",
        "\u{903}",
        "Ⅻ",
        "²",
        "٣",
        "7",
        "0",
        "'",
        "'s",
        "'S",
        "'re",
        "'LL",
        "'ſ",
        "'d",
        "'x",
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "\u{a0}",
        "\u{2003}",
        "\u{3000}",
        "\u{85}",
        "\u{2028}",
        "\u{b}",
        "\u{c}",
        "\u{1c}",
        "\u{200b}",
        "\u{feff}",
        "/",
        ".",
        ",",
        "!?",
        "-",
        "_",
        "#",
        "`",
        "😀",
        "👩‍👩‍👧",
        "<|endoftext|>",
        "\u{0}",
        "$",
        "€",
        "—",
    ];
    let reference = tiktoken_rs::o200k_base().expect("o200k");
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for case in 0..5_000 {
        let len = 1 + next() % 40;
        let text: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        assert_eq!(
            skillpg_tokens::encode(&text),
            reference.encode_ordinary(&text),
            "case {case}: {text:?}"
        );
        assert_eq!(
            skillpg_tokens::count(&text),
            skillpg_tokens::encode(&text).len()
        );
    }
}

/// Long runs of one character class (one piece each, or pieces of three digits) give
/// tiktoken-rs's ids: the pieces past the scan's length go through the heap's merge
/// (`bpe::merge_heap`), which must cut where tiktoken's quadratic scan does. The hostile round's
/// input (a share link inflating to a long run froze the page) is the 8 MiB case of
/// `benches/long_runs.rs`; here each class at lengths either side of the switch, and runs that
/// alternate two classes.
#[test]
fn long_runs_give_tiktoken_rs_ids() {
    let reference = tiktoken_rs::o200k_base().expect("o200k");
    let units = [
        "x", "X", "7", " ", "\n", "=", "日", "\u{301}", "😀", "ab", "aB", "-_", "é", "\t ",
    ];
    for unit in units {
        for len in [127, 128, 129, 500, 3_000] {
            let text = unit.repeat(len);
            assert_eq!(
                skillpg_tokens::encode(&text),
                reference.encode_ordinary(&text),
                "{unit:?} × {len}"
            );
            assert_eq!(
                skillpg_tokens::count(&text),
                skillpg_tokens::encode(&text).len()
            );
        }
    }
}

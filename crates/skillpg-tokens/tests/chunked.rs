//! `count_cached` counts a long text part by part; this holds it to `count` exactly: on every
//! text file of the shared corpus, on the whole corpus joined, on texts built to stress the cut
//! (newlines before `/`, spaces, punctuation, non-ASCII whitespace), and after edits, when most
//! parts come from the cache.

#![allow(
    clippy::print_stdout,
    reason = "the test prints the figures it measured, for the closing notes"
)]

mod common;

#[test]
#[ignore = "slow tier, needs the shared corpus beside the repository: scripts/test runs it"]
fn part_by_part_equals_whole_on_the_corpus() {
    skillpg_tokens::enable_count_cache();
    let texts = common::corpus_texts();
    let mut n_parts = 0;
    for text in &texts {
        assert_eq!(
            skillpg_tokens::count_cached(text),
            skillpg_tokens::count(text),
            "text starting {:?}",
            text.chars().take(60).collect::<String>()
        );
        n_parts += skillpg_tokens::chunks(text).len();
    }
    let joined = texts.join("\n");
    assert_eq!(
        skillpg_tokens::count_cached(&joined),
        skillpg_tokens::count(&joined)
    );
    println!(
        "{} texts, {n_parts} parts, and the joined corpus: counts equal",
        texts.len()
    );
}

#[test]
fn awkward_cuts_and_edits() {
    skillpg_tokens::enable_count_cache();
    let pieces = [
        "line one.\n",
        "/usr/bin\n",
        "  indented\n",
        ".\n/path\n",
        "\u{a0}nbsp\n",
        "\u{2003}em space\n",
        "x\r\n",
        "\n\n\n",
        "日本語\n",
        "12345\n",
        "don't\n",
        "!!!\n\n/x\n",
        "\t tab\n",
        "end",
        "word \n",
        "😀\n",
        "- item\n",
        "## Heading\n",
    ];
    // A deterministic mix of the pieces, long enough to be cut into many parts.
    let mut text = String::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.push_str(pieces[(x % pieces.len() as u64) as usize]);
    }
    assert!(skillpg_tokens::chunks(&text).len() > 50);
    assert_eq!(
        skillpg_tokens::chunks(&text).concat(),
        text,
        "the parts re-join to the text"
    );
    assert_eq!(
        skillpg_tokens::count_cached(&text),
        skillpg_tokens::count(&text)
    );
    // Edits at many places: each count is exact, with most parts from the cache.
    for at in [
        0usize,
        1,
        777,
        5_000,
        33_333,
        text.len() / 2,
        text.len() - 1,
    ] {
        let mut edited = text.clone();
        let at = (0..=at.min(edited.len()))
            .rev()
            .find(|&i| edited.is_char_boundary(i))
            .unwrap_or(0);
        edited.insert_str(at, "inserted /x\n\u{a0}");
        assert_eq!(
            skillpg_tokens::count_cached(&edited),
            skillpg_tokens::count(&edited),
            "after an edit at {at}"
        );
    }
}

#[test]
fn a_prefix_cut_at_a_piece_boundary_has_the_first_tokens() {
    let text = "alpha — beta.\n/gamma\n delta\népsilon 日本\n".repeat(2_000);
    for min in [
        0usize,
        1,
        7,
        8,
        9,
        10,
        100,
        5_000,
        8_192,
        50_000,
        text.len() + 1,
    ] {
        let prefix = skillpg_tokens::prefix_at_piece_boundary(&text, min);
        assert!(prefix.len() >= min.min(text.len()));
        let whole = skillpg_tokens::encode(&text);
        let head = skillpg_tokens::encode(prefix);
        assert_eq!(
            &whole[..head.len()],
            &head[..],
            "prefix of {} bytes (asked {min})",
            prefix.len()
        );
    }
}

#[test]
fn counting_up_to_a_limit_is_exact_below_it_and_a_true_excess_above() {
    let text = "Every column — a field; every row, a récord.\n/path and more\n".repeat(3_000);
    let exact = skillpg_tokens::count(&text);
    for limit in [0usize, 10, 1_000, exact - 1, exact, exact + 1, usize::MAX] {
        let got = skillpg_tokens::count_at_most(&text, limit);
        if exact <= limit {
            assert_eq!(got, exact, "limit {limit}");
        } else {
            assert!(
                got > limit && got <= exact,
                "limit {limit}: {got} of {exact}"
            );
        }
    }
}

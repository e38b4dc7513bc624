//! The rules' documentation (Markdown in each rule file's doc block) as structured text:
//! headings, paragraphs, lists and code, which the page builds as DOM nodes, never as HTML.
//! Pure, tested natively; only the small Markdown the rule docs use is kept (links become
//! their text, emphasis is dropped).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// A run of text inside a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    /// Plain text.
    Text(String),
    /// `code`.
    Code(String),
}

/// One block of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A heading's text.
    Heading(Vec<Inline>),
    /// A paragraph.
    Paragraph(Vec<Inline>),
    /// A list, each item a run of inlines.
    List(Vec<Vec<Inline>>),
    /// A fenced or indented code block.
    Code(String),
}

/// Reads `markdown` into blocks.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut res = Vec::new();
    let mut inlines: Vec<Inline> = Vec::new();
    let mut items: Option<Vec<Vec<Inline>>> = None;
    let mut code: Option<String> = None;
    let push_text = |inlines: &mut Vec<Inline>, text: &str| match inlines.last_mut() {
        Some(Inline::Text(t)) => t.push_str(text),
        _ => inlines.push(Inline::Text(text.to_owned())),
    };
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => code = Some(String::new()),
            Event::End(TagEnd::CodeBlock) => res.push(Block::Code(
                code.take().unwrap_or_default().trim_end().to_owned(),
            )),
            Event::Text(t) if code.is_some() => code.get_or_insert_with(String::new).push_str(&t),
            Event::Start(Tag::List(_)) => items = Some(Vec::new()),
            Event::End(TagEnd::List(_)) => res.push(Block::List(items.take().unwrap_or_default())),
            Event::End(TagEnd::Item) => {
                if let Some(list) = items.as_mut() {
                    list.push(std::mem::take(&mut inlines));
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                res.push(Block::Heading(std::mem::take(&mut inlines)))
            }
            Event::End(TagEnd::Paragraph) if items.is_none() => {
                res.push(Block::Paragraph(std::mem::take(&mut inlines)))
            }
            Event::End(TagEnd::Paragraph) => push_text(&mut inlines, " "),
            Event::Text(t) => push_text(&mut inlines, &t),
            Event::Code(c) => inlines.push(Inline::Code(c.to_string())),
            Event::SoftBreak | Event::HardBreak => push_text(&mut inlines, " "),
            _ => {}
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_docs_become_blocks_not_html() {
        let doc = "## What it checks\nA `name` field.\n## Example\n- one `a`\n- two <b>\n\n```yaml\nname: x\n```\n";
        assert_eq!(
            blocks(doc),
            vec![
                Block::Heading(vec![Inline::Text("What it checks".into())]),
                Block::Paragraph(vec![
                    Inline::Text("A ".into()),
                    Inline::Code("name".into()),
                    Inline::Text(" field.".into())
                ]),
                Block::Heading(vec![Inline::Text("Example".into())]),
                Block::List(vec![
                    vec![Inline::Text("one ".into()), Inline::Code("a".into())],
                    vec![Inline::Text("two ".into())]
                ]),
                Block::Code("name: x".into()),
            ]
        );
    }

    #[test]
    fn every_rule_doc_reads() {
        for r in skillpg_core::rules::all_rules() {
            let Some(doc) = skillpg_core::rules::rule_doc(r.name) else {
                continue;
            };
            let b = blocks(doc);
            assert!(
                b.iter().any(|b| matches!(b, Block::Heading(_))),
                "{}: no heading",
                r.name
            );
            let texts: Vec<&str> = b
                .iter()
                .flat_map(|b| match b {
                    Block::Heading(runs) | Block::Paragraph(runs) => {
                        runs.iter().collect::<Vec<_>>()
                    }
                    Block::List(items) => items.iter().flatten().collect(),
                    Block::Code(_) => Vec::new(),
                })
                .filter_map(|i| {
                    if let Inline::Text(t) = i {
                        Some(t.as_str())
                    } else {
                        None
                    }
                })
                .collect();
            assert!(
                !texts.iter().any(|t| t.contains("## ")),
                "{}: raw Markdown left in {texts:?}",
                r.name
            );
        }
    }
}

//! The rules' documentation (Markdown in each rule file's doc block) and the editor's hovers as
//! structured text: headings, paragraphs, lists, tables and code, which the page builds as DOM
//! nodes (text nodes, never HTML). Pure, tested natively; only the small Markdown the rule docs
//! and hovers use is kept (links become their text, emphasis is dropped).

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::Serialize;

/// A run of text inside a block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "text", rename_all = "lowercase")]
pub enum Inline {
    /// Plain text.
    Text(String),
    /// `code`.
    Code(String),
}

/// A table's cells: each a run of inlines.
type Row = Vec<Vec<Inline>>;

/// One block of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Block {
    /// A heading's text.
    Heading { runs: Vec<Inline> },
    /// A paragraph.
    Paragraph { runs: Vec<Inline> },
    /// A list, each item a run of inlines.
    List { items: Vec<Vec<Inline>> },
    /// A fenced or indented code block.
    Code { code: String },
    /// A table: its header's cells, then each row's.
    Table { head: Row, rows: Vec<Row> },
}

/// Reads `markdown` into blocks.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut res = Vec::new();
    let mut inlines: Vec<Inline> = Vec::new();
    let mut items: Option<Vec<Vec<Inline>>> = None;
    let mut code: Option<String> = None;
    // The table being read: its header, its rows, and the row being read.
    let mut table: Option<(Row, Vec<Row>)> = None;
    let mut row: Row = Vec::new();
    let push_text = |inlines: &mut Vec<Inline>, text: &str| match inlines.last_mut() {
        Some(Inline::Text(t)) => t.push_str(text),
        _ => inlines.push(Inline::Text(text.to_owned())),
    };
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => code = Some(String::new()),
            Event::End(TagEnd::CodeBlock) => res.push(Block::Code {
                code: code.take().unwrap_or_default().trim_end().to_owned(),
            }),
            Event::Start(Tag::Table(_)) => table = Some((Vec::new(), Vec::new())),
            Event::End(TagEnd::TableCell) => row.push(std::mem::take(&mut inlines)),
            Event::End(TagEnd::TableHead) => {
                if let Some((head, _)) = table.as_mut() {
                    *head = std::mem::take(&mut row);
                }
            }
            Event::End(TagEnd::TableRow) => {
                if let Some((_, rows)) = table.as_mut() {
                    rows.push(std::mem::take(&mut row));
                }
            }
            Event::End(TagEnd::Table) => {
                if let Some((head, rows)) = table.take() {
                    res.push(Block::Table { head, rows });
                }
            }
            Event::Text(t) if code.is_some() => code.get_or_insert_with(String::new).push_str(&t),
            Event::Start(Tag::List(_)) => items = Some(Vec::new()),
            Event::End(TagEnd::List(_)) => res.push(Block::List {
                items: items.take().unwrap_or_default(),
            }),
            Event::End(TagEnd::Item) => {
                if let Some(list) = items.as_mut() {
                    list.push(std::mem::take(&mut inlines));
                }
            }
            Event::End(TagEnd::Heading(_)) => res.push(Block::Heading {
                runs: std::mem::take(&mut inlines),
            }),
            Event::End(TagEnd::Paragraph) if items.is_none() => res.push(Block::Paragraph {
                runs: std::mem::take(&mut inlines),
            }),
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
                Block::Heading {
                    runs: vec![Inline::Text("What it checks".into())]
                },
                Block::Paragraph {
                    runs: vec![
                        Inline::Text("A ".into()),
                        Inline::Code("name".into()),
                        Inline::Text(" field.".into())
                    ]
                },
                Block::Heading {
                    runs: vec![Inline::Text("Example".into())]
                },
                Block::List {
                    items: vec![
                        vec![Inline::Text("one ".into()), Inline::Code("a".into())],
                        vec![Inline::Text("two ".into())]
                    ]
                },
                Block::Code {
                    code: "name: x".into()
                },
            ]
        );
    }

    /// A hover's Markdown (bold, a pipe table, code) reads as blocks with no Markdown left in
    /// their text: the editor shows `Level 1`, not `**Level 1**`, and a table, not pipes.
    #[test]
    fn a_hover_becomes_blocks_with_a_table() {
        let hover =
            "**Level 1** is `- name: d`.\n\n| client | name |\n|---|---|\n| pi | 3 / 64 |\n";
        let text = |runs: &[Inline]| -> String {
            runs.iter()
                .map(|r| match r {
                    Inline::Text(t) | Inline::Code(t) => t.as_str(),
                })
                .collect()
        };
        let b = blocks(hover);
        let Block::Paragraph { runs } = &b[0] else {
            panic!("{b:?}")
        };
        assert_eq!(text(runs), "Level 1 is - name: d.");
        let Block::Table { head, rows } = &b[1] else {
            panic!("{b:?}")
        };
        assert_eq!(
            head.iter().map(|c| text(c)).collect::<Vec<_>>(),
            ["client", "name"]
        );
        assert_eq!(
            rows[0].iter().map(|c| text(c)).collect::<Vec<_>>(),
            ["pi", "3 / 64"]
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
                b.iter().any(|b| matches!(b, Block::Heading { .. })),
                "{}: no heading",
                r.name
            );
            let texts: Vec<&str> = b
                .iter()
                .flat_map(|b| match b {
                    Block::Heading { runs } | Block::Paragraph { runs } => {
                        runs.iter().collect::<Vec<_>>()
                    }
                    Block::List { items } => items.iter().flatten().collect(),
                    Block::Table { head, rows } => {
                        head.iter().chain(rows.iter().flatten()).flatten().collect()
                    }
                    Block::Code { .. } => Vec::new(),
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

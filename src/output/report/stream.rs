//! Report writing, for the JSON formats: a pretty-printed document cut where an array of
//! findings goes, so that its elements are written one at a time in between and the
//! bytes are exactly those serde_json writes for the whole document.

use std::io::{self, Write};

use serde::Serialize;

/// A pretty-printed document, cut at one of its arrays, written empty: `head` ends with
/// the array's `[`, `tail` begins after its `]`.
pub struct Cut {
    pub head: String,
    pub tail: String,
    /// The indentation of the line the array opens on.
    indent: usize,
}

/// Cuts `document` at the last `"key": []` in it, or, with no key, at the document's
/// own `[]`. A key's text in a string is escaped (`\"key\"`), so only a member matches.
pub fn cut(document: &str, key: Option<&str>) -> Cut {
    let (at, open) = match key {
        Some(key) => {
            let member = format!("\"{key}\": []");
            let at = document
                .rfind(&member)
                .unwrap_or_else(|| panic!("no empty `{key}` array in the document"));
            (at, at + member.len() - 2)
        }
        None => {
            let at = document.find("[]").expect("an empty array");
            (at, at)
        }
    };
    let line_start = document[..at].rfind('\n').map_or(0, |n| n + 1);
    let indent = document[line_start..at].len() - document[line_start..at].trim_start().len();
    Cut {
        head: document[..=open].to_string(),
        tail: document[open + 2..].to_string(),
        indent,
    }
}

/// The elements of a cut array, written as they come.
pub struct Elements {
    indent: usize,
    count: usize,
}

impl Elements {
    pub fn new(cut: &Cut) -> Elements {
        Elements {
            indent: cut.indent,
            count: 0,
        }
    }

    /// Writes `value` as the array's next element, indented as in the whole document:
    /// serde_json's pretty output of a value nested `n` deep is its output alone with
    /// every line shifted by `n` (JSON strings hold no raw line break).
    pub fn push(&mut self, value: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
        let text = serde_json::to_string_pretty(value)?;
        out.write_all(if self.count == 0 { b"\n" } else { b",\n" })?;
        let pad = " ".repeat(self.indent + 2);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(pad.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
        self.count += 1;
        Ok(())
    }

    /// Closes the array (the `]` the cut took away).
    pub fn close(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.count > 0 {
            write!(out, "\n{}", " ".repeat(self.indent))?;
        }
        out.write_all(b"]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Doc {
        name: &'static str,
        items: Vec<Item>,
        after: u32,
    }

    #[derive(Serialize)]
    struct Item {
        n: u32,
        tags: Vec<&'static str>,
        empty: Vec<u32>,
    }

    fn item(n: u32) -> Item {
        Item {
            n,
            tags: vec!["a\nb", "\"items\": []"],
            empty: Vec::new(),
        }
    }

    fn streamed(count: u32) -> String {
        let doc = Doc {
            name: "\"items\": []",
            items: Vec::new(),
            after: 7,
        };
        let cut = cut(&serde_json::to_string_pretty(&doc).unwrap(), Some("items"));
        let mut out = cut.head.clone().into_bytes();
        let mut elements = Elements::new(&cut);
        for n in 0..count {
            elements.push(&item(n), &mut out).unwrap();
        }
        elements.close(&mut out).unwrap();
        out.extend(cut.tail.as_bytes());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn streamed_elements_give_the_bytes_of_the_whole_document() {
        for count in [0, 1, 3] {
            let whole = Doc {
                name: "\"items\": []",
                items: (0..count).map(item).collect(),
                after: 7,
            };
            assert_eq!(
                streamed(count),
                serde_json::to_string_pretty(&whole).unwrap()
            );
        }
    }

    #[test]
    fn a_top_level_array_is_cut_too() {
        for count in [0, 2] {
            let whole: Vec<Item> = (0..count).map(item).collect();
            let cut = cut("[]", None);
            let mut out = cut.head.clone().into_bytes();
            let mut elements = Elements::new(&cut);
            for n in 0..count {
                elements.push(&item(n), &mut out).unwrap();
            }
            elements.close(&mut out).unwrap();
            out.extend(cut.tail.as_bytes());
            let expected = serde_json::to_string_pretty(&whole).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }
}

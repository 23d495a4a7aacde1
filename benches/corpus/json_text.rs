//! JSON as the corpus writes it: compact, or spaced the way Python's `json.dumps` is.

use std::io::Write;

use serde_json::Value;

pub fn compact(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).expect("serialisable")
}

/// JSON as Python's `json.dumps` writes it: `", "` and `": "` separators.
pub fn python_json(value: &Value) -> Vec<u8> {
    struct Spaced;
    impl serde_json::ser::Formatter for Spaced {
        fn begin_array_value<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first { Ok(()) } else { w.write_all(b", ") }
        }
        fn begin_object_key<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first { Ok(()) } else { w.write_all(b", ") }
        }
        fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            w.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Spaced);
    serde::Serialize::serialize(value, &mut ser).expect("serialisable");
    out
}

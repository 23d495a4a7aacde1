//! The parts of a HAR 1.2 log a2alint reads, deserialized as a stream: the document is
//! walked down to `log.entries`, and each entry is handed over as soon as it is parsed,
//! its strings borrowed from the file unless they hold escapes. Other members are
//! skipped, and missing optional ones tolerated.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

#[derive(Deserialize)]
pub struct Entry<'a> {
    #[serde(borrow, default)]
    pub request: Option<Request<'a>>,
    #[serde(borrow, default)]
    pub response: Option<Response<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request<'a> {
    #[serde(borrow, default)]
    pub method: Text<'a>,
    #[serde(borrow, default)]
    pub url: Text<'a>,
    #[serde(borrow, default)]
    pub http_version: Option<Text<'a>>,
    #[serde(borrow, default)]
    pub headers: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    pub cookies: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    pub post_data: Option<BodyParts<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response<'a> {
    #[serde(default, deserialize_with = "status")]
    pub status: u16,
    #[serde(borrow, default)]
    pub status_text: Text<'a>,
    #[serde(borrow, default)]
    pub http_version: Option<Text<'a>>,
    #[serde(borrow, default)]
    pub headers: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    pub cookies: Option<Vec<Pair<'a>>>,
    #[serde(borrow, default)]
    pub content: Option<BodyParts<'a>>,
    /// Chrome and mitmproxy say here why the exchange failed (`net::ERR_ABORTED`),
    /// `null` when it did not. With status 0 no response came; with a real status the
    /// response came and its body was cut short or cancelled by the page.
    #[serde(borrow, rename = "_error", default)]
    pub error: Failure<'a>,
}

impl Response<'_> {
    /// Was a response received: a real status, whatever `_error` says? A status of 0 (or
    /// none) means no response came; 1xx to 999 one did, 101 included: a WebSocket
    /// upgrade is a completed exchange.
    pub fn received(&self) -> bool {
        (100..=999).contains(&self.status)
    }

    /// Why no response came, when the recorder says (`_error` on a status 0 entry).
    pub fn failure(&self) -> Option<&str> {
        match self.received() {
            true => None,
            false => self.error.0.as_deref().filter(|why| !why.trim().is_empty()),
        }
    }
}

/// `_error`: a string, or `null` for none. Any other value is read as an error that
/// says nothing.
#[derive(Default)]
pub struct Failure<'a>(pub Option<Cow<'a, str>>);

impl<'de: 'a, 'a> Deserialize<'de> for Failure<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FailureVisitor;
        impl<'de> Visitor<'de> for FailureVisitor {
            type Value = Failure<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an error text or null")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Failure<'de>, E> {
                Ok(Failure(Some(Cow::Borrowed(v))))
            }
            fn visit_str<E>(self, v: &str) -> Result<Failure<'de>, E> {
                Ok(Failure(Some(Cow::Owned(v.to_string()))))
            }
            fn visit_unit<E>(self) -> Result<Failure<'de>, E> {
                Ok(Failure(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Failure<'de>, E> {
                Ok(Failure(Some(Cow::Borrowed(""))))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Failure<'de>, E> {
                Ok(Failure(Some(Cow::Borrowed(""))))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Failure<'de>, E> {
                Ok(Failure(Some(Cow::Borrowed(""))))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Failure<'de>, E> {
                Ok(Failure(Some(Cow::Borrowed(""))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Failure<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Failure(Some(Cow::Borrowed(""))))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Failure<'de>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Failure(Some(Cow::Borrowed(""))))
            }
        }
        deserializer.deserialize_any(FailureVisitor)
    }
}

/// `postData` or `content`.
#[derive(Deserialize)]
pub struct BodyParts<'a> {
    #[serde(borrow, default)]
    pub text: Option<Text<'a>>,
    #[serde(borrow, default)]
    pub encoding: Option<Text<'a>>,
}

/// A header or a cookie.
#[derive(Deserialize)]
pub struct Pair<'a> {
    #[serde(borrow, default)]
    pub name: Text<'a>,
    #[serde(borrow, default)]
    pub value: Text<'a>,
}

/// A string member, borrowed from the file unless it holds escapes; `null` reads as "".
#[derive(Default)]
pub struct Text<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_unit<E>(self) -> Result<Text<'de>, E> {
                Ok(Text::default())
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

/// A status as a number or a numeric string; anything else (`null`, `-1`) is no status.
fn status<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u16, D::Error> {
    let status = match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    Ok(status
        .filter(|s| s.fract() == 0.0 && (0.0..=999.0).contains(s))
        .map_or(0, |s| s as u16))
}

/// Reads a HAR document, handing each entry to `on_entry` as soon as it is parsed.
pub fn read_entries<'de, D: Deserializer<'de>>(
    deserializer: D,
    on_entry: &mut dyn FnMut(Entry<'de>),
) -> Result<(), D::Error> {
    deserializer.deserialize_map(Member {
        key: "log",
        what: "a HAR log: an object with a `log` member",
        on_entry,
    })
}

/// An object of which one member is read, `log` in the document and `entries` in the
/// log; the others are skipped.
struct Member<'c, 'de> {
    key: &'static str,
    what: &'static str,
    on_entry: &'c mut dyn FnMut(Entry<'de>),
}

impl<'de> DeserializeSeed<'de> for Member<'_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Member<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut found = false;
        while let Some(key) = map.next_key::<Text<'de>>()? {
            if found || key.0 != self.key {
                map.next_value::<IgnoredAny>()?;
            } else if self.key == "log" {
                found = true;
                map.next_value_seed(Member {
                    key: "entries",
                    what: "a HAR `log` object with an `entries` array",
                    on_entry: &mut *self.on_entry,
                })?;
            } else {
                found = true;
                map.next_value_seed(Entries(&mut *self.on_entry))?;
            }
        }
        if found {
            Ok(())
        } else {
            Err(de::Error::missing_field(self.key))
        }
    }
}

/// The `entries` array.
struct Entries<'c, 'de>(&'c mut dyn FnMut(Entry<'de>));

impl<'de> DeserializeSeed<'de> for Entries<'_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Entries<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of HAR entries")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(entry) = seq.next_element::<Entry<'de>>()? {
            (self.0)(entry);
        }
        Ok(())
    }
}

//! Decodes a success response's JSON without building the payloads no rule reads into.
//!
//! A successful answer is mostly its payload: the Task with its history and artifacts, the
//! Message, the stream event's update (A2A §3.2.3, §9.4). Rules read a success response's
//! envelope (`jsonrpc`, `id`, which members are present) and, of a payload, only the
//! task state its `status` carries; building the rest as `serde_json::Value` trees (then
//! dropping them) was half of all the work on realistic traffic. So their members are
//! checked by the same parser, with the same errors and the same nesting limit, but kept
//! hollow: an object as `{}` (or `{"status": {"state": ...}}`), an array as `[]`; a scalar
//! payload is kept as it is.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The members of a success response whose values are kept hollow: the StreamResponse /
/// SendMessageResponse payloads (§3.2.3), and a Task's or a ListTasksResponse's bulk
/// (§4.1.3, §3.1.4). JSON-RPC's `result` (§9.4) is read one level deep, its own payload
/// members hollow.
pub(super) const PAYLOAD_MEMBERS: [&str; 7] = [
    "task",
    "message",
    "statusUpdate",
    "artifactUpdate",
    "history",
    "artifacts",
    "tasks",
];

/// Parses a JSON document whose top-level payload members are kept hollow.
pub fn from_str(text: &str) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Document.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Parses bytes that are not UTF-8 as a whole; strings are checked one by one.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Document.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// The whole document: an object has its payload members hollowed; anything else is
/// built in full.
struct Document;

impl<'de> DeserializeSeed<'de> for Document {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Document {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            // JSON-RPC's `result` keeps which payload it holds (`{"task": {}}`): stream
            // rules read that, never what is inside.
            let value = if key == "result" {
                map.next_value_seed(Document)?
            } else if PAYLOAD_MEMBERS.contains(&key.as_str()) {
                map.next_value_seed(Hollow)?
            } else {
                map.next_value::<Value>()?
            };
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_bool<E: Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_unit<E: Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

/// A payload member's value: containers are walked but not built.
struct Hollow;

impl<'de> DeserializeSeed<'de> for Hollow {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Hollow {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    /// A payload object keeps only its `status.state`: stream rules follow a task's state
    /// from event to event (A2A §3.1.2), and it is one short string.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut kept = Map::new();
        while let Some(is_status) = map.next_key_seed(KeyIs("status"))? {
            if !is_status {
                map.next_value_seed(Skip)?;
            } else if let Some(status) = map.next_value_seed(StateOnly)? {
                kept.insert("status".to_owned(), status);
            }
        }
        Ok(Value::Object(kept))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        Skip.visit_seq(seq)?;
        Ok(Value::Array(Vec::new()))
    }

    fn visit_bool<E: Error>(self, v: bool) -> Result<Value, E> {
        Document.visit_bool(v)
    }

    fn visit_i64<E: Error>(self, v: i64) -> Result<Value, E> {
        Document.visit_i64(v)
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<Value, E> {
        Document.visit_u64(v)
    }

    fn visit_f64<E: Error>(self, v: f64) -> Result<Value, E> {
        Document.visit_f64(v)
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<Value, E> {
        Document.visit_str(v)
    }

    fn visit_unit<E: Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

/// A member name compared with one name, without building it.
struct KeyIs(&'static str);

impl<'de> DeserializeSeed<'de> for KeyIs {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyIs {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<bool, E> {
        Ok(v == self.0)
    }
}

/// A status object reduced to its `state`; `None` for a status that is no object (its
/// value is walked all the same).
struct StateOnly;

impl<'de> DeserializeSeed<'de> for StateOnly {
    type Value = Option<Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Value>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StateOnly {
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<Value>, A::Error> {
        let mut kept = Map::new();
        while let Some(is_state) = map.next_key_seed(KeyIs("state"))? {
            match is_state {
                true => {
                    kept.insert("state".to_owned(), map.next_value::<Value>()?);
                }
                false => map.next_value_seed(Skip)?,
            }
        }
        Ok(Some(Value::Object(kept)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<Value>, A::Error> {
        Skip.visit_seq(seq).map(|()| None)
    }

    fn visit_bool<E: Error>(self, _: bool) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_i64<E: Error>(self, _: i64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_u64<E: Error>(self, _: u64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_f64<E: Error>(self, _: f64) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_str<E: Error>(self, _: &str) -> Result<Option<Value>, E> {
        Ok(None)
    }

    fn visit_unit<E: Error>(self) -> Result<Option<Value>, E> {
        Ok(None)
    }
}

/// Walks a value through `deserialize_any`, as building it would (so the parser applies
/// the same checks and nesting limit), and keeps nothing.
struct Skip;

impl<'de> DeserializeSeed<'de> for Skip {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(Skip)?.is_some() {
            map.next_value_seed(Skip)?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Skip)?.is_some() {}
        Ok(())
    }

    fn visit_bool<E: Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: Error>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn hollows_payloads_and_keeps_the_envelope() {
        let text = r#"{"jsonrpc": "2.0", "id": {"n": 1}, "result": {"id": "t", "history": [1, 2]},
            "error": {"code": -32001, "data": [{"reason": "R"}]}}"#;
        assert_eq!(
            from_str(text).unwrap(),
            json!({"jsonrpc": "2.0", "id": {"n": 1}, "result": {"id": "t", "history": []},
                   "error": {"code": -32001, "data": [{"reason": "R"}]}})
        );
        let task = r#"{"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING", "message": {"parts": []}}, "history": [1]}}"#;
        assert_eq!(
            from_str(task).unwrap(),
            json!({"task": {"status": {"state": "TASK_STATE_WORKING"}}})
        );
        assert_eq!(
            from_str(r#"{"statusUpdate": {"status": "odd", "taskId": "t"}}"#).unwrap(),
            json!({"statusUpdate": {}})
        );
        let event = r#"{"artifactUpdate": {"artifact": {"parts": [{"text": "x"}]}}, "kind": "k"}"#;
        assert_eq!(
            from_str(event).unwrap(),
            json!({"artifactUpdate": {}, "kind": "k"})
        );
        assert_eq!(
            from_str(r#"{"history": [], "result": "done", "task": null}"#).unwrap(),
            json!({"history": [], "result": "done", "task": null})
        );
        assert_eq!(
            from_str(r#"[{"result": [1]}, 2]"#).unwrap(),
            json!([{"result": [1]}, 2])
        );
    }

    /// Whatever the full parse rejects, the hollow parse rejects with the same message at
    /// the same place: `body-not-json` must not depend on which members were hollowed.
    #[test]
    fn rejects_what_the_full_parse_rejects() {
        let deep = format!("{{\"result\": {}{}}}", "[".repeat(200), "]".repeat(200));
        let broken = [
            r#"{"result": {"a": 1,}}"#,
            r#"{"result": {"a": "\x"}}"#,
            "{\"result\": {\"a\": \"tab\there\"}}",
            r#"{"result": {"a": 1e999999}}"#,
            r#"{"result": {"a": [1 2]}}"#,
            r#"{"result": {"a": tru}}"#,
            r#"{"result": {"a": 1}} trailing"#,
            r#"{"result": {"a": "\ud800"}}"#,
            r#"{"result": {1: 2}}"#,
            deep.as_str(),
        ];
        for text in broken {
            let full = serde_json::from_str::<Value>(text).unwrap_err();
            let hollow = from_str(text).unwrap_err();
            assert_eq!(full.to_string(), hollow.to_string(), "{text}");
            let slice = from_slice(text.as_bytes()).unwrap_err();
            assert_eq!(full.to_string(), slice.to_string(), "{text}");
        }
    }
}

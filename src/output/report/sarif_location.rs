//! SARIF output, where a result sits: a line and column region in a text capture, the
//! label's bytes as a binary region in a pcap (with the frame named), and the artifact.

use serde::Serialize;

use crate::output::report::sarif::Text;
use crate::output::resolve::Location;

pub(super) fn location(
    l: &Location,
    id: Option<usize>,
    artifact: &ArtifactLocation,
) -> SarifLocation {
    // A label inside a decoded (decompressed, de-chunked) body is placed on the body's raw
    // bytes in the file; say which decoded body the note is about.
    let text = match &l.body {
        Some(body) if l.text.is_empty() => format!("in the decoded body {body}"),
        Some(body) => format!("{} (in the decoded body {body})", l.text),
        None => l.text.clone(),
    };
    // A pcap file is binary: its region is the label's bytes in the frame (§3.30.2), and
    // the message names the frame as Wireshark does.
    if let Some(frame) = &l.frame {
        let mut place = format!("frame {}", frame.frame);
        if let Some(stream) = frame.stream {
            place.push_str(&format!(", HTTP/2 stream {stream}"));
        }
        if let Some(peers) = &frame.peers {
            place.push_str(&format!(", {peers}"));
        }
        let text = if text.is_empty() {
            place
        } else {
            format!("{text} ({place})")
        };
        return SarifLocation {
            id,
            physical_location: PhysicalLocation {
                artifact_location: artifact.clone(),
                // GitHub code scanning needs a start line to show a result; a pcap's
                // line is its frame number, as in every line-based format.
                region: Region {
                    start_line: Some(frame.frame as usize),
                    start_column: None,
                    end_line: None,
                    end_column: None,
                    byte_offset: l.span.start,
                    byte_length: l.span.len(),
                },
            },
            message: Some(Text { text }),
        };
    }
    SarifLocation {
        id,
        physical_location: PhysicalLocation {
            artifact_location: artifact.clone(),
            region: Region {
                start_line: Some(l.start.line),
                start_column: Some(l.start.column),
                end_line: Some(l.end.line),
                // Exclusive, "the column following the end" (§3.2), as `Location.end` is.
                end_column: Some(l.end.column),
                // Our offsets count bytes, so they go in byteOffset/byteLength, not charOffset.
                byte_offset: l.span.start,
                byte_length: l.span.len(),
            },
        },
        message: (!text.is_empty()).then_some(Text { text }),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SarifLocation {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) id: Option<usize>,
    pub(super) physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PhysicalLocation {
    pub(super) artifact_location: ArtifactLocation,
    pub(super) region: Region,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ArtifactLocation {
    pub(super) uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Region {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) start_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) start_column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) end_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) end_column: Option<usize>,
    pub(super) byte_offset: usize,
    pub(super) byte_length: usize,
}

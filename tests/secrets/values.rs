//! The fake credentials the fixtures hold, and how much of one counts as a leak.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};

/// How much of a secret is enough to count as a leak.
pub const PIECE: usize = 8;

/// A fake credential, and where the fixtures put it.
pub struct Secret {
    pub name: &'static str,
    pub value: String,
    pub placed: &'static str,
}

pub fn secret(name: &'static str, value: impl Into<String>, placed: &'static str) -> Secret {
    Secret {
        name,
        value: value.into(),
        placed,
    }
}

/// A JWT of the given header and payload and a fake (non-empty) signature segment.
fn jwt(header: &str, payload: &str, signature: &str) -> String {
    let part = |s: &str| URL_SAFE_NO_PAD.encode(s);
    format!("{}.{}.{}", part(header), part(payload), part(signature))
}

/// Every secret the fixtures hold. Each differs from the others in its first bytes, so a
/// leaked piece names its secret.
pub struct Secrets {
    pub bearer: String,
    pub basic: String,
    pub proxy: String,
    pub sid: String,
    pub csrf: String,
    pub set_cookie: String,
    pub api_key: String,
    pub push_token: String,
    pub push_cred: String,
    pub jwt_rpc: String,
    pub jwt_sse: String,
    pub jwt_gzip: String,
    pub har_bearer: String,
    pub har_sid: String,
    pub har_set_cookie: String,
    pub har_push_token: String,
    pub har_push_cred: String,
    pub jwt_har: String,
    pub jwt_har64: String,
}

impl Secrets {
    pub fn new() -> Self {
        Secrets {
            bearer: "fakeBEARERq7Zx2Lm9Kp".into(),
            basic: STANDARD.encode("alice:fakeBASICw3Nd8Hs"),
            proxy: STANDARD.encode("proxyuser:fakePROXYt6Jb1Qv"),
            sid: "fakeSIDv4Rm8Tq2Wn".into(),
            csrf: "fakeCSRFy5Gk7Pz3Xc".into(),
            set_cookie: "fakeRFRSHh2Vw6Ld9Mb".into(),
            api_key: "fakeAPIKEYj8Fs4Rn1Qz".into(),
            push_token: "fakePUSHTOKu3Kd7Ye5Wm".into(),
            push_cred: "fakeHOOKCREDn9Bx2Tf6Lp".into(),
            jwt_rpc: jwt(r#"{"kid":"Rq"}"#, r#"{"sub":"rpcq1"}"#, "Zrpc73q"),
            jwt_sse: jwt(r#"{"typ":"Sx"}"#, r#"{"uid":"ssew2"}"#, "Ysse26w"),
            jwt_gzip: jwt(r#"{"cty":"Gz"}"#, r#"{"aud":"gzhe3"}"#, "Xgzh14e"),
            har_bearer: "fakeHARBEARg4Wq8Zc3Vn".into(),
            har_sid: "fakeHARSIDk7Mt2Jx9Rd".into(),
            har_set_cookie: "fakeHARRFRp5Ys3Hb8Kw".into(),
            har_push_token: "fakeHARPUSHe6Nv1Lz4Qg".into(),
            har_push_cred: "fakeHARCREDr2Xp7Wk5Dj".into(),
            jwt_har: jwt(r#"{"x5u":"Hr"}"#, r#"{"iss":"harr4"}"#, "Whar85r"),
            jwt_har64: jwt(r#"{"jku":"Hb"}"#, r#"{"jti":"hbt5"}"#, "Vb6449t"),
        }
    }

    pub fn all(&self) -> Vec<Secret> {
        vec![
            secret(
                "bearer",
                &self.bearer,
                "headers.http: Authorization: Bearer",
            ),
            secret("basic", &self.basic, "headers.http: Authorization: Basic"),
            secret("proxy", &self.proxy, "headers.http: Proxy-Authorization"),
            secret("sid", &self.sid, "headers.http: Cookie (first cookie)"),
            secret("csrf", &self.csrf, "headers.http: Cookie (second cookie)"),
            secret("set_cookie", &self.set_cookie, "headers.http: Set-Cookie"),
            secret("api_key", &self.api_key, "headers.http: X-API-Key"),
            secret(
                "push_token",
                &self.push_token,
                "push.http: push config `token`",
            ),
            secret(
                "push_cred",
                &self.push_cred,
                "push.http: `authentication.credentials`",
            ),
            secret(
                "jwt_rpc",
                &self.jwt_rpc,
                "jwt-rpc.http: JSON-RPC params metadata, error message, ErrorInfo metadata",
            ),
            secret("jwt_sse", &self.jwt_sse, "stream.http: SSE event data"),
            secret(
                "jwt_gzip",
                &self.jwt_gzip,
                "gzip.http: gzip-compressed body",
            ),
            secret(
                "har_bearer",
                &self.har_bearer,
                "*.har: authorization header",
            ),
            secret(
                "har_sid",
                &self.har_sid,
                "*.har: cookie header and request cookies array",
            ),
            secret(
                "har_set_cookie",
                &self.har_set_cookie,
                "*.har: set-cookie header and response cookies array",
            ),
            secret(
                "har_push_token",
                &self.har_push_token,
                "*.har: push config `token` in postData.text and content.text",
            ),
            secret(
                "har_push_cred",
                &self.har_push_cred,
                "*.har: `authentication.credentials` in postData.text",
            ),
            secret(
                "jwt_har",
                &self.jwt_har,
                "*.har: JWT in postData.text and content.text",
            ),
            secret(
                "jwt_har64",
                &self.jwt_har64,
                "*.har: JWT in a base64-encoded content.text",
            ),
        ]
    }
}

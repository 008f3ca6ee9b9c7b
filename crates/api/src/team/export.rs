//! The downloads of the team's usage and activity: CSV (RFC 4180, a header row, CRLF line ends)
//! and JSON lines, as attachments.

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

/// One CSV field: quoted when it holds a comma, a quote or a line break; a text cell a
/// spreadsheet would read as a formula (`=`, `+`, `-`, `@` first, not a number) starts with `'`.
pub fn field(raw: &str) -> String {
    let formula = raw.starts_with(['=', '+', '-', '@']) && raw.parse::<f64>().is_err();
    let text = if formula {
        format!("'{raw}")
    } else {
        raw.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// A CSV document of `header` and `rows`.
pub fn csv(header: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut out = header.join(",");
    out.push_str("\r\n");
    for row in rows {
        let line: Vec<String> = row.iter().map(|f| field(f)).collect();
        out.push_str(&line.join(","));
        out.push_str("\r\n");
    }
    out
}

/// `body` as a download named `filename`.
pub fn attachment(content_type: &'static str, filename: &str, body: String) -> Response {
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        assert_eq!(field("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(field("-12"), "-12");
        assert_eq!(
            csv(&["a", "b"], [vec!["1".into(), "x,y".into()]]),
            "a,b\r\n1,\"x,y\"\r\n"
        );
    }
}

//! Human output: aligned tables, short dates, and JSON for scripts.

use serde::Serialize;
use time::OffsetDateTime;

pub fn json<T: Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// `2026-11-22 04:47 UTC`.
pub fn when(t: OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute()
    )
}

pub fn when_opt(t: Option<OffsetDateTime>) -> String {
    t.map(when).unwrap_or_else(|| "-".into())
}

/// RFC 3339 for JSON.
pub fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

pub fn rfc3339_opt(t: Option<OffsetDateTime>) -> serde_json::Value {
    t.map(|t| serde_json::Value::String(rfc3339(t)))
        .unwrap_or(serde_json::Value::Null)
}

/// A table with a header row, columns padded to their widest cell.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let last = cells.len().saturating_sub(1);
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == last {
                    c.to_string()
                } else {
                    format!("{c:<width$}", width = widths[i])
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut out = line(headers.to_vec());
    for row in rows {
        out.push('\n');
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

/// `key: value` lines with the keys aligned.
pub fn fields(pairs: &[(&str, String)]) -> String {
    let width = pairs.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 1;
    pairs
        .iter()
        .map(|(k, v)| format!("  {:<width$} {v}", format!("{k}:")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_pad_every_column_but_the_last() {
        let t = table(
            &["ID", "EMAIL", "NOTE"],
            &[vec!["1".into(), "a@b.c".into(), "x".into()]],
        );
        assert_eq!(t, "ID  EMAIL  NOTE\n1   a@b.c  x");
    }
}

//! The invoice as a PDF: A4 pages in Helvetica (one of the fonts every reader has, so nothing is
//! embedded), text encoded in WinAnsi, written with `pdf-writer`.

use pdf_writer::{Content, Name, Pdf, Rect, Ref, Str};

use super::Document;
use crate::pages::long_date;

const WIDTH: f32 = 595.0;
const HEIGHT: f32 = 842.0;
const MARGIN: f32 = 56.0;
const REGULAR: Name<'static> = Name(b"F1");
const BOLD: Name<'static> = Name(b"F2");
/// Columns of the lines table: description, quantity, amount.
const QTY_X: f32 = 380.0;
const AMOUNT_X: f32 = 470.0;

/// Text as WinAnsi bytes (Latin-1 plus the euro sign and typographic marks); anything else
/// becomes `?`.
fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            '€' => 0x80,
            '–' => 0x96,
            '—' => 0x97,
            '‘' => 0x91,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '•' => 0x95,
            '×' => 0xD7,
            c if (c as u32) < 0x80 || (0xA0..=0xFF).contains(&(c as u32)) => c as u8,
            _ => b'?',
        })
        .collect()
}

/// Lays text out top to bottom, starting a new page when one is full.
struct Pages {
    done: Vec<Content>,
    current: Content,
    y: f32,
}

impl Pages {
    fn new() -> Self {
        Self {
            done: Vec::new(),
            current: Content::new(),
            y: HEIGHT - MARGIN,
        }
    }

    fn text(&mut self, x: f32, font: Name, size: f32, text: &str) {
        let bytes = win_ansi(text);
        self.current
            .begin_text()
            .set_font(font, size)
            .next_line(x, self.y)
            .show(Str(&bytes))
            .end_text();
    }

    /// Moves down by `gap`, to a new page when the bottom margin is reached.
    fn down(&mut self, gap: f32) {
        self.y -= gap;
        if self.y < MARGIN + 40.0 {
            let full = std::mem::replace(&mut self.current, Content::new());
            self.done.push(full);
            self.y = HEIGHT - MARGIN;
        }
    }

    fn rule(&mut self) {
        self.current
            .set_line_width(0.5)
            .move_to(MARGIN, self.y + 4.0)
            .line_to(WIDTH - MARGIN, self.y + 4.0)
            .stroke();
    }

    fn finish(mut self) -> Vec<Content> {
        self.done.push(self.current);
        self.done
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(max - 1).collect();
    short.push('…');
    short
}

fn layout(doc: &Document) -> Vec<Content> {
    let mut p = Pages::new();
    p.text(MARGIN, BOLD, 22.0, "Invoice");
    p.text(AMOUNT_X - 60.0, BOLD, 12.0, &doc.seller);
    p.down(30.0);
    for (label, value) in [
        ("Invoice number", doc.number.clone()),
        ("Date of issue", long_date(doc.issued)),
        ("Status", doc.status_word().to_owned()),
    ] {
        p.text(MARGIN, BOLD, 10.0, label);
        p.text(MARGIN + 110.0, REGULAR, 10.0, &value);
        p.down(15.0);
    }
    p.down(15.0);
    p.text(MARGIN, BOLD, 10.0, "Billed to");
    p.down(15.0);
    for line in doc.billed_to.iter().chain(&doc.tax_ids) {
        p.text(MARGIN, REGULAR, 10.0, &cut(line, 80));
        p.down(14.0);
    }
    p.down(16.0);
    let period = format!("{} – {}", long_date(doc.period.0), long_date(doc.period.1));
    p.text(MARGIN, REGULAR, 10.0, &period);
    p.down(24.0);
    p.text(MARGIN, BOLD, 10.0, "Description");
    p.text(QTY_X, BOLD, 10.0, "Qty");
    p.text(AMOUNT_X, BOLD, 10.0, "Amount");
    p.down(8.0);
    p.rule();
    p.down(12.0);
    for (description, quantity, amount) in &doc.lines {
        p.text(MARGIN, REGULAR, 10.0, &cut(description, 58));
        p.text(QTY_X, REGULAR, 10.0, &quantity.to_string());
        p.text(AMOUNT_X, REGULAR, 10.0, &doc.money(*amount));
        p.down(16.0);
    }
    p.rule();
    p.down(12.0);
    for (label, amount) in doc.totals() {
        let font = if label == "Amount due" { BOLD } else { REGULAR };
        // Long labels (a tax's rate and base) start further left.
        let x = if label.chars().count() > 14 {
            MARGIN + 160.0
        } else {
            QTY_X - 60.0
        };
        p.text(x, font, 10.0, &label);
        p.text(AMOUNT_X, font, 10.0, &amount);
        p.down(16.0);
    }
    if doc.reverse_charge {
        p.down(8.0);
        p.text(MARGIN, REGULAR, 9.0, super::REVERSE_CHARGE_NOTE);
        p.down(14.0);
    }
    p.down(24.0);
    p.text(MARGIN, REGULAR, 8.0, "Test mode — stripe-mock");
    p.finish()
}

/// The whole PDF file.
pub(super) fn render(doc: &Document) -> Vec<u8> {
    let pages = layout(doc);
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let regular = Ref::new(3);
    let bold = Ref::new(4);
    let info = Ref::new(5);
    // Each page then its content stream.
    let ids: Vec<(Ref, Ref)> = (0..pages.len() as i32)
        .map(|n| (Ref::new(6 + 2 * n), Ref::new(7 + 2 * n)))
        .collect();
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(ids.iter().map(|(page, _)| *page))
        .count(ids.len() as i32);
    for (id, name) in [(regular, "Helvetica"), (bold, "Helvetica-Bold")] {
        pdf.type1_font(id)
            .base_font(Name(name.as_bytes()))
            .pair(Name(b"Encoding"), Name(b"WinAnsiEncoding"));
    }
    pdf.document_info(info)
        .title(pdf_writer::TextStr(&format!("Invoice {}", doc.number)))
        .creator(pdf_writer::TextStr("stripe-mock"));
    for ((page_id, content_id), content) in ids.iter().zip(pages) {
        let mut page = pdf.page(*page_id);
        page.media_box(Rect::new(0.0, 0.0, WIDTH, HEIGHT))
            .parent(tree)
            .contents(*content_id);
        page.resources()
            .fonts()
            .pair(REGULAR, regular)
            .pair(BOLD, bold);
        drop(page);
        pdf.stream(*content_id, &content.finish());
    }
    pdf.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_encoded_in_win_ansi() {
        assert_eq!(
            win_ansi("Straße €5 × 2 ✓"),
            b"Stra\xdfe \x805 \xd7 2 ?".to_vec()
        );
    }
}

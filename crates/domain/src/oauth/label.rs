//! Device names and platforms: text a device chose, shown to the user on `/activate`,
//! `/authorize` and in Settings → Devices. A name that reorders or hides its own letters can pass
//! for another ("Your MacBook (IT)" with a right-to-left override, a zero-width space), so such
//! characters are refused rather than shown.

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Why a device name or platform is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelError {
    /// Empty after trimming, or longer than allowed.
    Length,
    /// A control, format (bidi, zero-width, tag), line/paragraph separator or other invisible
    /// character: the API answers `invalid_device_name` for the name and the platform alike.
    Invisible,
}

/// Whether `c` may not appear in a device label: controls (Cc), format characters (Cf: the bidi
/// embeddings, overrides and isolates, zero-width space/joiners, word joiner, soft hyphen, tags),
/// U+2028/U+2029, and the invisible fillers Unicode lists as default-ignorable outside Cf.
///
/// Variation selectors (U+FE00–FE0F, U+E0100–E01EF, the Mongolian ones) stay allowed: they only
/// pick a glyph's presentation of the character before them ("❤️" is U+2764 U+FE0F), so they
/// cannot hide or reorder text, and emoji names keep working. The zero-width joiner is Cf and is
/// refused, so multi-person emoji sequences are not accepted.
pub fn is_refused_in_label(c: char) -> bool {
    if c.is_control() {
        return true;
    }
    match c.general_category() {
        GeneralCategory::Format
        | GeneralCategory::LineSeparator
        | GeneralCategory::ParagraphSeparator => return true,
        _ => {}
    }
    matches!(
        c,
        // Combining grapheme joiner, Hangul fillers, Khmer inherent vowels, halfwidth filler:
        // default-ignorable, drawn as nothing.
        '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{3164}' | '\u{FFA0}'
    )
}

/// A device name or platform: trimmed, 1–`max` characters, none of [`is_refused_in_label`].
pub fn device_label(raw: &str, max: usize) -> Result<String, LabelError> {
    // Checked before trimming: a trailing U+2028 or tab is refused, not silently dropped.
    if raw.chars().any(is_refused_in_label) {
        return Err(LabelError::Invisible);
    }
    let s = raw.trim();
    if !(1..=max).contains(&s.chars().count()) {
        return Err(LabelError::Length);
    }
    Ok(s.to_string())
}

#[cfg(test)]
#[path = "label_tests.rs"]
mod tests;

//! The device code the app shows (RFC 8628 user code): 8 letters, shown "WDJB-MJHT". People type it
//! in any case, with or without the dash or a space; the API reads it the same way.

export const USER_CODE_LENGTH = 8;

/** What the code field shows for what was typed or pasted: upper case, no spaces, "XXXX-XXXX". */
export function formatUserCode(raw: string): string {
  const chars = raw
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, USER_CODE_LENGTH);
  return chars.length > 4 ? `${chars.slice(0, 4)}-${chars.slice(4)}` : chars;
}

export function isCompleteUserCode(formatted: string): boolean {
  return formatted.replace("-", "").length === USER_CODE_LENGTH;
}

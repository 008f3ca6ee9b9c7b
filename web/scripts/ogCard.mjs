// The Open Graph card every public page shares (1200 x 630 PNG), drawn here with node:zlib so the
// build needs no image library: the brand's indigo-to-blue gradient with a hint bubble, like the app's
// overlay. One shared card rather than one per page: there is no font renderer without a heavy dependency.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { deflateSync } from "node:zlib";

export const OG_CARD = { path: "/og/closewise.png", width: 1200, height: 630 };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

function inRoundedRect(x, y, left, top, w, h, r) {
  if (x < left || y < top || x >= left + w || y >= top + h) return false;
  const cx = Math.min(Math.max(x, left + r), left + w - r);
  const cy = Math.min(Math.max(y, top + r), top + h - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The card's RGB pixel for (x, y). */
function pixel(x, y, width, height) {
  const t = (x / width + y / height) / 2;
  // indigo-700 (#4338ca) to blue-600 (#2563eb)
  let rgb = [Math.round(0x43 + (0x25 - 0x43) * t), Math.round(0x38 + (0x63 - 0x38) * t), Math.round(0xca + (0xeb - 0xca) * t)];
  // A hint bubble with three lines of "text" and its tail.
  const inBubble =
    inRoundedRect(x, y, 300, 170, 600, 250, 36) || (x >= 360 && x < 420 && y >= 410 && y < 470 && x - 360 < 470 - y);
  if (inBubble) rgb = [255, 255, 255];
  const line = (top, w) => inRoundedRect(x, y, 350, top, w, 28, 14);
  if (line(220, 500) || line(275, 420)) rgb = [0x1e, 0x29, 0x3b];
  if (line(330, 300)) rgb = [0x16, 0xa3, 0x4a];
  return rgb;
}

export function ogCardPng({ width, height } = OG_CARD) {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y, width, height);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Writes the card into the built site, at OG_CARD.path under `dir`. */
export function writeOgCard(dir) {
  const file = `${dir}${OG_CARD.path}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, ogCardPng());
  return file;
}

// Writes brotli (.br) and gzip (.gz) siblings of the built site's text files, so the API can serve
// them precompressed (it picks the best one the browser accepts) instead of compressing per request.
// Usage: node scripts/precompress.mjs [dir=dist]
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest|map)$/;
const MIN_BYTES = 512;

/** Writes `path`'s .br and .gz siblings (dropping stale ones); null when the file is too small to bother. */
export function precompressFile(path) {
  rmSync(`${path}.br`, { force: true });
  rmSync(`${path}.gz`, { force: true });
  const body = readFileSync(path);
  if (body.length < MIN_BYTES) return null;
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = gzipSync(body, { level: 9 });
  // A compressed copy that is not smaller is not worth serving.
  if (br.length < body.length) writeFileSync(`${path}.br`, br);
  if (gz.length < body.length) writeFileSync(`${path}.gz`, gz);
  return { before: body.length, after: br.length };
}

export function precompress(dir) {
  let files = 0;
  let before = 0;
  let after = 0;
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      if (!COMPRESSIBLE.test(name)) continue;
      const sizes = precompressFile(path);
      if (!sizes) continue;
      files += 1;
      before += sizes.before;
      after += sizes.after;
    }
  };
  walk(dir);
  return { files, before, after };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? "dist";
  const { files, before, after } = precompress(dir);
  console.log(`precompressed ${files} files: ${(before / 1024).toFixed(0)} KiB -> ${(after / 1024).toFixed(0)} KiB (brotli)`);
}

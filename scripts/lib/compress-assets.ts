import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** What is written pre-compressed: scripts, styles, SVG images and the JSON the app loads. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json)$/i;

/** Totals of one compression pass, for the build's summary line. */
export interface CompressSummary {
  files: number;
  raw: number;
  br: number;
  gz: number;
}

/** Writes `<file>.br` (Brotli, quality 11) and `<file>.gz` (gzip, level 9) beside a file; answers the three sizes. */
export function compressFile(file: string): { raw: number; br: number; gz: number } {
  const data = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gz = zlib.gzipSync(data, { level: 9 });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  return { raw: data.length, br: br.length, gz: gz.length };
}

/**
 * Compresses every compressible file under `dir` (compressFile), so the service sends them by Accept-Encoding without
 * compressing on each request. A file that arrived with both siblings (an edition's antd sheet) is left as it is.
 */
export function compressAssets(dir: string): CompressSummary {
  const sum: CompressSummary = { files: 0, raw: 0, br: 0, gz: 0 };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.existsSync(`${file}.br`) && fs.existsSync(`${file}.gz`)) continue;
    const sizes = compressFile(file);
    sum.files++;
    sum.raw += sizes.raw;
    sum.br += sizes.br;
    sum.gz += sizes.gz;
  }
  return sum;
}

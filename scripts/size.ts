// `npm run size`: per edition, raw and gzip bytes of the initial JS/CSS and of each lazy chunk; fails over budget.
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { servedPage } from '../server/html/page-chunks';
import { normalizeLocale } from '../server/i18n';
import type { PageChunks } from '../schemas/page-chunks';

/**
 * Budgets in gzip bytes: the initial set is what index.html loads before any lazy chunk; every lazy script (a
 * plugin's, antd's shared pieces, a catalogue) has its own.
 */
export const SIZE_BUDGETS = {
  initialJsGzip: 150 * 1024,
  lazyChunkGzip: 50 * 1024,
} as const;

/** One file of the report. */
export interface SizeRow {
  kind: 'initial js' | 'initial css' | 'lazy js' | 'lazy css';
  file: string;
  raw: number;
  gzip: number;
  /** Brotli bytes of a stylesheet (what a browser downloads: the build writes `.br` beside it). */
  br?: number;
}

interface RsbuildManifest {
  entries: Record<string, { initial?: { js?: string[]; css?: string[] }; async?: { js?: string[]; css?: string[] } }>;
}

/** Measures one built edition from the build's rsbuild manifest (`dist/manifest.json`: an entry per edition). */
export function measureEdition(dist: string, edition: string): SizeRow[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'manifest.json'), 'utf8')) as RsbuildManifest;
  const entry = manifest.entries[edition] ?? {};
  const rows: SizeRow[] = [];
  const seen = new Set<string>();
  // Paths from the site root: `/static/…` is the shared folder, anything else the edition's own.
  const onDisk = (f: string) => (f.startsWith('/static/') ? path.join(dist, f) : path.join(dist, edition, f));
  const add = (kind: SizeRow['kind'], files: string[] = []) => {
    for (const f of files) {
      if (seen.has(f)) continue;
      seen.add(f);
      const buf = fs.readFileSync(onDisk(f));
      const row: SizeRow = { kind, file: f, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
      if (f.endsWith('.css')) row.br = brotliSize(onDisk(f), buf);
      rows.push(row);
    }
  };
  add('initial js', entry.initial?.js);
  // The edition's antd sheet, linked by its page (not part of the bundle: rsbuild.config.ts).
  const html = fs.readFileSync(path.join(dist, edition, 'index.html'), 'utf8');
  add(
    'initial css',
    [...html.matchAll(/<link rel="stylesheet" href="([^"]+\.css)"/g)].map((m) => m[1]),
  );
  add('initial css', entry.initial?.css);
  add('lazy js', entry.async?.js);
  add('lazy css', entry.async?.css);
  return rows;
}

/** What one page of an edition loads for its first render (the service names these files in the page). */
export interface PageRow {
  page: string;
  scripts: number;
  styles: number;
  /** gzip bytes of all its scripts and stylesheets. */
  gzip: number;
}

/**
 * Per page (each settings section, signed in, and each route), in the edition's default language: how many scripts
 * and stylesheets its first render loads, and their gzip bytes. Each script is a request and a task of the page.
 */
export function measurePages(dir: string, rows: SizeRow[]): PageRow[] {
  const chunks = JSON.parse(fs.readFileSync(path.join(dir, 'page-chunks.json'), 'utf8')) as PageChunks;
  const lang = /<html lang="([^"]+)"/.exec(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'))?.[1];
  const locale = normalizeLocale(lang) ?? 'zh_CN';
  // The manifest's paths and page-chunks.json's are both from the site root (`/static/…`).
  const gzip = new Map(rows.map((r) => [r.file, r.gzip]));
  const initial = rows.filter((r) => r.kind.startsWith('initial')).map((r) => r.file);
  const pages = [
    ...Object.keys(chunks.sections).map((key) => ({ page: `/users/settings/${key}`, signedIn: true })),
    ...chunks.routes.map((r) => ({ page: r.path, signedIn: false })),
  ];
  return pages.map(({ page, signedIn }) => {
    const files = [...initial, ...servedPage(chunks, page, locale, signedIn).files];
    return {
      page,
      scripts: files.filter((f) => f.endsWith('.js')).length,
      styles: files.filter((f) => f.endsWith('.css')).length,
      gzip: files.reduce((s, f) => s + (gzip.get(f) ?? 0), 0),
    };
  });
}

/** Brotli size of a file: its pre-compressed `.br` sibling when the build wrote one, else compressed now. */
function brotliSize(file: string, buf: Buffer): number {
  return fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : brotliCompressSync(buf).length;
}

/** The chunk's readable name: file name without folder and content hash. */
export function chunkName(file: string): string {
  return path.basename(file).replace(/\.[0-9a-f]{8}\.(js|css)$/, '.$1');
}

/** Budget violations of one edition's rows, as sentences. */
export function overBudget(edition: string, rows: SizeRow[]): string[] {
  const problems: string[] = [];
  const initialJs = rows.filter((r) => r.kind === 'initial js').reduce((s, r) => s + r.gzip, 0);
  if (initialJs > SIZE_BUDGETS.initialJsGzip) {
    problems.push(`${edition}: initial JS ${kb(initialJs)} gzip exceeds ${kb(SIZE_BUDGETS.initialJsGzip)}`);
  }
  for (const r of rows) {
    if (r.kind === 'lazy js' && r.gzip > SIZE_BUDGETS.lazyChunkGzip) {
      problems.push(`${edition}: ${chunkName(r.file)} ${kb(r.gzip)} gzip exceeds ${kb(SIZE_BUDGETS.lazyChunkGzip)}`);
    }
  }
  return problems;
}

function kb(n: number): string {
  return `${(n / 1024).toFixed(1)} KB`;
}

function main() {
  const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
  const editions = fs.existsSync(dist)
    ? fs.readdirSync(dist).filter((d) => fs.existsSync(path.join(dist, d, 'page-chunks.json')))
    : [];
  if (!editions.length) {
    console.error(`no built edition under ${dist}: run npm run build first`);
    process.exit(1);
  }
  const problems: string[] = [];
  for (const ed of editions.sort()) {
    const rows = measureEdition(dist, ed);
    const sum = (kind: SizeRow['kind'], key: 'raw' | 'gzip' | 'br') =>
      rows.filter((r) => r.kind === kind).reduce((s, r) => s + (r[key] ?? 0), 0);
    console.log(`\n${ed}`);
    console.log(`  ${'kind'.padEnd(12)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}  chunk`);
    for (const r of rows) {
      const br = r.br === undefined ? '' : ` (br ${kb(r.br)})`;
      console.log(
        `  ${r.kind.padEnd(12)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)}  ${chunkName(r.file)}${br}`,
      );
    }
    console.log(
      `  ${'INITIAL JS'.padEnd(12)} ${kb(sum('initial js', 'raw')).padStart(10)} ${kb(sum('initial js', 'gzip')).padStart(10)}  (budget ${kb(SIZE_BUDGETS.initialJsGzip)} gzip)`,
    );
    // antd's stylesheet of the edition's theme (scripts/lib/antd-sheet.ts) and ours.
    console.log(
      `  ${'INITIAL CSS'.padEnd(12)} ${kb(sum('initial css', 'raw')).padStart(10)} ${kb(sum('initial css', 'gzip')).padStart(10)}  (br ${kb(sum('initial css', 'br'))})`,
    );
    console.log(`  ${'page'.padEnd(42)} ${'scripts'.padStart(7)} ${'styles'.padStart(6)} ${'gzip'.padStart(10)}`);
    for (const p of measurePages(path.join(dist, ed), rows)) {
      console.log(
        `  ${p.page.padEnd(42)} ${String(p.scripts).padStart(7)} ${String(p.styles).padStart(6)} ${kb(p.gzip).padStart(10)}`,
      );
    }
    problems.push(...overBudget(ed, rows));
  }
  if (problems.length) {
    console.error(`\nsize budget exceeded:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`\nall ${editions.length} edition(s) within budget`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();

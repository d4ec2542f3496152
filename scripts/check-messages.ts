// `npm run check:messages`: every web message exists in zh_CN and en_US, is non-empty, and is used in code;
// every server catalogue (the core's and each slice's `server/messages.ts`) has the same non-empty codes in
// both languages, with the same placeholders, and no code is defined twice.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A folder holding `zh_CN.json` and `en_US.json` for one part of the web app. */
export interface Catalogue {
  dir: string;
  zh: Record<string, string>;
  en: Record<string, string>;
}

const CODE_DIRS = ['src', 'plugins'];
const SKIP = new Set(['node_modules', 'dist', '.generated', 'server']);

function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Finds the web catalogues (`messages/` folders outside any server folder). */
export function findCatalogues(root: string): Catalogue[] {
  const files = CODE_DIRS.flatMap((d) => walk(path.join(root, d)));
  const dirs = [...new Set(files.filter((f) => /[\\/]messages[\\/](zh_CN|en_US)\.json$/.test(f)).map(path.dirname))];
  return dirs.sort().map((dir) => {
    const read = (l: string) =>
      fs.existsSync(path.join(dir, `${l}.json`))
        ? (JSON.parse(fs.readFileSync(path.join(dir, `${l}.json`), 'utf8')) as Record<string, string>)
        : {};
    return { dir: path.relative(root, dir), zh: read('zh_CN'), en: read('en_US') };
  });
}

/** Problems of the catalogues against the code that uses them; empty means all good. */
export function checkMessages(root: string): string[] {
  const problems: string[] = [];
  const code = CODE_DIRS.flatMap((d) => walk(path.join(root, d)))
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
  const owner = new Map<string, string>();
  for (const c of findCatalogues(root)) {
    for (const k of Object.keys(c.zh)) if (!(k in c.en)) problems.push(`${c.dir}: "${k}" is missing in en_US`);
    for (const k of Object.keys(c.en)) if (!(k in c.zh)) problems.push(`${c.dir}: "${k}" is missing in zh_CN`);
    for (const [l, cat] of [
      ['zh_CN', c.zh],
      ['en_US', c.en],
    ] as const) {
      for (const [k, v] of Object.entries(cat)) if (!v.trim()) problems.push(`${c.dir}: "${k}" is empty in ${l}`);
    }
    const pluginId = c.dir.startsWith('plugins') ? c.dir.split(/[\\/]/)[1] : undefined;
    for (const k of new Set([...Object.keys(c.zh), ...Object.keys(c.en)])) {
      if (owner.has(k)) problems.push(`${c.dir}: "${k}" is also defined in ${owner.get(k)}`);
      owner.set(k, c.dir);
      if (pluginId && !k.startsWith(`${pluginId}.`)) problems.push(`${c.dir}: "${k}" must start with "${pluginId}."`);
      if (!code.includes(`'${k}'`) && !code.includes(`"${k}"`) && !code.includes(`\`${k}\``)) {
        problems.push(`${c.dir}: "${k}" is not used in any .ts/.tsx file`);
      }
    }
  }
  return problems;
}

/** One server error catalogue: the core's or a slice's, both languages. */
export interface ServerCatalogue {
  /** Where it is defined (for messages). */
  name: string;
  en_US: Record<string, string>;
  zh_CN: Record<string, string>;
}

/** Loads the core server catalogue and every slice's `plugins/<id>/server/messages.ts` (export `messages`). */
export async function loadServerCatalogues(root: string): Promise<ServerCatalogue[]> {
  const load = async (file: string) =>
    (await import(pathToFileURL(path.join(root, file)).href)) as Record<string, unknown>;
  const { en_US } = (await load('server/i18n/en_US.ts')) as { en_US: Record<string, string> };
  const { zh_CN } = (await load('server/i18n/zh_CN.ts')) as { zh_CN: Record<string, string> };
  const out: ServerCatalogue[] = [{ name: 'server/i18n', en_US, zh_CN }];
  const pluginsDir = path.join(root, 'plugins');
  for (const id of fs.readdirSync(pluginsDir).sort()) {
    const file = path.join('plugins', id, 'server', 'messages.ts');
    if (!fs.existsSync(path.join(root, file))) continue;
    const { messages } = (await load(file)) as { messages?: Omit<ServerCatalogue, 'name'> };
    if (!messages) throw new Error(`${file} must export \`messages\` (defineServerMessages)`);
    out.push({ name: file, en_US: messages.en_US, zh_CN: messages.zh_CN });
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{(\w+)\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

/** Problems of server catalogues: codes missing or empty in a language, placeholders that differ, codes defined twice. */
export function checkServerCatalogues(catalogues: readonly ServerCatalogue[]): string[] {
  const problems: string[] = [];
  const owner = new Map<string, string>();
  for (const c of catalogues) {
    for (const k of Object.keys(c.en_US)) if (!(k in c.zh_CN)) problems.push(`${c.name}: "${k}" is missing in zh_CN`);
    for (const k of Object.keys(c.zh_CN)) if (!(k in c.en_US)) problems.push(`${c.name}: "${k}" is missing in en_US`);
    for (const [l, cat] of [
      ['zh_CN', c.zh_CN],
      ['en_US', c.en_US],
    ] as const) {
      for (const [k, v] of Object.entries(cat))
        if (typeof v !== 'string' || !v.trim()) problems.push(`${c.name}: "${k}" is empty in ${l}`);
    }
    for (const k of Object.keys(c.en_US)) {
      if (typeof c.zh_CN[k] === 'string' && placeholders(c.en_US[k]) !== placeholders(c.zh_CN[k]))
        problems.push(`${c.name}: "${k}" has different {placeholders} in zh_CN and en_US`);
      const other = owner.get(k);
      if (other) problems.push(`${c.name}: "${k}" is also defined in ${other}`);
      owner.set(k, c.name);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const serverCatalogues = await loadServerCatalogues(process.cwd());
  const problems = [...checkMessages(process.cwd()), ...checkServerCatalogues(serverCatalogues)];
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`${problems.length} message problem(s)`);
    process.exit(1);
  }
  console.log(
    `messages ok: ${findCatalogues(process.cwd()).length} web and ${serverCatalogues.length} server catalogues, zh_CN and en_US in step`,
  );
}

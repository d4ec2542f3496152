// `npm run check:messages`: every web message exists in zh_CN and en_US, is non-empty, and is used in code.
import fs from 'node:fs';
import path from 'node:path';

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkMessages(process.cwd());
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`${problems.length} message problem(s)`);
    process.exit(1);
  }
  console.log(`messages ok: ${findCatalogues(process.cwd()).length} catalogues, zh_CN and en_US in step`);
}

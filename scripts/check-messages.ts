// `npm run check:messages`: every web message exists in zh_CN and en_US, is non-empty, and is used in code;
// every server catalogue (the core's and each slice's `server/messages.ts`) has the same non-empty codes in
// both languages, with the same placeholders, and no code is defined twice; every text (web, server, inbox)
// keeps the glossary (schemas/glossary.ts): no refused variant of a term, sizes as "1 MB", English in sentence case.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BAD_SIZE, CAPITALIZED_ALLOWED, GLOSSARY, type ForbiddenVariant } from '../schemas/glossary';

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

/** One user-visible text, where it is defined and in which language. */
export interface CopyText {
  /** The file that defines it. */
  where: string;
  /** The message key, error code or inbox message part. */
  key: string;
  locale: 'zh_CN' | 'en_US';
  text: string;
}

/** A message as a tree: literal text, a placeholder, or a choice (ICU select/plural) between branches. */
type IcuNode = string | { arg: true } | { branches: IcuNode[][] };

const ARG = '\u00a7'; // a placeholder's value, in the texts the glossary check reads

/** Parses the ICU subset the catalogues use ({arg}, {arg, plural|select, k {…}}, #, <tag>…</tag>). */
function parseIcu(text: string): IcuNode[] {
  let i = 0;
  const nodes = (inBranch: boolean): IcuNode[] => {
    const out: IcuNode[] = [];
    while (i < text.length) {
      const c = text[i];
      if (c === '}' && inBranch) return out;
      if (c !== '{') {
        out.push(c === '#' && inBranch ? '1' : c);
        i++;
        continue;
      }
      const head = /^\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?(,|\})/.exec(text.slice(i));
      if (!head) {
        out.push(c);
        i++;
        continue;
      }
      i += head[0].length;
      if (head[3] === '}') {
        out.push({ arg: true });
        continue;
      }
      if (!/^(plural|select|selectordinal)$/.test(head[2] ?? '')) {
        // {n, number, …}: skip to the matching brace
        for (let depth = 1; i < text.length && depth; i++) depth += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0;
        out.push({ arg: true });
        continue;
      }
      const branches: IcuNode[][] = [];
      for (;;) {
        const sel = /^\s*(?:offset:\d+\s*)?([^\s{}]+)\s*\{/.exec(text.slice(i));
        if (!sel) break;
        i += sel[0].length;
        branches.push(nodes(true));
        i++; // the branch's closing brace
      }
      i = text.indexOf('}', i) + 1 || text.length;
      out.push({ branches });
    }
    return out;
  };
  return nodes(false);
}

/** Every reading of a message (one per combination of branches, at most 32), placeholders as one mark, tags dropped. */
export function readings(text: string): string[] {
  const expand = (list: IcuNode[]): string[] =>
    list.reduce<string[]>(
      (acc, n) => {
        const parts = typeof n === 'string' ? [n] : 'arg' in n ? [ARG] : n.branches.flatMap(expand);
        return acc.flatMap((a) => parts.map((p) => a + p)).slice(0, 32);
      },
      [''],
    );
  return [...new Set(expand(parseIcu(text)).map((r) => r.replace(/<\/?\w+>/g, '')))];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ALLOWED = new RegExp(
  [...CAPITALIZED_ALLOWED]
    .sort((a, b) => b.length - a.length)
    .map((w) => `(?<![\\w-])${escapeRe(w)}(?![\\w-])`)
    .join('|'),
  'g',
);

/** The first word of an English reading that breaks sentence case (capitalised mid-sentence, not allowed), if any. */
export function sentenceCaseBreak(reading: string): string | undefined {
  const text = reading.replace(ALLOWED, ARG);
  for (const m of text.matchAll(/[A-Za-z][A-Za-z0-9'’-]*/g)) {
    const word = m[0];
    // lower case, "I", an acronym (SSH, LDAP) or a code with digits (key material, SHA256) is not a case question
    if (!/^[A-Z]/.test(word) || word === 'I' || /^[A-Z][A-Z0-9-]+$/.test(word) || /\d/.test(word)) continue;
    const before = text.slice(0, m.index).replace(/[\s"“‘'([]+$/, '');
    if (before === '' || /[.!?:…\n]$/.test(before)) continue;
    return word;
  }
  return undefined;
}

/** Glossary problems of texts: refused variants of a term, sizes like "1M", English words capitalised mid-sentence. */
export function checkGlossary(texts: readonly CopyText[]): string[] {
  const problems: string[] = [];
  const refusedEn = GLOSSARY.flatMap((t) => t.avoidEn ?? []);
  const refusedZh = GLOSSARY.flatMap((t) => t.avoidZh ?? []);
  for (const { where, key, locale, text } of texts) {
    const all = readings(text);
    const refused: ForbiddenVariant[] = [...(locale === 'en_US' ? refusedEn : refusedZh), BAD_SIZE];
    for (const v of refused) {
      const hit = all.map((r) => v.pattern.exec(r)).find(Boolean);
      if (hit) problems.push(`${where}: "${key}" (${locale}) says "${hit[0]}": write ${v.use} (schemas/glossary.ts)`);
    }
    if (locale === 'en_US') {
      const word = all.map(sentenceCaseBreak).find(Boolean);
      if (word)
        problems.push(
          `${where}: "${key}" (${locale}) capitalises "${word}" mid-sentence: use sentence case, or allow the name in schemas/glossary.ts`,
        );
    }
  }
  return [...new Set(problems)];
}

/** The texts of the web catalogues and the server catalogues, for the glossary check. */
export function catalogueTexts(web: readonly Catalogue[], server: readonly ServerCatalogue[]): CopyText[] {
  const out: CopyText[] = [];
  for (const c of web)
    for (const [locale, cat] of [
      ['zh_CN', c.zh],
      ['en_US', c.en],
    ] as const)
      for (const [key, text] of Object.entries(cat))
        out.push({ where: path.join(c.dir, `${locale}.json`), key, locale, text });
  for (const c of server)
    for (const locale of ['zh_CN', 'en_US'] as const)
      for (const [key, text] of Object.entries(c[locale])) out.push({ where: c.name, key, locale, text });
  return out;
}

/** Sample events the inbox texts are rendered from: every branch a text has (lock kinds, recovery, empty list). */
const SAMPLE_EVENTS: readonly Record<string, unknown>[] = (() => {
  // what a user typed or an organization is called stands as a placeholder, as in a catalogue message
  const base = {
    name: ARG,
    expiresAt: Date.UTC(2030, 0, 2),
    until: Date.UTC(2030, 0, 2),
    fingerprint: ARG,
    email: ARG,
    address: ARG,
    browser: { name: 'Chrome', version: '131', os: 'Windows' },
    org: ARG,
    cidrs: [ARG],
    how: 'settings',
    sessions: 2,
    credentials: [
      { credential: 'token', count: 3 },
      { credential: 'packages-password', count: 1 },
    ],
    locked: false,
    oldStopsAt: Date.UTC(2030, 0, 2),
    dropped: [ARG],
  };
  return [
    {},
    { oldStopsAt: null, dropped: [] },
    { how: 'recovery' },
    { lock: 'marked' },
    { lock: 'unmarked' },
    { cidrs: [], browser: {} },
    { locked: true, credentials: [{ credential: 'other', count: 1 }] },
  ].map((v) => ({
    ...base,
    ...v,
  }));
})();

/** The inbox's texts (plugins/notifications/server/texts.ts) rendered from sample events; an admin's notice is skipped. */
export async function inboxTexts(root: string): Promise<CopyText[]> {
  const where = path.join('plugins', 'notifications', 'server', 'texts.ts');
  if (!fs.existsSync(path.join(root, where))) return [];
  type Render = (e: Record<string, unknown>) => { title: string; body: string };
  const { MESSAGE_KINDS } = (await import(pathToFileURL(path.join(root, where)).href)) as {
    MESSAGE_KINDS: Record<string, { text: Record<'zh_CN' | 'en_US', Render> }>;
  };
  const out = new Map<string, CopyText>();
  for (const [type, kind] of Object.entries(MESSAGE_KINDS)) {
    if (type === 'org.notice') continue;
    for (const locale of ['zh_CN', 'en_US'] as const)
      for (const e of SAMPLE_EVENTS) {
        const { title, body } = kind.text[locale](e);
        for (const [part, text] of [
          ['title', title],
          ['body', body],
        ] as const)
          out.set(`${type}.${part}.${locale}.${text}`, { where, key: `${type} ${part}`, locale, text });
      }
  }
  return [...out.values()];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const serverCatalogues = await loadServerCatalogues(process.cwd());
  const problems = [
    ...checkMessages(process.cwd()),
    ...checkServerCatalogues(serverCatalogues),
    ...checkGlossary([
      ...catalogueTexts(findCatalogues(process.cwd()), serverCatalogues),
      ...(await inboxTexts(process.cwd())),
    ]),
  ];
  if (problems.length) {
    console.error(problems.join('\n'));
    console.error(`${problems.length} message problem(s)`);
    process.exit(1);
  }
  console.log(
    `messages ok: ${findCatalogues(process.cwd()).length} web and ${serverCatalogues.length} server catalogues, zh_CN and en_US in step`,
  );
}

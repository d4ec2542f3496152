// Which lazy chunks each page of an edition loads for its first render, written by the build as
// `page-chunks.json` beside index.html. The service names them in the page (server/html/page-chunks.ts), so the
// browser fetches them while it parses the document instead of the app asking for them one by one from its first
// script (a script element the app adds costs about 1 ms of main-thread time each, and a page needs 20–35).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Rspack } from '@rsbuild/core';
import type { PageChunks } from '../../schemas/page-chunks';

/** The chunk names a plugin's definition (`plugins/<id>/index.ts`) gives its lazy modules. */
export interface PluginChunkNames {
  routes: { path: string; frame: 'app' | 'bare'; chunk: string }[];
  sections: { key: string; chunk: string }[];
  headerItems: string[];
  stores: string[];
}

const CHUNK_NAME = /webpackChunkName:\s*["']([^"']+)["']/;

/** The name in `import(/* webpackChunkName: "…" *\/ …)` within `node`, or in the function an identifier names. */
function chunkOf(node: ts.Expression, file: ts.SourceFile, consts: Map<string, ts.Expression>): string {
  const target = ts.isIdentifier(node) ? consts.get(node.text) : node;
  let name: string | undefined;
  const visit = (n: ts.Node): void => {
    if (name) return;
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0]) {
      const arg = n.arguments[0];
      const comments = file.text.slice(n.arguments.pos, arg.getStart(file));
      name = CHUNK_NAME.exec(comments)?.[1];
      if (!name) throw new Error(`${file.fileName}: import(${arg.getText(file)}) names no webpackChunkName`);
      return;
    }
    ts.forEachChild(n, visit);
  };
  if (target) visit(target);
  if (!name) throw new Error(`${file.fileName}: no import() found for ${node.getText(file)}`);
  return name;
}

const prop = (o: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined => {
  for (const p of o.properties) if (ts.isPropertyAssignment(p) && p.name.getText() === key) return p.initializer;
  return undefined;
};
const stringProp = (o: ts.ObjectLiteralExpression, key: string): string | undefined => {
  const v = prop(o, key);
  return v && ts.isStringLiteralLike(v) ? v.text : undefined;
};
/** The property an array element or value sits under (`settingsSections: [ {…} ]` → settingsSections). */
function ownerProperty(node: ts.Node): string | undefined {
  let n: ts.Node | undefined = node.parent;
  while (n && (ts.isArrayLiteralExpression(n) || ts.isParenthesizedExpression(n))) n = n.parent;
  return n && ts.isPropertyAssignment(n) ? n.name.getText() : undefined;
}

/**
 * Reads the chunk names of a plugin's routes, settings sections, header items and stores from its definition's
 * source. Every loader must name its chunk (the build fails otherwise), which the code base does throughout.
 */
export function pluginChunkNames(indexFile: string): PluginChunkNames {
  const file = ts.createSourceFile(indexFile, fs.readFileSync(indexFile, 'utf8'), ts.ScriptTarget.Latest, true);
  const consts = new Map<string, ts.Expression>();
  const out: PluginChunkNames = { routes: [], sections: [], headerItems: [], stores: [] };
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) consts.set(n.name.text, n.initializer);
    ts.forEachChild(n, visit);
  };
  visit(file);
  const collect = (n: ts.Node): void => {
    if (ts.isObjectLiteralExpression(n)) {
      const load = prop(n, 'load');
      const owner = ownerProperty(n);
      if (load) {
        const routePath = stringProp(n, 'path');
        const key = stringProp(n, 'key');
        if (routePath !== undefined) {
          const frame = stringProp(n, 'frame') === 'bare' ? 'bare' : 'app';
          out.routes.push({ path: routePath, frame, chunk: chunkOf(load, file, consts) });
        } else if (owner === 'settingsSections' && key !== undefined) {
          out.sections.push({ key, chunk: chunkOf(load, file, consts) });
        } else if (owner === 'headerItems') {
          out.headerItems.push(chunkOf(load, file, consts));
        }
      }
      if (owner === 'stores') {
        for (const p of n.properties)
          if (ts.isPropertyAssignment(p)) out.stores.push(chunkOf(p.initializer, file, consts));
      }
    }
    ts.forEachChild(n, collect);
  };
  collect(file);
  out.stores = [...new Set(out.stores)];
  return out;
}

/** The lazy files of each named chunk group (import() with a webpackChunkName), from the build's stats. */
export function chunkGroupFiles(stats: Rspack.Stats): Record<string, string[]> {
  const json = stats.toJson({ all: false, chunkGroups: true, entrypoints: true, publicPath: true });
  const prefix = (json.publicPath ?? '/').replace(/\/?$/, '/');
  const initial = new Set(Object.values(json.entrypoints ?? {}).flatMap((e) => (e.assets ?? []).map((a) => a.name)));
  const out: Record<string, string[]> = {};
  for (const [name, group] of Object.entries(json.namedChunkGroups ?? {})) {
    out[name] = (group.assets ?? [])
      .map((a) => a.name)
      .filter((f) => /\.(js|css)$/.test(f) && !initial.has(f))
      .map((f) => prefix + f);
  }
  return out;
}

/** The page lists of an edition from its plugins' chunk names and the build's chunk groups. */
export function pageChunks(
  plugins: { id: string; names: PluginChunkNames }[],
  groups: Record<string, string[]>,
): PageChunks {
  const files = (...names: string[]) => [...new Set(names.flatMap((n) => groups[n] ?? []))];
  const header = plugins.flatMap((p) => p.names.headerItems);
  // A plugin's page also loads its stylesheet (the `plugin-<id>` group) and, as it renders, its stores.
  const pluginExtras = (p: { id: string; names: PluginChunkNames }) => [`plugin-${p.id}`, ...p.names.stores];
  return {
    common: files('antd-root'),
    locales: { zh_CN: files('locale-zh', 'dayjs'), en_US: files('antd-locale-en', 'dayjs') },
    settings: files('shell-settings', ...header),
    routes: plugins.flatMap((p) =>
      p.names.routes.map((r) => ({
        path: r.path,
        files: files(...(r.frame === 'app' ? ['shell-frame', ...header] : []), r.chunk, ...pluginExtras(p)),
      })),
    ),
    sections: Object.fromEntries(
      plugins.flatMap((p) => p.names.sections.map((s) => [s.key, files(s.chunk, ...pluginExtras(p))])),
    ),
  };
}

/** An rspack plugin writing the edition's `page-chunks.json` into its output folder once the build is done. */
export class PageChunksPlugin {
  constructor(private readonly plugins: { id: string; indexFile: string }[]) {}

  apply(compiler: Rspack.Compiler): void {
    const names = this.plugins.map((p) => ({ id: p.id, names: pluginChunkNames(p.indexFile) }));
    compiler.hooks.done.tap('PageChunksPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const out = compiler.options.output.path;
      if (!out) return;
      fs.mkdirSync(out, { recursive: true });
      const chunks = pageChunks(names, chunkGroupFiles(stats));
      fs.writeFileSync(path.join(out, 'page-chunks.json'), `${JSON.stringify(chunks, null, 1)}\n`);
    });
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { EditionManifest } from '../../schemas/edition';
import type { PluginPages } from './page-chunks';
import { listEditionIds, loadAllEditions } from '../../server/edition/loader';

/** Where the build reads editions from and writes bundles to; overridable for tests. */
export interface EditionBuildPaths {
  root: string;
  editionsDir: string;
  pluginsDir: string;
  distDir: string;
  generatedDir: string;
}

/** Paths of this checkout, with `EDITIONS_DIR` / `DIST_DIR` overrides (used by the sixth-edition test). */
export function editionBuildPaths(root: string, env: NodeJS.ProcessEnv = process.env): EditionBuildPaths {
  const editionsDir = path.resolve(root, env.EDITIONS_DIR ?? 'editions');
  const distDir = path.resolve(root, env.DIST_DIR ?? 'dist');
  return {
    root,
    editionsDir,
    pluginsDir: path.join(root, 'plugins'),
    distDir,
    generatedDir: path.join(root, '.generated', path.basename(path.dirname(distDir)) + '-' + path.basename(distDir)),
  };
}

/** The URL a manifest asset is served at inside one edition's bundle. */
export function assetUrl(rel: string): string {
  return '/edition/' + rel.replace(/^assets\//, '');
}

/** The manifest as the web bundle sees it: asset paths turned into served URLs. */
export function toWebEdition(m: EditionManifest): EditionManifest {
  return {
    ...m,
    brand: { ...m.brand, logo: assetUrl(m.brand.logo), favicon: m.brand.favicon && assetUrl(m.brand.favicon) },
    names: {
      ...m.names,
      variants: Object.fromEntries(
        Object.entries(m.names.variants ?? {}).map(([k, v]) => [k, { ...v, logo: v.logo && assetUrl(v.logo) }]),
      ),
    },
    appSwitcher: m.appSwitcher.map((a) => ({ ...a, logo: assetUrl(a.logo) })),
  };
}

/** Every asset file one manifest references, relative to the editions folder. */
export function referencedAssets(m: EditionManifest): string[] {
  const all = [m.brand.logo, m.brand.favicon, ...m.appSwitcher.map((a) => a.logo)];
  for (const v of Object.values(m.names.variants ?? {})) all.push(v.logo);
  return [...new Set(all.filter((x): x is string => !!x))];
}

/**
 * Reads a plugin's page declarations from its definition (its `index.ts` holds only data and lazy loaders, so importing
 * it runs no page code). `__EDITION__` is set to the edition being built, as the bundle's define would, since a
 * definition may depend on it (the global edition's second sign-in path).
 */
export async function readPluginPages(
  paths: EditionBuildPaths,
  id: string,
  edition: EditionManifest,
): Promise<PluginPages> {
  (globalThis as { __EDITION__?: unknown }).__EDITION__ = toWebEdition(edition);
  const mod = (await tsImport(pathToFileURL(path.join(paths.pluginsDir, id, 'index.ts')).href, import.meta.url)) as {
    default: Partial<Omit<PluginPages, 'id'>> & { settingsSections?: PluginPages['sections'] };
  };
  const def = mod.default;
  const pick = <T extends object, K extends keyof T>(o: T, keys: K[]) =>
    Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Pick<T, K>;
  return {
    id,
    routes: (def.routes ?? []).map((r) => pick(r, ['path', 'frame', 'chunks', 'firstScreen'])),
    sections: (def.settingsSections ?? []).map((s) => pick(s, ['key', 'chunks', 'firstScreen'])),
    headerItems: (def.headerItems ?? []).map((h) => pick(h, ['chunks'])),
  };
}

/**
 * The plugins an edition's bundle contains: the manifest's list, less the plugins that contribute only settings
 * sections none of which the edition's menu lists (they could never be shown, so none of their code ships).
 */
export async function bundledPlugins(
  m: EditionManifest,
  paths: EditionBuildPaths,
): Promise<{ included: PluginPages[]; leftOut: string[] }> {
  const menu = new Set(m.settingsMenu.map((e) => e.key));
  const included: PluginPages[] = [];
  const leftOut: string[] = [];
  for (const id of m.plugins) {
    const p = await readPluginPages(paths, id, m);
    const unreachable = p.routes.length === 0 && p.sections.length > 0 && !p.sections.some((s) => menu.has(s.key));
    if (unreachable) leftOut.push(id);
    else included.push(p);
  }
  return { included, leftOut };
}

/** The generated entry modules of one edition (`writeEditionEntries`). */
export interface EditionEntries {
  /** The browser's: the edition's data, our global styles, then the app started with its plugins. */
  web: string;
  /** The service's renderer of first screens: the edition's data, then `renderPage` over its plugins. */
  server: string;
}

/**
 * Writes an edition's entry modules: all that differs between editions' bundles. Each first imports `edition.ts`,
 * which sets the edition's manifest as `globalThis.__EDITION__` (src/core/edition.ts reads it), so every module after
 * it sees the edition; then the plugins the edition bundles, in manifest order. One compile builds every edition's
 * entries; the code they share is built once.
 */
export function writeEditionEntries(m: EditionManifest, paths: EditionBuildPaths, plugins: string[]): EditionEntries {
  const dir = path.join(paths.generatedDir, m.id);
  fs.mkdirSync(dir, { recursive: true });
  const rel = (to: string) => {
    const r = path.relative(dir, to).split(path.sep).join('/');
    return r.startsWith('.') ? r : `./${r}`;
  };
  const write = (name: string, lines: string[]) => {
    const file = path.join(dir, name);
    const text = `// Generated by scripts/lib/edition-build.ts for the ${m.id} edition: do not edit.\n${lines.join('\n')}\n`;
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
    return file;
  };
  write('edition.ts', [`globalThis.__EDITION__ = ${JSON.stringify(toWebEdition(m))};`]);
  const imports = plugins.map((p, i) => `import p${i} from '${rel(path.join(paths.pluginsDir, p, 'index'))}';`);
  const list = `[${plugins.map((_p, i) => `p${i}`).join(', ')}]`;
  const src = (f: string) => rel(path.join(paths.root, 'src/app', f));
  return {
    web: write('web.ts', [
      `import './edition';`,
      `import '${src('global.css')}';`,
      `import { start } from '${src('start')}';`,
      ...imports,
      `void start(${list});`,
    ]),
    server: write('server.ts', [
      `import './edition';`,
      `import { pageRenderer } from '${src('server')}';`,
      ...imports,
      `export const renderPage = pageRenderer(${list});`,
    ]),
  };
}

/** Loads and validates the editions to build; `only` narrows to the ids asked for. */
export function editionsToBuild(paths: EditionBuildPaths, only?: string[]): EditionManifest[] {
  const all = loadAllEditions({ editionsDir: paths.editionsDir, pluginsDir: paths.pluginsDir, root: paths.root });
  if (!only?.length) return all;
  const known = listEditionIds(paths.editionsDir);
  const unknown = only.filter((id) => !known.includes(id));
  if (unknown.length) throw new Error(`unknown edition(s): ${unknown.join(', ')} (known: ${known.join(', ')})`);
  return all.filter((m) => only.includes(m.id));
}

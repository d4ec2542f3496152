// Which lazy chunks each page of an edition loads for its first render, and which pages the service renders, written
// by the build as `page-chunks.json` beside the edition's index.html from the plugins' own page declarations. The service names the
// files in the page (server/html/page-chunks.ts), so the browser fetches them while it parses the document.
import fs from 'node:fs';
import path from 'node:path';
import type { Rspack } from '@rsbuild/core';
import type { PageChunks } from '../../schemas/page-chunks';

/** A plugin's pages as its definition declares them (`plugins/<id>/index.ts`; src/core/plugin.ts `PageDeclaration`). */
export interface PluginPages {
  id: string;
  routes: { path: string; frame?: 'app' | 'bare'; chunks?: string[]; firstScreen?: boolean }[];
  sections: { key: string; chunks?: string[]; firstScreen?: boolean }[];
  headerItems: { chunks?: string[] }[];
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
      .filter((f) => /\.(js|css)$/.test(f) && !f.includes('.hot-update.') && !initial.has(f))
      .map((f) => prefix + f);
  }
  return out;
}

/**
 * The page lists of an edition from its plugins' declarations and the build's chunk groups; a declared chunk the
 * build did not make (a typo, or a loader renamed) fails the build.
 */
export function pageChunks(plugins: PluginPages[], groups: Record<string, string[]>): PageChunks {
  const files = (...names: string[]) => [
    ...new Set(
      names.flatMap((n) => {
        if (!groups[n]) throw new Error(`page-chunks: no chunk named "${n}" (declared by a plugin's page)`);
        return groups[n];
      }),
    ),
  ];
  const header = plugins.flatMap((p) => p.headerItems.flatMap((h) => h.chunks ?? []));
  return {
    common: files('antd-root'),
    locales: { zh_CN: files('locale-zh', 'dayjs'), en_US: files('antd-locale-en', 'dayjs') },
    settings: files('shell-settings', ...header),
    routes: plugins.flatMap((p) =>
      p.routes.map((r) => ({
        path: r.path,
        files: files(...(r.frame === 'bare' ? [] : ['shell-frame', ...header]), ...(r.chunks ?? [])),
        ...(r.firstScreen ? { firstScreen: true } : {}),
      })),
    ),
    sections: Object.fromEntries(plugins.flatMap((p) => p.sections.map((s) => [s.key, files(...(s.chunks ?? []))]))),
    firstScreenSections: plugins.flatMap((p) => p.sections.filter((s) => s.firstScreen).map((s) => s.key)),
    notFound: files('shell-not-found', ...header),
  };
}

/** An rspack plugin writing each edition's `<id>/page-chunks.json` into the output folder once the build is done. */
export class PageChunksPlugin {
  /** `plugins`: each edition's bundled plugins, by edition id (the edition's entry name). */
  constructor(private readonly plugins: Record<string, PluginPages[]>) {}

  apply(compiler: Rspack.Compiler): void {
    compiler.hooks.done.tap('PageChunksPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const out = compiler.options.output.path;
      if (!out) return;
      const groups = chunkGroupFiles(stats);
      for (const [id, plugins] of Object.entries(this.plugins)) {
        fs.mkdirSync(path.join(out, id), { recursive: true });
        const chunks = pageChunks(plugins, groups);
        fs.writeFileSync(path.join(out, id, 'page-chunks.json'), `${JSON.stringify(chunks, null, 1)}\n`);
      }
    });
  }
}

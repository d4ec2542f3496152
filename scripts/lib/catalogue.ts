import fs from 'node:fs';
import path from 'node:path';
import type { EditionBuildPaths } from './edition-build';
import { SUPPORTED_LOCALES } from '../../schemas/locale';
import { compileCatalogue } from './compile-messages';

/**
 * Writes `catalogue.<locale>.json` into an edition's output: the core's, the shell's and the bundled plugins'
 * messages merged, exactly what the app's loaders merge at run time, and compiled as the bundle's are
 * (compile-messages.ts). The service puts the one of the page's language into the page (no catalogue request before
 * the first render); the app still loads a switched-to language.
 */
export function writeCatalogues(paths: EditionBuildPaths, outDir: string, plugins: readonly string[]): void {
  for (const locale of SUPPORTED_LOCALES) {
    const sources = [
      path.join(paths.root, 'src/core/messages', `${locale}.json`),
      path.join(paths.root, 'src/shell/messages', `${locale}.json`),
      ...plugins.map((id) => path.join(paths.pluginsDir, id, 'messages', `${locale}.json`)),
    ].filter((f) => fs.existsSync(f));
    const merged: Record<string, string> = {};
    for (const f of sources) Object.assign(merged, JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, string>);
    fs.writeFileSync(path.join(outDir, `catalogue.${locale}.json`), JSON.stringify(compileCatalogue(merged, locale)));
  }
}

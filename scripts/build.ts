// `npm run build [-- --edition id[,id]]`: validate manifests, then ONE rsbuild run that compiles the app once with an
// entry per edition (rsbuild.config.ts), and the service compiled to JavaScript (dist/server/, what `npm start` runs).
// `--service`: the service alone.
import { createRsbuild, loadConfig } from '@rsbuild/core';
import { EditionError, formatProblem } from '../server/edition/loader';
import { bundledPlugins, editionBuildPaths, editionsToBuild } from './lib/edition-build';
import { writeCatalogues } from './lib/catalogue';
import { compressAssets } from './lib/compress-assets';
import { compileService } from './lib/compile-service';
import fs from 'node:fs';
import path from 'node:path';

/** Edition ids named on the command line by `--edition a` (repeatable, or comma separated). */
export function parseEditionArgs(argv: string[]): string[] {
  const ids: string[] = [];
  argv.forEach((a, i) => {
    if (a === '--edition' && argv[i + 1]) ids.push(...argv[i + 1].split(','));
    else if (a.startsWith('--edition=')) ids.push(...a.slice('--edition='.length).split(','));
  });
  return ids.filter(Boolean);
}

/** Compiles the service into the dist folder (`<dist>/server/`) and says where it went. */
async function buildService(root: string): Promise<void> {
  const service = await compileService(root, path.join(editionBuildPaths(root).distDir, 'server'));
  console.log(
    `service: ${service.inputs} modules compiled in ${service.seconds.toFixed(2)} s → ${path.relative(root, service.file)}`,
  );
}

async function main() {
  const root = process.cwd();
  if (process.argv.includes('--service')) return buildService(root);
  const only = parseEditionArgs(process.argv.slice(2));
  let ids: string[];
  try {
    ids = editionsToBuild(editionBuildPaths(root), only).map((m) => m.id);
  } catch (e) {
    if (e instanceof EditionError) {
      for (const p of e.problems) console.error(formatProblem(p));
      console.error('build stopped: edition manifests are invalid');
    } else console.error(`build stopped: ${(e as Error).message}`);
    process.exit(1);
  }
  process.env.EDITIONS = ids.join(',');
  // As rsbuild's build would set it, already while the config runs (antd's extractor: scripts/lib/antd-sheet.ts).
  process.env.NODE_ENV ??= 'production';
  const started = performance.now();
  const paths = editionBuildPaths(root);
  // A fresh dist/: the editions' folders, the shared static/, the renderers' .server/ (rsbuild cleans none, as one
  // environment's folder holds the other's).
  fs.rmSync(paths.distDir, { recursive: true, force: true });
  const { content } = await loadConfig({ cwd: root });
  const rsbuild = await createRsbuild({ cwd: root, rsbuildConfig: content, loadEnv: false });
  const result = await rsbuild.build();
  await result.close();
  console.log(`compiled in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  for (const m of editionsToBuild(paths, ids)) {
    writeCatalogues(
      paths,
      path.join(paths.distDir, m.id),
      (await bundledPlugins(m, paths)).included.map((p) => p.id),
    );
  }
  for (const dir of ['static', ...ids]) {
    const c = compressAssets(path.join(paths.distDir, dir));
    console.log(`${dir}: ${c.files} assets pre-compressed, ${kb(c.raw)} → br ${kb(c.br)}, gzip ${kb(c.gz)}`);
  }
  await buildService(root);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(
    `built ${ids.length} edition(s) [${ids.join(', ')}] in ${seconds} s → ${editionBuildPaths(root).distDir}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

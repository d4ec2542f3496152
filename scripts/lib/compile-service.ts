// The service compiled to plain JavaScript: what `npm start` runs with node (tsx stays for scripts and `npm run dev`).
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { serverPluginIds } from '../../server/plugin-loader';

/** The entry `npm start` imports (scripts/start.mjs, from `dist/server/`) and `node` can run as it is. */
export const SERVICE_ENTRY = 'start.js';
/** Beside the entry: the files it was compiled from, for npm start's staleness check. */
export const SERVICE_INPUTS = 'inputs.json';

/** What one compile made. */
export interface CompiledService {
  /** The entry file written. */
  file: string;
  /** Source files bundled into it. */
  inputs: number;
  /** Wall time of the compile. */
  seconds: number;
}

/** The namespace of the two modules the compile makes up (no file on disk: concurrent compiles cannot collide). */
const ENTRY = 'service-entry';

/**
 * The compiled service's entry modules. A bundle cannot import `plugins/<id>/server/index.ts` by a path computed at
 * run time, as server/plugin-loader.ts does from the sources: the `plugins` module imports every server slice by name
 * and hands them to the loader, and the entry imports it before the service's start module, so the slices are there
 * before anything runs (ES modules evaluate in import order).
 */
export function serviceEntryModules(root: string): { start: string; plugins: string } {
  const ids = serverPluginIds(path.join(root, 'plugins'));
  const plugins = [
    "import { provideServerPlugins } from './server/plugin-loader';",
    ...ids.map((id, i) => `import * as p${i} from './plugins/${id}/server/index';`),
    `provideServerPlugins({ ${ids.map((id, i) => `'${id}': p${i}`).join(', ')} });`,
  ];
  const start = [`import '${ENTRY}:plugins';`, "export * from './server/start';"];
  return { start: start.join('\n'), plugins: plugins.join('\n') };
}

/** esbuild plugin that answers the entry modules from memory, resolved as if they sat at the checkout's root. */
function entryModules(root: string): Plugin {
  const modules = serviceEntryModules(root);
  return {
    name: ENTRY,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${ENTRY}:`) }, (a) => ({ path: a.path, namespace: ENTRY }));
      b.onLoad({ filter: /.*/, namespace: ENTRY }, (a) => ({
        contents: a.path === `${ENTRY}:plugins` ? modules.plugins : modules.start,
        resolveDir: root,
        loader: 'ts',
      }));
    },
  };
}

/**
 * Compiles the service (server/, the plugins' server halves, schemas/) into one ES module, `<outDir>/start.js`
 * (`dist/server/` for npm start), with its source map. Packages stay imports from node_modules: the native ones
 * (better-sqlite3, sharp, @node-rs/argon2) cannot be bundled, and the others load as fast from there. Files the
 * service reads at run time (editions/, schemas/edition.schema.json, dist/<edition>/) are found from the checkout's
 * root (server/project-root.ts), so the compiled service runs from the checkout like its sources do.
 */
export async function compileService(root: string, outDir: string): Promise<CompiledService> {
  const started = performance.now();
  const file = path.join(outDir, SERVICE_ENTRY);
  const result = await build({
    entryPoints: [`${ENTRY}:start`],
    plugins: [entryModules(root)],
    outfile: file,
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith(`${ENTRY}:`));
  // The plugin folders too: a new slice (a new folder, or a new `server/` in one) changes their modification time.
  const folders = fs
    .readdirSync(path.join(root, 'plugins'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `plugins/${e.name}`);
  fs.writeFileSync(path.join(outDir, SERVICE_INPUTS), JSON.stringify({ inputs: [...inputs, 'plugins', ...folders] }));
  return { file, inputs: inputs.length, seconds: (performance.now() - started) / 1000 };
}

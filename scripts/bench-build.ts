// `npm run bench:build`: times the five-edition build and a single-edition build in the same run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');

/** Runs one build and returns its wall time in seconds. */
function timeBuild(args: string[]): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, [tsx, 'scripts/build.ts', ...args], { cwd: root, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`build ${args.join(' ')} failed (exit ${r.status})`);
  return (performance.now() - started) / 1000;
}

const single = process.env.BENCH_EDITION ?? 'global';
const rows: [string, number][] = [];
// Warm-up of every edition, so both measured builds see the same file-system cache and every theme's antd sheet is
// already made (each is made once, on the first build that needs it, and kept in .generated/antd/).
timeBuild([]);
rows.push([`single edition (${single})`, timeBuild(['--edition', single])]);
rows.push(['all editions', timeBuild([])]);
for (const [name, s] of rows) console.log(`${name.padEnd(28)} ${s.toFixed(2)} s`);

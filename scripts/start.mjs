// `npm start`: the compiled service (dist/server/start.js) run by node itself, so SIGINT and SIGTERM reach it.
// Plain JavaScript, since it runs before anything is built: compiles the service when it is missing or older than
// its sources, then the service checks the port, builds the edition when missing, migrates, seeds and listens.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const serviceDir = path.join(root, 'dist', 'server');
const entry = path.join(serviceDir, 'start.js');
const tsx = createRequire(import.meta.url).resolve('tsx/cli');

/**
 * True when the compiled service is missing or one of the files it was compiled from (listed by the compile in
 * inputs.json, scripts/lib/compile-service.ts) changed since, or is gone.
 * @returns {boolean}
 */
export function serviceIsStale() {
  let built;
  let inputs;
  try {
    built = fs.statSync(entry).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(path.join(serviceDir, 'inputs.json'), 'utf8')).inputs;
  } catch {
    return true;
  }
  return inputs.some((rel) => {
    try {
      return fs.statSync(path.join(root, rel)).mtimeMs > built;
    } catch {
      return true;
    }
  });
}

/**
 * Runs the build script (tsx) with these arguments; resolves true when it succeeded.
 * @param {string[]} args
 * @returns {Promise<boolean>}
 */
function build(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, path.join(root, 'scripts/build.ts'), ...args], {
      cwd: root,
      stdio: 'inherit',
    });
    // A stop during the build stops the build too.
    const stopChild = () => child.kill('SIGTERM');
    process.once('exit', stopChild);
    child.on('exit', (code) => {
      process.off('exit', stopChild);
      resolve(code === 0);
    });
  });
}

if (serviceIsStale()) {
  const r = spawnSync(process.execPath, [tsx, path.join(root, 'scripts/build.ts'), '--service'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const service = await import(pathToFileURL(entry).href);
await service.start({ buildEdition: (/** @type {string} */ id) => build(['--edition', id]) });

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileService } from './lib/compile-service';

// The compiled service as `npm start` runs it (node, no tsx), on a temporary database: a busy port is said in one line
// before anything is written, and SIGTERM stops it and frees its port. Compiled into a folder of the checkout (the
// service finds editions/ and schemas/ from there), not over dist/server.
const root = path.resolve(import.meta.dirname, '..');
let outDir = '';
let dataDir = '';
let entry = '';

beforeAll(async () => {
  fs.mkdirSync(path.join(root, '.generated'), { recursive: true });
  outDir = fs.mkdtempSync(path.join(root, '.generated', 'start-test-'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-data-'));
  entry = (await compileService(root, outDir)).file;
}, 60_000);

afterAll(() => {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the compiled service with this port and data folder; output is collected. */
function run(port: number, data: string): { child: ChildProcess; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: data, EDITION: 'vpc', LOG_LEVEL: 'warn' },
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return { child, out: () => out, err: () => err };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** Listens on a free loopback port and returns the server holding it. */
function hold(port = 0): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

describe('the compiled service (npm start)', () => {
  it('says in one line that the port is in use, exits 1 and seeds nothing', async () => {
    const busy = await hold();
    const port = (busy.address() as net.AddressInfo).port;
    const data = path.join(dataDir, 'busy');
    try {
      const { child, out, err } = run(port, data);
      expect(await exited(child)).toBe(1);
      expect(err().trim()).toBe(
        `port ${port} on 127.0.0.1 is in use: set PORT=… to a free port, or stop what holds it`,
      );
      expect(out()).not.toMatch(/password/i);
      // No database was created, so no demo user whose password nobody saw.
      expect(fs.existsSync(path.join(data, 'account.db'))).toBe(false);
    } finally {
      busy.close();
    }
  });

  it('starts, prints the demo account, and on SIGTERM stops and frees its port', async () => {
    const probe = await hold();
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const { child, out } = run(port, path.join(dataDir, 'run'));
    try {
      await expect.poll(out, { timeout: 20_000, interval: 50 }).toContain(`running at http://localhost:${port}`);
      // The lines come in separate writes: wait for the password's too.
      await expect.poll(out, { timeout: 5_000, interval: 50 }).toMatch(/username: +demo\n +password: +\S+/);
      const page = await fetch(`http://127.0.0.1:${port}/users/login`);
      // 200 with a built edition, 503 ("not built yet") in a tree without one: either way the service answered.
      expect([200, 503]).toContain(page.status);
      const stopped = Date.now();
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
      expect(Date.now() - stopped).toBeLessThan(2000);
      // The port is free: something else can listen on it.
      (await hold(port)).close();
    } finally {
      child.kill('SIGKILL');
    }
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../kit/server';

// kill -9 during writes, 20 times: the service runs as its own process on an SQLite file while eight writers post
// log entries; SIGKILL lands at a random moment. After every round the file passes `PRAGMA integrity_check` and
// holds every write the service acknowledged (204) — none lost. PostgreSQL's durability is PostgreSQL's own, so this
// runs on the SQLite file only.

const ROUNDS = 20;
const WRITERS = 8;
const CHILD = path.join(import.meta.dirname, 'crash-child.ts');
const DIST = path.join(import.meta.dirname, '../fixtures/server/web-dist');

describe.skipIf(!!process.env.DATABASE_URL)('kill -9 during writes', () => {
  const dataDir = tempDataDir('crash-');
  const output: string[] = [];
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const children = new Set<ChildProcess>();
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  /** Spawns a service process that loads its modules and waits; `run()` lets it open the file and listen. */
  function spawnChild(): { run: () => Promise<{ child: ChildProcess; port: number }> } {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, DATA_DIR: dataDir, DIST_DIR: DIST, TRUST_PROXY: 'loopback', PORT: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    let stdout = '';
    const said = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern}: ${output.slice(-5).join('')}`)), 30_000);
        const look = () => {
          const m = pattern.exec(stdout);
          if (m) {
            clearTimeout(timer);
            child.stdout!.off('data', look);
            resolve(m);
          }
        };
        child.stdout!.on('data', look);
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${output.slice(-5).join('')}`)));
        look();
      });
    child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
    child.stdout!.on('data', (b: Buffer) => {
      stdout += b.toString();
      output.push(b.toString());
    });
    const loaded = said(/^LOADED$/m);
    loaded.catch(() => {}); // a process that never runs (the last spare) is killed in afterAll
    return {
      run: async () => {
        await loaded;
        child.stdin!.write('go\n');
        const m = await said(/READY (\d+)/);
        return { child, port: Number(m[1]) };
      },
    };
  }

  function check(acked: ReadonlySet<string>) {
    const db = new Database(path.join(dataDir, 'account.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Set(
        (db.prepare('select entry from usage_logs').all() as Array<{ entry: string }>).map(
          (r) => (JSON.parse(r.entry) as { marker?: string }).marker,
        ),
      );
      return [...acked].filter((m) => !stored.has(m));
    } finally {
      db.close();
    }
  }

  it(`loses no acknowledged write over ${ROUNDS} SIGKILLs, and the file stays intact`, async () => {
    const acked = new Set<string>();
    let sent = 0;
    // Two spare processes load while a round runs (on 2 cores, starting is what the rounds wait for).
    const spares = [spawnChild(), spawnChild()];
    for (let round = 0; round < ROUNDS; round++) {
      const { child, port } = await spares.shift()!.run();
      if (round + spares.length + 1 < ROUNDS) spares.push(spawnChild());
      let running = true;
      const writer = async (w: number) => {
        for (let i = 0; running; i++) {
          const marker = `r${round}-w${w}-${i}`;
          sent++;
          try {
            const res = await fetch(`http://127.0.0.1:${port}/api/logs`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'x-requested-with': 'XMLHttpRequest',
                'x-forwarded-for': `10.${round}.${w}.${(i % 250) + 1}`,
              },
              body: JSON.stringify([{ type: 'event', marker }]),
            });
            if (res.status === 204) acked.add(marker);
          } catch {
            return; // the process is gone: this write was never acknowledged
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 300)));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      running = false;
      await Promise.all(writers);
      expect(check(acked), `round ${round}`).toEqual([]);
    }
    console.log(`kill -9: ${ROUNDS} rounds, ${sent} writes sent, ${acked.size} acknowledged, 0 lost`);
    expect(acked.size).toBeGreaterThan(ROUNDS * 5);
  });
});

// Bounded avatar uploads (issue 38, item 7): limits per user and per address, one pending upload per user, unused
// uploads removed after an hour, the pixel budget told from the header, the storage budget.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  AVATAR_PENDING_TTL_MS,
  AVATAR_UPLOAD_WINDOW_MS,
  AVATAR_UPLOADS_PER_ADDRESS,
  AVATAR_UPLOADS_PER_USER,
} from '../../plugins/profile/limits';
import { Client, startTestServer, uploadAvatar, useTestServer } from '../kit/server';

/** A PNG of random pixels (barely compressible): 530 × 530 is about 0.84 MB, like the attack's uploads. */
const noisePng = (side = 530) =>
  sharp(crypto.randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();

const flatPng = (w = 16, h = 16) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#36c' } })
    .png()
    .toBuffer();

/** One answer of a burst: status, parsed body, Retry-After, and the time from sending to the whole answer. */
interface BurstAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields
  json: any;
  retryAfter: string | null;
  ms: number;
}

/**
 * The burst's client, in its own thread: sending 84 MB must not stall the service's loop. The multipart body is
 * encoded once (by the platform's own encoder) and sent 100 times: encoding it per request cost the shared 2 cores
 * time that the answers' times then counted as the service's.
 */
const BURST_CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, cookie, csrf, image, n } = workerData;
const form = new FormData();
form.append('file', new Blob([image], { type: 'image/png' }), 'a.png');
const encoded = new Response(form);
const type = encoded.headers.get('content-type');
encoded.arrayBuffer().then((body) => Promise.all(Array.from({ length: n }, async () => {
  const t0 = performance.now();
  const res = await fetch(url + '/objects/ajax/avatars', {
    method: 'POST',
    headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': csrf, 'content-type': type },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text), retryAfter: res.headers.get('retry-after'), ms: performance.now() - t0 };
}))).then((answers) => parentPort.postMessage(answers));
`;

/** `n` uploads of `image` at once from one session (the client's cookies and CSRF token), from another thread. */
async function burst(url: string, c: Client, image: Buffer, n: number): Promise<BurstAnswer[]> {
  const worker = new Worker(BURST_CLIENT, {
    eval: true,
    workerData: { url, cookie: c.cookieHeader(), csrf: c.csrf, image: new Uint8Array(image), n },
  });
  try {
    return await new Promise<BurstAnswer[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

/** Bytes under a folder (files only), 0 when it does not exist; `skip` leaves out files by name. */
function bytesUnder(dir: string, skip: (name: string) => boolean = () => false): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip(e.name)) continue;
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p, skip) : fs.statSync(p).size;
  }
  return total;
}

/** The SQLite file and its journal: the database's own growth (counters, rows) is not stored uploads. */
const databaseFile = (name: string) => /^account\.db/.test(name);

describe('avatar uploads are bounded', () => {
  const s = useTestServer({
    seed: {
      users: {
        alice: { password: 'Secret#123' },
        bob: { password: 'Secret#456' },
        carol: { password: 'Secret#789' },
        dave: { password: 'Secret#000' },
        erin: { password: 'Secret#111' },
      },
    },
  });
  const avatars = () => path.join(s.dataDir, 'avatars');
  const files = () => (fs.existsSync(avatars()) ? fs.readdirSync(avatars()).sort() : []);
  /** A fresh limit window for every test. */
  const nextWindow = () => s.clock.advance(AVATAR_UPLOAD_WINDOW_MS);

  it('100 parallel 0.84 MB uploads from one session: the per-user limit passes, one upload stays, none over 2 s', async () => {
    nextWindow();
    const { alice } = await s.signIn('alice');
    const image = await noisePng();
    expect(image.length).toBeGreaterThan(800_000);
    const dirBefore = bytesUnder(s.dataDir, databaseFile);
    const avatarsBefore = bytesUnder(avatars());
    const started = performance.now();
    const answers = await burst(s.url, alice, image, 100);
    const wall = performance.now() - started;
    const ok = answers.filter((x) => x.status === 200);
    const refused = answers.filter((x) => x.status === 429);
    const busy = answers.filter((x) => x.status === 409);
    const slowest = Math.max(...answers.map((x) => x.ms));
    const avatarsGrowth = bytesUnder(avatars()) - avatarsBefore;
    const dirGrowth = bytesUnder(s.dataDir, databaseFile) - dirBefore;
    const stored = files();
    const slowestOf = (xs: typeof answers) => Math.round(Math.max(0, ...xs.map((x) => x.ms)));
    console.info(
      `100 parallel uploads of ${image.length} B: ${ok.length} × 200 (slowest ${slowestOf(ok)} ms), ` +
        `${busy.length} × 409 busy (${slowestOf(busy)} ms), ${refused.length} × 429 (${slowestOf(refused)} ms), slowest ${Math.round(slowest)} ms, ` +
        `all in ${Math.round(wall)} ms; avatars folder +${avatarsGrowth} B (${stored.length} file), data folder less the database +${dirGrowth} B`,
    );
    // The per-user limit lets 10 through; of those, one at a time is read (the others answer 'busy' unread).
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length).toBeLessThanOrEqual(AVATAR_UPLOADS_PER_USER);
    expect(ok.length + busy.length).toBe(AVATAR_UPLOADS_PER_USER);
    expect(refused.length).toBe(100 - AVATAR_UPLOADS_PER_USER);
    expect(refused[0].json.code).toBe('TooManyRequests');
    if (busy.length) expect(busy[0].json.code).toBe('ProfileAvatarUploadBusy');
    expect(Number(refused[0].retryAfter)).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(2000);
    // One pending upload stays: the last one the database took; the others' files are gone.
    expect(stored).toHaveLength(1);
    const rows = await s.ctx.db
      .selectFrom('avatar_uploads')
      .selectAll()
      .where('user_id', '=', s.users.alice.id)
      .execute();
    expect(rows.map((r) => r.name)).toEqual(stored);
    expect(avatarsGrowth).toBe(Number(rows[0].size));
    expect(dirGrowth).toBe(avatarsGrowth);
    expect(avatarsGrowth).toBeLessThanOrEqual(1024 * 1024);
    // Every URL answered but the stayer's is gone.
    const urls = ok.map((x) => x.json.url as string);
    const live = await Promise.all(urls.map((u) => alice.req('GET', u).then((r) => r.status)));
    expect(live.filter((x) => x === 200)).toHaveLength(1);
    expect(live.filter((x) => x === 404)).toHaveLength(ok.length - 1);
    // One after another, the per-user limit counts every upload: the 11th in the window is refused.
    nextWindow();
    const { alice: next } = await s.signIn('alice');
    const small = await flatPng();
    const serial: number[] = [];
    for (let i = 0; i <= AVATAR_UPLOADS_PER_USER; i++) serial.push((await uploadAvatar(next, small, 's.png')).status);
    expect(serial).toEqual([...Array<number>(AVATAR_UPLOADS_PER_USER).fill(200), 429]);
    expect(files()).toHaveLength(1);
  });

  it('a header announcing more pixels than the budget is refused before decoding (72 KB 4096 × 4096 PNG)', async () => {
    nextWindow();
    const { bob } = await s.signIn('bob');
    const bomb = await sharp({ create: { width: 4096, height: 4096, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(100 * 1024);
    const t0 = performance.now();
    const a = await uploadAvatar(bob, bomb, 'bomb.png');
    const ms = performance.now() - t0;
    console.info(`${bomb.length} B 4096 × 4096 PNG refused in ${Math.round(ms)} ms`);
    expect([a.status, a.json.code]).toEqual([413, 'ProfileAvatarTooManyPixels']);
    expect(a.json.message).toBe('上传失败，图片超过 4 百万像素（例如 2048 × 2048）。');
    // Frames of an animation count: 20 frames of 512 × 512 are 5.2 megapixels.
    const frame = (i: number) =>
      sharp({ create: { width: 512, height: 512, channels: 3, background: { r: i * 12, g: 80, b: 200 - i * 9 } } })
        .png()
        .toBuffer();
    const animated = await sharp(await Promise.all(Array.from({ length: 20 }, (_, i) => frame(i))), {
      join: { animated: true },
    })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(20);
    const anim = await uploadAvatar(bob, animated, 'anim.gif', 'image/gif');
    expect([anim.status, anim.json.code]).toEqual([413, 'ProfileAvatarTooManyPixels']);
    // Just inside the budget passes.
    const edge = await sharp({ create: { width: 2048, height: 2048, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect((await uploadAvatar(bob, edge, 'edge.png')).status).toBe(200);
    expect(files().filter((f) => f.endsWith('.gif'))).toEqual([]);
  });

  it('limits per client address, all its users together', async () => {
    nextWindow();
    const clients = Object.values(await s.signIn('alice', 'bob', 'carol', 'dave'));
    const image = await flatPng();
    // Four users at once, each one upload after another (a user's parallel uploads answer 'busy').
    const perUser = await Promise.all(
      clients.map(async (c) => {
        const got: number[] = [];
        for (let i = 0; i < 8; i++) got.push((await uploadAvatar(c, image, 'x.png')).status);
        return got;
      }),
    );
    const statuses = perUser.flat();
    expect(statuses.filter((x) => x === 200)).toHaveLength(AVATAR_UPLOADS_PER_ADDRESS);
    expect(statuses.filter((x) => x === 429)).toHaveLength(32 - AVATAR_UPLOADS_PER_ADDRESS);
    // Four users, one pending upload each.
    expect(files()).toHaveLength(
      await s.ctx.db
        .selectFrom('avatar_uploads')
        .select('name')
        .execute()
        .then((r) => r.length),
    );
  });

  it('an upload not set within the hour is removed with its file; set avatars stay; pending ones are not public', async () => {
    nextWindow();
    const { erin } = await s.signIn('erin');
    const first = await uploadAvatar(erin, await flatPng(20, 20), 'a.png');
    expect(first.status).toBe(200);
    // Not anyone's avatar yet: only the uploader sees it, and nobody caches it.
    const own = await erin.req('GET', first.json.url);
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect((await fetch(s.url + first.json.url)).status).toBe(404);
    expect((await erin.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: first.json.url } })).status).toBe(
      200,
    );
    const shown = await fetch(s.url + first.json.url);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const second = await uploadAvatar(erin, await flatPng(24, 24), 'b.png');
    const name = (u: string) => u.split('/').pop()!;
    expect(files()).toContain(name(second.json.url));
    s.clock.advance(AVATAR_PENDING_TTL_MS - 60_000);
    await s.app.purge();
    expect(files()).toContain(name(second.json.url));
    s.clock.advance(60_000);
    await s.app.purge();
    expect(files()).not.toContain(name(second.json.url));
    expect(files()).toContain(name(first.json.url));
    const { erin: again } = await s.signIn('erin');
    const late = await again.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: second.json.url } });
    expect([late.status, late.json.code]).toEqual([404, 'NotFound']);
    expect((await again.req('GET', '/individual/proxy/me')).json.avatar).toBe(first.json.url);
    expect((await fetch(s.url + first.json.url)).status).toBe(200);
  });
});

describe('avatar storage budget', () => {
  it('refuses an upload that would go over AVATAR_STORAGE_MB with its own error, writing nothing', async () => {
    const s = await startTestServer({
      env: { AVATAR_STORAGE_MB: '1' },
      seed: { users: { ann: { password: 'Secret#123' }, ben: { password: 'Secret#456' } }, signIn: ['ann', 'ben'] },
    });
    try {
      const { ann, ben } = s.clients;
      const up = await uploadAvatar(ann, await noisePng(), 'a.png');
      expect(up.status).toBe(200);
      expect((await ann.req('PUT', '/individual/proxy/my/avatar', { body: { avatar: up.json.url } })).status).toBe(200);
      const dir = path.join(s.dataDir, 'avatars');
      const before = fs.readdirSync(dir).sort();
      const full = await uploadAvatar(ben, await noisePng(), 'b.png');
      expect([full.status, full.json.code]).toEqual([409, 'ProfileAvatarStorageFull']);
      expect(full.json.message).toMatch(/头像存储空间已满/);
      expect(fs.readdirSync(dir).sort()).toEqual(before);
      // A small one still fits; a pending upload being replaced does not count against its replacement.
      const small = await uploadAvatar(ben, await flatPng(), 'c.png');
      expect(small.status).toBe(200);
      expect((await uploadAvatar(ben, await flatPng(32, 32), 'd.png')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { SLIDER_PASS_TTL_MS, type SliderAnswer } from '../../schemas/captcha-rules';
import { Client, useTestServer } from '../kit/server';
import { TEST_UMID, clientFrom, encryptAnswer, humanTrack, puzzleGap, solveSlider } from '../kit/captcha';

const DAY = 86_400_000;
const MINUTE = 60_000;
const PASSWORD = 'Secret#123';
const EN = { 'accept-language': 'en-US' };

const path = (username: string) => `/users/ajax/users/${encodeURIComponent(username)}/sliderCaptcha`;

/** Decodes a `data:image/png;base64,…` URL the way a browser would load it. */
function png(dataUrl: string): PNG {
  expect(dataUrl).toMatch(/^data:image\/png;base64,/);
  return PNG.sync.read(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
}

/** A place on the track at least 20 px from the gap (outside the tolerance), still inside the track. */
const wrongPlace = (gap: number) => (gap > 150 ? gap - 40 : gap + 40);

describe('slider captcha', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: { users: { alice: { password: PASSWORD }, bob: { password: PASSWORD } } },
  });

  /** A new puzzle for `username` from `client`, with where its gap is. */
  async function puzzle(client: Client, username = 'alice') {
    const a = await client.req('POST', path(username), { body: { scene: 'login' } });
    expect(a.status, a.text).toBe(200);
    return { id: a.json.captcha_id as string, gap: await puzzleGap(s.ctx, a.json.captcha_id), json: a.json };
  }

  /** Sends an answer (an object is encrypted with the day key of `at`, the server's now unless told). */
  function answer(client: Client, id: string, data: SliderAnswer | string, username = 'alice', at?: number) {
    const cipher = encryptAnswer(data, at ?? s.clock.now().getTime());
    return client.req('POST', `${path(username)}:verify`, { body: { captcha_id: id, data: cipher }, headers: EN });
  }

  const human = (x: number): SliderAnswer => ({ x, track: humanTrack(x), kind: 'pointer', umid: TEST_UMID });
  /** A keyboard answer to `x` from `[x, t]` points; the last is the confirming Enter. */
  const keys = (x: number, points: Array<[number, number]>): SliderAnswer => ({
    x,
    kind: 'keyboard',
    umid: TEST_UMID,
    track: points.map(([px, t]) => [px, 0, t]),
  });
  /** What a script draws: an ease-out curve from 0 to `x` over 30 frames of 16–24 ms, with a little wobble. */
  const easedOut = (x: number): SliderAnswer['track'] =>
    Array.from({ length: 31 }, (_, i) => [Math.round(x * (1 - (1 - i / 30) ** 3)), i % 3, i * 20 + (i % 2) * 4]);

  const login = (client: Client, username: string, pass?: string) =>
    client.req('POST', '/users/ajax/login', { body: { username, password: PASSWORD, captcha_pass: pass } });

  it('draws a new puzzle for every request: two decodable PNGs of the declared sizes, without the gap place', async () => {
    const c = clientFrom(s.url);
    const a = (await puzzle(c)).json;
    const b = (await puzzle(c)).json;
    expect(Object.keys(a).sort()).toEqual(
      ['background', 'captcha_id', 'expires_at', 'height', 'piece', 'piece_size', 'piece_y', 'width'].sort(),
    );
    expect(a).toMatchObject({ width: 320, height: 160, piece_size: 56 });
    expect(a.expires_at).toBe(s.clock.now().getTime() + MINUTE);
    for (const p of [a, b]) {
      const bg = png(p.background);
      const piece = png(p.piece);
      expect([bg.width, bg.height]).toEqual([p.width, p.height]);
      expect([piece.width, piece.height]).toEqual([p.piece_size, p.piece_size]);
      expect(p.piece_y).toBeGreaterThanOrEqual(0);
      expect(p.piece_y).toBeLessThanOrEqual(p.height - p.piece_size);
      // The piece is cut out: transparent outside its outline, opaque inside.
      const alphas = new Set<number>();
      for (let i = 3; i < piece.data.length; i += 4) alphas.add(piece.data[i]);
      expect(alphas.has(0)).toBe(true);
      expect(alphas.has(255)).toBe(true);
    }
    expect(a.captcha_id).not.toBe(b.captcha_id);
    expect(a.background).not.toBe(b.background);
    expect(a.piece).not.toBe(b.piece);
    // An unknown name gets a puzzle too (the puzzle tells nothing about accounts).
    expect((await c.req('POST', path('no-such-user'), { body: {} })).status).toBe(200);
  });

  it('the piece is drawn apart: its pixels do not follow the background at the gap (no copy, no brightened copy)', async () => {
    const c = clientFrom(s.url);
    const luma = (d: Buffer, i: number) => 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
    for (let n = 0; n < 10; n++) {
      const p = await puzzle(c);
      const bg = png(p.json.background);
      const piece = png(p.json.piece);
      const a: number[] = [];
      const b: number[] = [];
      for (let py = 0; py < piece.height; py++)
        for (let px = 0; px < piece.width; px++) {
          const i = (py * piece.width + px) * 4;
          if (piece.data[i + 3] < 255) continue;
          a.push(luma(piece.data, i));
          b.push(luma(bg.data, ((p.json.piece_y + py) * bg.width + p.gap + px) * 4));
        }
      const mean = (v: number[]) => v.reduce((x, y) => x + y, 0) / v.length;
      const [ma, mb] = [mean(a), mean(b)];
      const cov = mean(a.map((v, i) => (v - ma) * (b[i] - mb)));
      const r = cov / Math.sqrt(mean(a.map((v) => (v - ma) ** 2)) * mean(b.map((v) => (v - mb) ** 2)));
      // The old drawing (the gap's own pixels, brightened) correlated at r ≈ 1.
      expect(Math.abs(r)).toBeLessThan(0.5);
    }
  });

  it('a right answer earns a pass (2 minutes); within the tolerance counts, a wrong place does not', async () => {
    const c = clientFrom(s.url);
    const p = await puzzle(c);
    const ok = await answer(c, p.id, human(p.gap + 4));
    expect(ok.status, ok.text).toBe(200);
    expect(Object.keys(ok.json).sort()).toEqual(['expires_at', 'pass']);
    expect(ok.json.pass).toEqual(expect.any(String));
    expect(ok.json.expires_at).toBe(s.clock.now().getTime() + SLIDER_PASS_TTL_MS);
    const q = await puzzle(c);
    const off = await answer(c, q.id, human(q.gap > 150 ? q.gap - 5 : q.gap + 5));
    expect(off.status).toBe(400);
    expect(off.json.code).toBe('CaptchaFailed');
  });

  it('a wrong place answers CaptchaFailed with the tries left; the 3rd and later ones CaptchaExpired, even right', async () => {
    const c = clientFrom(s.url);
    const p = await puzzle(c);
    const seen: Array<[number, string, string]> = [];
    for (let i = 0; i < 3; i++) {
      const a = await answer(c, p.id, human(wrongPlace(p.gap)));
      seen.push([a.status, a.json.code, a.json.message]);
    }
    expect(seen.slice(0, 2)).toEqual(
      [2, 1].map((n) => [400, 'CaptchaFailed', `Verification failed, please try again (${n} tries left).`]),
    );
    expect(seen[2].slice(0, 2)).toEqual([410, 'CaptchaExpired']);
    const right = await answer(c, p.id, human(p.gap));
    expect([right.status, right.json.code]).toEqual([410, 'CaptchaExpired']);
  });

  it('refuses an answer encrypted with another day key (tomorrow, yesterday outside midnight), as a failed try', async () => {
    const c = clientFrom(s.url);
    const p = await puzzle(c);
    const now = s.clock.now().getTime();
    const tomorrow = await answer(c, p.id, human(p.gap), 'alice', now + DAY);
    expect([tomorrow.status, tomorrow.json.code]).toEqual([400, 'CaptchaFailed']);
    const yesterday = await answer(c, p.id, human(p.gap), 'alice', now - DAY);
    expect([yesterday.status, yesterday.json.code]).toEqual([400, 'CaptchaFailed']);
    // Today's key on the same puzzle still works: the refusals were about the key only.
    expect((await answer(c, p.id, human(p.gap))).status).toBe(200);
    const q = await puzzle(c);
    const garbage = await c.req('POST', `${path('alice')}:verify`, {
      body: { captcha_id: q.id, data: 'not-a-cipher' },
    });
    expect([garbage.status, garbage.json.code]).toEqual([400, 'CaptchaFailed']);
    expect((await answer(c, q.id, human(q.gap))).status).toBe(200);
  });

  it("accepts yesterday's key for 5 minutes after UTC midnight, and refuses it after", async () => {
    const c = clientFrom(s.url);
    const now = s.clock.now().getTime();
    const midnight = Math.ceil((now + 1) / DAY) * DAY;
    const beforeMidnight = midnight - 30_000;

    s.clock.set(midnight + 10_000);
    let p = await puzzle(c);
    expect((await answer(c, p.id, human(p.gap), 'alice', beforeMidnight)).status).toBe(200);

    s.clock.set(midnight + 5 * MINUTE - 1);
    p = await puzzle(c);
    expect((await answer(c, p.id, human(p.gap), 'alice', beforeMidnight)).status).toBe(200);

    s.clock.set(midnight + 5 * MINUTE);
    p = await puzzle(c);
    const late = await answer(c, p.id, human(p.gap), 'alice', beforeMidnight);
    expect([late.status, late.json.code]).toEqual([400, 'CaptchaFailed']);
    // The new day's key is fine then.
    expect((await answer(c, p.id, human(p.gap))).status).toBe(200);
    // Before midnight, tomorrow's (the new day's) key is not accepted early.
    s.clock.set(midnight + DAY - 10_000);
    p = await puzzle(c);
    const early = await answer(c, p.id, human(p.gap), 'alice', midnight + DAY + 1000);
    expect([early.status, early.json.code]).toEqual([400, 'CaptchaFailed']);
  });

  describe('refuses implausible trajectories (the same puzzle then takes a human drag)', () => {
    const cases: Record<string, (gap: number) => SliderAnswer> = {
      'too fast (under 300 ms)': (gap) => {
        const track = humanTrack(gap);
        const end = track[track.length - 1][2];
        return { ...human(gap), track: track.map(([x, y, t]) => [x, y, Math.round((t * 250) / end)]) };
      },
      'too few points': (gap) => ({
        ...human(gap),
        track: [
          [0, 0, 0],
          [Math.round(gap / 3), 2, 180],
          [Math.round(gap / 2), -1, 420],
          [Math.round((gap * 4) / 5), 3, 650],
          [gap, 1, 900],
        ],
      }),
      'perfectly straight (no vertical wobble)': (gap) => ({
        ...human(gap),
        track: humanTrack(gap).map(([x, , t]) => [x, 0, t]),
      }),
      'mechanically even steps': (gap) => ({
        ...human(gap),
        // One px every 16 ms from 0 to the gap (even pace), with a vertical wobble so only the pace is wrong.
        track: Array.from({ length: gap + 1 }, (_, i) => [i, i % 3, i * 16] as [number, number, number]),
      }),
      'a track ending somewhere else than the drop': (gap) => ({ ...human(gap), track: humanTrack(wrongPlace(gap)) }),
      'time going backwards': (gap) => {
        const track = humanTrack(gap);
        [track[3][2], track[4][2]] = [track[4][2], track[3][2]];
        return { ...human(gap), track };
      },
      'an eased-out drag (it starts at full speed)': (gap) => ({ ...human(gap), track: easedOut(gap) }),
      'an ease-in-out drag with no correction, stop or hold before the release': (gap) => ({
        ...human(gap),
        track: Array.from({ length: 31 }, (_, i) => {
          const f = i / 30;
          return [Math.round(gap * f * f * (3 - 2 * f)), Math.round(Math.sin(i) * 2), i * 20 + (i % 3) * 4];
        }),
      }),
      'the old keyboard answer: 3 presses over 450 ms and nothing else': (gap) =>
        keys(gap, [
          [gap - 20, 0],
          [gap - 10, 220],
          [gap, 450],
        ]),
      'a keyboard answer confirmed at once after the last press': (gap) =>
        keys(gap, [
          [gap - 30, 0],
          [gap - 20, 260],
          [gap - 10, 430],
          [gap, 700],
          [gap, 820],
        ]),
      'key presses at an even, machine pace': (gap) =>
        keys(gap, [
          ...Array.from({ length: 6 }, (_, i) => [gap - 50 + i * 10, i * 120] as [number, number]),
          [gap, 1100],
        ]),
    };
    for (const [name, make] of Object.entries(cases)) {
      it(name, async () => {
        const c = clientFrom(s.url);
        const p = await puzzle(c);
        const a = await answer(c, p.id, make(p.gap));
        expect([a.status, a.json.code, a.json.message]).toEqual([
          400,
          'CaptchaFailed',
          'Verification failed, please try again (2 tries left).',
        ]);
        expect((await answer(c, p.id, human(p.gap))).status).toBe(200);
      });
    }
  });

  it('accepts a keyboard answer with a person\'s rhythm (uneven presses, a pause before the Enter)', async () => {
    const c = clientFrom(s.url);
    const p = await puzzle(c);
    const a = await answer(
      c,
      p.id,
      keys(p.gap, [
        [p.gap - 20, 0],
        [p.gap - 10, 220],
        [p.gap, 410],
        [p.gap, 980],
      ]),
    );
    expect(a.status, a.text).toBe(200);
    expect(a.json.pass).toEqual(expect.any(String));
  });

  it('a puzzle is solved once, and only for its own username', async () => {
    const c = clientFrom(s.url);
    const p = await puzzle(c);
    const other = await answer(c, p.id, human(p.gap), 'bob');
    expect([other.status, other.json.code]).toEqual([410, 'CaptchaExpired']);
    expect((await answer(c, p.id, human(p.gap), 'ALICE')).status).toBe(200);
    const again = await answer(c, p.id, human(p.gap));
    expect([again.status, again.json.code]).toEqual([410, 'CaptchaExpired']);
    const unknown = await c.req('POST', `${path('alice')}:verify`, {
      body: { captcha_id: 'no-such-puzzle', data: encryptAnswer(human(p.gap), s.clock.now().getTime()) },
    });
    expect([unknown.status, unknown.json.code]).toEqual([410, 'CaptchaExpired']);
  });

  it('a puzzle expires after 1 minute', async () => {
    const c = clientFrom(s.url);
    const p = await puzzle(c);
    s.clock.advance(MINUTE - 1);
    const inTime = await puzzle(c);
    expect((await answer(c, inTime.id, human(inTime.gap))).status).toBe(200);
    s.clock.advance(1);
    const a = await answer(c, p.id, human(p.gap));
    expect([a.status, a.json.code]).toEqual([410, 'CaptchaExpired']);
  });

  it('a pass is single use, serves its own username only, and expires after 2 minutes', async () => {
    const c = clientFrom(s.url);
    const pass = await solveSlider(s.ctx, c, 'alice');
    // For another name it is refused (and not spent).
    const foreign = await login(clientFrom(s.url), 'bob', pass);
    expect([foreign.status, foreign.json.code]).toEqual([403, 'CaptchaInvalid']);
    const foreignCheck = await clientFrom(s.url).req('GET', '/users/ajax/users/bob/check', {
      headers: { 'x-captcha-pass': pass },
    });
    expect([foreignCheck.status, foreignCheck.json.code]).toEqual([403, 'CaptchaInvalid']);
    // Case variants of the name share it.
    const first = await login(clientFrom(s.url), 'Alice', pass);
    expect(first.status, first.text).toBe(200);
    const replay = await login(clientFrom(s.url), 'alice', pass);
    expect([replay.status, replay.json.code]).toEqual([403, 'CaptchaInvalid']);
    expect(replay.headers.getSetCookie()).toEqual([]);

    const late = await solveSlider(s.ctx, c, 'alice');
    const inTime = await solveSlider(s.ctx, c, 'alice');
    s.clock.advance(SLIDER_PASS_TTL_MS - 1);
    expect((await login(clientFrom(s.url), 'alice', inTime)).status).toBe(200);
    s.clock.advance(1);
    const expired = await login(clientFrom(s.url), 'alice', late);
    expect([expired.status, expired.json.code]).toEqual([403, 'CaptchaInvalid']);
  });

  it('50 parallel right answers to one puzzle give exactly one pass', async () => {
    const c = clientFrom(s.url);
    const p = await puzzle(c);
    const answers = await Promise.all(Array.from({ length: 50 }, () => answer(c, p.id, human(p.gap))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 410 && a.json.code === 'CaptchaExpired')).toHaveLength(49);
  });

  it('limits puzzles per client address: 30 a minute, exactly, under 50 parallel requests', async () => {
    const c = clientFrom(s.url);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => c.req('POST', path(`user-${i}`), { body: {}, headers: EN })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(30);
    expect(limited).toHaveLength(20);
    for (const a of limited) {
      expect(a.json).toMatchObject({ code: 'TooManyRequestsMinute' });
      expect(a.json.message).toBe('Too many requests, please try again in one minute.');
      const retry = Number(a.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
    }
    // Another address is not affected; this one may ask again after the minute.
    expect((await clientFrom(s.url).req('POST', path('alice'), { body: {} })).status).toBe(200);
    s.clock.advance(MINUTE);
    expect((await c.req('POST', path('alice'), { body: {} })).status).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../kit/server';
import { clientFrom } from '../kit/captcha';
import { PUZZLES_PER_MINUTE } from '../../server/routes/captcha';
import { IP_CAPTCHA_AFTER_FAILURES } from '../../plugins/login/server/service';

// Limits and throttles keyed by the client address count an IPv6 client by its network (/64 unless
// IPV6_PREFIX_LENGTH says otherwise) and an IPv4 client by its address: a client holding a /64 cannot take a fresh
// budget with every address of it. The addresses come through X-Forwarded-For from the trusted loopback proxy.

/** Asks for one slider puzzle from `address` (the route allows PUZZLES_PER_MINUTE per client address). */
const puzzle = (s: TestServer, address: string) =>
  clientFrom(s.url, address).req('POST', '/users/ajax/users/someone/sliderCaptcha', { body: {} });

/** Uses up the puzzle budget with one request from each address (cycled), all of them answered 200. */
async function spendPuzzles(s: TestServer, addresses: string[]) {
  for (let i = 0; i < PUZZLES_PER_MINUTE; i++) {
    const a = await puzzle(s, addresses[i % addresses.length]);
    expect(a.status, `${addresses[i % addresses.length]}: ${a.text}`).toBe(200);
  }
}

/** `count` addresses of the /64 `prefix` (`2001:db8:1:2`), with interface ids far apart. */
const inNetwork = (prefix: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${prefix}:${((i * 7919 + 1) % 0x10000).toString(16)}:${i.toString(16)}:beef:${i + 1}`,
  );

describe('address limits by network (default: IPv6 by /64, IPv4 by /32)', () => {
  const s = useTestServer({
    env: { TRUST_PROXY: 'loopback' },
    seed: { users: { alice: { password: 'Secret#123' } } },
  });

  it('counts the addresses of one IPv6 /64 in one budget, and another /64 apart', async () => {
    await spendPuzzles(s, inNetwork('2001:db8:1:2', PUZZLES_PER_MINUTE));
    for (const sibling of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:abc']) {
      const over = await puzzle(s, sibling);
      expect(over.status, sibling).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.json.code).toBe('TooManyRequestsMinute');
    }
    for (const neighbour of ['2001:db8:1:3::1', '2001:db8:1:1:ffff:ffff:ffff:ffff', '2001:db8:2:2::1'])
      expect((await puzzle(s, neighbour)).status, neighbour).toBe(200);
    // The window ends for the whole network at once.
    s.clock.advance(61_000);
    expect((await puzzle(s, '2001:db8:1:2::77')).status).toBe(200);
  });

  it('counts IPv4 clients by their own address (an IPv4-mapped IPv6 address is that address)', async () => {
    await spendPuzzles(s, ['203.0.113.7']);
    expect((await puzzle(s, '203.0.113.7')).status).toBe(429);
    expect((await puzzle(s, '::ffff:203.0.113.7')).status).toBe(429);
    for (const other of ['203.0.113.6', '203.0.113.8', '198.51.100.7'])
      expect((await puzzle(s, other)).status, other).toBe(200);
  });

  it('counts sign-in failures of a /64 together: after ten, its every address needs the slider; other /64s do not', async () => {
    const addresses = inNetwork('2001:db8:5:6', IP_CAPTCHA_AFTER_FAILURES);
    for (const [i, address] of addresses.entries()) {
      // A name each, so no name's own count asks for the slider: only the network's does.
      const a = await clientFrom(s.url, address).req('POST', '/users/ajax/login', {
        body: { username: `guess-${i}`, password: 'Wrong#999' },
      });
      expect(a.status, a.text).toBe(401);
    }
    const fromNetwork = await clientFrom(s.url, '2001:db8:5:6::abcd').req('POST', '/users/ajax/login', {
      body: { username: 'alice', password: 'Secret#123' },
    });
    expect(fromNetwork.status).toBe(403);
    expect(fromNetwork.json.code).toBe('CaptchaRequired');
    const check = await clientFrom(s.url, '2001:db8:5:6::abcd').req('GET', '/users/ajax/users/alice/check');
    expect(check.json).toMatchObject({ need_captcha: true });
    const elsewhere = await clientFrom(s.url, '2001:db8:5:7::abcd').req('POST', '/users/ajax/login', {
      body: { username: 'alice', password: 'Secret#123' },
    });
    expect(elsewhere.status, elsewhere.text).toBe(200);
  });
});

describe('address limits by network: IPV6_PREFIX_LENGTH', () => {
  const exact = useTestServer({ env: { TRUST_PROXY: 'loopback', IPV6_PREFIX_LENGTH: '128' } });
  const wide = useTestServer({ env: { TRUST_PROXY: 'loopback', IPV6_PREFIX_LENGTH: '48' } });

  it('128 counts every IPv6 address apart', async () => {
    await spendPuzzles(exact, ['2001:db8:9:9::1']);
    expect((await puzzle(exact, '2001:db8:9:9::1')).status).toBe(429);
    expect((await puzzle(exact, '2001:db8:9:9::2')).status).toBe(200);
  });

  it('48 counts a whole /48 together', async () => {
    await spendPuzzles(wide, ['2001:db8:7:1::1', '2001:db8:7:ffff::1']);
    expect((await puzzle(wide, '2001:db8:7:abcd::9')).status).toBe(429);
    expect((await puzzle(wide, '2001:db8:8::1')).status).toBe(200);
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', edition: 'vpc', dataDir: path.resolve('./data') });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
  });

  it('falls back to vpc with a warning for an unknown edition', () => {
    const warnings: string[] = [];
    expect(loadConfig({ EDITION: 'nope' }, (m) => warnings.push(m)).edition).toBe('vpc');
    expect(warnings.join()).toContain('nope');
    expect(loadConfig({ EDITION: 'global' }).edition).toBe('global');
  });

  it('reports every invalid variable by name', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail', PUBLIC_URL: 'ftp://x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL']) expect(msg).toContain(name);
  });

  it('accepts PostgreSQL, SMTP and an https public URL', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      PUBLIC_URL: 'https://devops.example.com/',
    });
    expect(c.publicUrl).toBe('https://devops.example.com');
    expect(c.databaseUrl).toMatch(/^postgres:/);
  });

  it('reads IPV6_PREFIX_LENGTH (default 64, 32 to 128) and names a bad one', () => {
    expect(loadConfig({}).ipv6PrefixLength).toBe(64);
    expect(loadConfig({ IPV6_PREFIX_LENGTH: '48' }).ipv6PrefixLength).toBe(48);
    expect(loadConfig({ IPV6_PREFIX_LENGTH: '128' }).ipv6PrefixLength).toBe(128);
    for (const bad of ['31', '129', '64.5', 'wide'])
      expect(() => loadConfig({ IPV6_PREFIX_LENGTH: bad }), bad).toThrow(/IPV6_PREFIX_LENGTH.*between 32 and 128/);
  });

  it('reads AVATAR_STORAGE_MB (default 1024) as bytes and names a bad one', () => {
    expect(loadConfig({}).avatarStorageBytes).toBe(1024 * 1024 * 1024);
    expect(loadConfig({ AVATAR_STORAGE_MB: '5' }).avatarStorageBytes).toBe(5 * 1024 * 1024);
    for (const bad of ['0', '1.5', '-3', 'lots'])
      expect(() => loadConfig({ AVATAR_STORAGE_MB: bad }), bad).toThrow(/AVATAR_STORAGE_MB must be a whole number/);
  });

  it('reads TRUST_PROXY as canonical proxy entries and names every malformed one', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(
      loadConfig({ TRUST_PROXY: ' 10.0.0.1, 10.0.0.0/8 ,Loopback,::ffff:192.168.0.0/112,2001:DB8::/32' }).trustProxy,
    ).toEqual(['10.0.0.1/32', '10.0.0.0/8', 'loopback', '192.168.0.0/16', '2001:db8::/32']);
    let err: unknown;
    try {
      loadConfig({ TRUST_PROXY: '10.0.0.0/8,10.0.0.0/33,proxy.example.com' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/TRUST_PROXY.*"10\.0\.0\.0\/33".*"proxy\.example\.com"/);
  });
});

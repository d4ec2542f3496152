import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { deriveFactorKeys, FACTOR_KEY_FILE, loadFactorKey, openSecret, sealSecret } from './factor-key';

// The factor key: SECOND_FACTOR_KEY, else a key file made on first start (mode 0600); never the database.

const dirs: string[] = [];
const temp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'account-key-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('factor key', () => {
  it('is made once in DATA_DIR with mode 0600 and read back on the next start', () => {
    const dataDir = temp();
    const first = loadFactorKey({ dataDir });
    const file = path.join(dataDir, FACTOR_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first).toHaveLength(32);
    expect(loadFactorKey({ dataDir }).equals(first)).toBe(true);
  });

  it('comes from SECOND_FACTOR_KEY when set, and no file is made', () => {
    const dataDir = temp();
    const hex = 'ab'.repeat(32);
    const config = loadConfig({ DATA_DIR: dataDir, SECOND_FACTOR_KEY: hex }, () => {});
    expect(loadFactorKey(config).toString('hex')).toBe(hex);
    expect(fs.existsSync(path.join(dataDir, FACTOR_KEY_FILE))).toBe(false);
    const b64 = Buffer.alloc(32, 3).toString('base64');
    expect(loadConfig({ DATA_DIR: dataDir, SECOND_FACTOR_KEY: b64 }, () => {}).secondFactorKey).toEqual(
      Buffer.alloc(32, 3),
    );
  });

  it('refuses a SECOND_FACTOR_KEY that is not 32 bytes, without repeating it', () => {
    for (const bad of ['short', 'ab'.repeat(31), Buffer.alloc(16).toString('base64')]) {
      let err: unknown;
      try {
        loadConfig({ DATA_DIR: temp(), SECOND_FACTOR_KEY: bad }, () => {});
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain('SECOND_FACTOR_KEY');
      expect((err as Error).message).not.toContain(bad);
    }
  });

  it('refuses a key file that holds no key', () => {
    const dataDir = temp();
    fs.writeFileSync(path.join(dataDir, FACTOR_KEY_FILE), 'not a key\n');
    expect(() => loadFactorKey({ dataDir })).toThrow(/SECOND_FACTOR_KEY/);
  });

  it('reads WEBAUTHN_USER_VERIFICATION', () => {
    expect(loadConfig({ DATA_DIR: temp() }, () => {}).webauthnUserVerification).toBe('preferred');
    expect(
      loadConfig({ DATA_DIR: temp(), WEBAUTHN_USER_VERIFICATION: 'required' }, () => {}).webauthnUserVerification,
    ).toBe('required');
    expect(() => loadConfig({ DATA_DIR: temp(), WEBAUTHN_USER_VERIFICATION: 'always' }, () => {})).toThrow(ConfigError);
  });
});

describe('sealing', () => {
  it('opens only with its key and its account, and differs every time', () => {
    const keys = deriveFactorKeys(Buffer.alloc(32, 1));
    const other = deriveFactorKeys(Buffer.alloc(32, 2));
    expect(keys.seal.equals(keys.recovery)).toBe(false);
    const a = sealSecret(keys.seal, 'u1', 'JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(sealSecret(keys.seal, 'u1', 'JBSWY3DPEHPK3PXP'));
    expect(openSecret(keys.seal, 'u1', a)).toBe('JBSWY3DPEHPK3PXP');
    expect(openSecret(keys.seal, 'u2', a)).toBeNull();
    expect(openSecret(other.seal, 'u1', a)).toBeNull();
    const flipped = a.slice(0, -2) + (a.at(-2) === 'A' ? 'B' : 'A') + a.at(-1);
    expect(openSecret(keys.seal, 'u1', flipped)).toBeNull();
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { allMigrations, coreMigrations, migrateToLatest, openDatabase } from './db/index';
import { isMessageCode, translate } from './i18n/index';
import { discoverServerPlugins, editionServerPlugins } from './plugin-loader';
import { defineServerPlugin } from './plugin';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'account-slices-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('server slices', () => {
  it('are discovered from the plugin folders, each named by its folder', async () => {
    const ids = (await discoverServerPlugins()).map((p) => p.id);
    expect(ids).toEqual([
      'access-tokens',
      'login',
      'notifications',
      'packages-credential',
      'profile',
      'reset-password',
      'security',
      'ssh-keys',
      'switch-org',
      'third-party',
    ]);
  });

  it('mount in the order the edition lists them; plugins without a server half are skipped', async () => {
    const all = await discoverServerPlugins();
    const ids = (plugins: string[]) => editionServerPlugins({ plugins }, all).map((p) => p.id);
    expect(ids(['profile', 'identity-provider', 'third-party', 'access-tokens', 'login'])).toEqual([
      'profile',
      'third-party',
      'access-tokens',
      'login',
    ]);
  });

  it("register every slice's error codes, so they translate whatever the edition", async () => {
    await discoverServerPlugins();
    expect(isMessageCode('SshKeyNotFound')).toBe(true);
    expect(translate('zh_CN', 'SshKeyNotFound')).toBe('SSH 公钥不存在。');
    expect(translate('en_US', 'AccessTokenLimitReached', { max: 3 })).toContain('at most 3 personal access tokens');
    expect(isMessageCode('NoSuchCode')).toBe(false);
  });

  it('merge their migrations with the core ones by name and refuse a name used twice', async () => {
    const names = Object.keys(allMigrations(await discoverServerPlugins()));
    expect(names).toEqual([
      '001-initial',
      '002-usage-logs',
      '010-profile',
      '030-credentials',
      '031-packages-credential',
      '032-identities',
      '040-org-policies',
      '041-switch-org',
      '050-captcha-rate-limits',
      '051-password-recovery',
      '052-inbox',
      '053-sign-in-devices',
      '054-sign-in-sources',
      '060-device-lockout',
      '061-avatar-uploads',
      '062-email-change-codes',
      '063-email-code-purpose',
      '064-color-scheme',
      '065-session-details',
      '066-session-proofs',
      '067-account-history',
      '068-mark-browsers',
      '069-account-holds',
      '070-second-factors',
      '071-org-second-factor',
      '072-sign-in-steps',
      '073-credential-uses',
      '074-token-rotation',
    ]);
    const clash = defineServerPlugin({ id: 'clash', migrations: { '002-usage-logs': coreMigrations['001-initial'] } });
    expect(() => allMigrations([clash])).toThrow(/"002-usage-logs" of plugin "clash" is already defined by the core/);
  });

  it('upgrade a database made before the split (030-credentials then also created the bindings tables)', async () => {
    const all = await discoverServerPlugins();
    const merged = allMigrations(all);
    // The migration set as it was recorded in existing databases: 030 made ssh_keys, packages_credentials and identities.
    const before: Record<string, Migration> = {
      '001-initial': merged['001-initial'],
      '002-usage-logs': merged['002-usage-logs'],
      '010-profile': merged['010-profile'],
      '030-credentials': {
        async up(db) {
          await merged['030-credentials'].up(db);
          await merged['031-packages-credential'].up(db);
          await merged['032-identities'].up(db);
        },
      },
    };
    const database = await openDatabase({ dataDir: tempDir() });
    try {
      const old = new Migrator({ db: database.db, provider: { getMigrations: async () => before } });
      expect((await old.migrateToLatest()).error).toBeUndefined();
      // 031 and 032 run again harmlessly (IF NOT EXISTS), then whatever came after the split.
      expect(await migrateToLatest(database.db, undefined, all)).toEqual(
        Object.keys(merged).filter((name) => name > '030-credentials'),
      );
      const tables = (await database.db.introspection.getTables()).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(['ssh_keys', 'packages_credentials', 'identities']));
    } finally {
      await database.close();
    }
  });

  it("mount only the edition's routes, while identities stay a core route", async () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DIST_DIR: tempDir(), EDITION: 'global' });
    const app = await buildApp({ ...config, logger: false });
    try {
      // global lists neither packages-credential nor third-party.
      const packages = await app.inject({ method: 'GET', url: '/uiless/proxy/package/api/external/users/userInfo' });
      expect(packages.statusCode).toBe(404);
      const identities = await app.inject({ method: 'GET', url: '/individual/proxy/my/identities' });
      expect(identities.statusCode).toBe(401);
      // Its database still has every slice's tables, so switching the edition needs no migration.
      const tables = (await app.ctx.db.introspection.getTables()).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(['packages_credentials', 'ssh_keys', 'email_tokens']));
    } finally {
      await app.close();
    }
  });

  it('reach token verification only through ctx.tokenAuth; without a provider a token answers 401 TokenInvalid', async () => {
    const config = loadConfig({ DATA_DIR: tempDir(), DIST_DIR: tempDir() });
    const app = await buildApp({ ...config, logger: false });
    const call = () =>
      app.inject({ method: 'GET', url: '/oapi/v1/platform/user', headers: { 'x-yunxiao-token': 'pt-anything' } });
    try {
      expect(app.ctx.tokenAuth).not.toBeNull(); // the access-tokens slice provides it in every edition today
      const user = {
        id: 'u1',
        username: 'alice',
        username_lower: 'alice',
        name: 'Alice',
        email: null,
        email_verified: 0,
        avatar: null,
        language: null,
        must_change_password: 0,
        current_org_id: null,
        color_scheme: 'system' as const,
        created_at: 0,
        updated_at: 0,
      };
      app.ctx.tokenAuth = { verify: async () => ({ ok: true, tokenId: 't1', scopes: ['base:user:read'], user }) };
      expect((await call()).json()).toMatchObject({ id: 'u1', username: 'alice' });
      app.ctx.tokenAuth = null;
      const r = await call();
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ code: 'TokenInvalid' });
    } finally {
      await app.close();
    }
  });
});

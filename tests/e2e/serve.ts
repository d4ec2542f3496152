// The real service for one e2e project: a fresh temp database, the edition's built bundle, loopback only.
// Seeds the accounts the specs sign in with (tests/e2e/fixtures.ts names them).
import fs from 'node:fs';
import http from 'node:http';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { loadFirstScreenRenderer } from '../../server/html/first-screen';
import { bindIdentity } from '../../server/services/identities';
import { addMember, requireSecondFactor } from '../../server/services/organizations';
import { seedAccounts, tempDataDir } from '../kit/server';
import { startSmtpSink } from '../kit/smtp';
import { puzzleGap } from '../kit/captcha';
import { startSlapd } from '../kit/slapd';
import { startOAuthProvider } from '../kit/oauth-provider';
import { setDirectory } from '../../plugins/login/server/directory';
import { setOAuthProvider } from '../../plugins/login/server/oauth';
import { issueToken } from '../../plugins/access-tokens/server/tokens';
import {
  E2E_SIGN_IN,
  E2E_MANY_ORGS,
  E2E_ORG,
  E2E_ORG_USERS,
  E2E_PACKAGES_ORG,
  E2E_POLICY_ORGS,
  E2E_USERS,
  mailApiPortFile,
  type E2EAccount,
  type E2EMail,
  type E2ESeededToken,
  type E2ETokenSeed,
} from './fixtures';

const dataDir = tempDataDir(`e2e-${process.env.EDITION ?? 'vpc'}-`);
// A real SMTP sink on loopback receives the service's mail; specs read it through mailsTo() (fixtures.ts).
const smtp = await startSmtpSink();
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SMTP_URL: smtp.url });
const app = await buildApp({ ...config, logger: false });
await seedAccounts(app.ctx, {
  orgs: { [E2E_ORG.name]: E2E_ORG.apps, [E2E_PACKAGES_ORG.name]: E2E_PACKAGES_ORG.apps },
  users: Object.fromEntries(
    Object.values(E2E_USERS).map(({ username, ...u }) => [username, { org: E2E_ORG.name, ...u }]),
  ),
});
// The organisation spec: two organisations to switch between, 120 to page through, two under a policy, none at all.
const { blocked, expired, twoFactor, twoFactorGrace } = E2E_POLICY_ORGS;
await seedAccounts(app.ctx, {
  orgs: {
    [blocked.name]: { apps: blocked.apps, ipWhitelist: blocked.ipWhitelist },
    [expired.name]: { apps: expired.apps, licenceExpiresAt: expired.licenceExpiresAt },
    [twoFactor.name]: { apps: twoFactor.apps },
    [twoFactorGrace.name]: { apps: twoFactorGrace.apps },
  },
  users: Object.fromEntries(Object.values(E2E_ORG_USERS).map(({ username, ...u }) => [username, u])),
  manyOrgs: [{ ...E2E_MANY_ORGS, members: [E2E_ORG_USERS.many.username] }],
});
await addMember(app.ctx, E2E_PACKAGES_ORG.name, E2E_ORG_USERS.switcher.username);
// Two organisations require a second factor (org-second-factor.spec.ts): one refuses members without one now, one warns.
for (const org of [twoFactor, twoFactorGrace]) await requireSecondFactor(app.ctx, org.name, org.secondFactorGraceDays);
// The third-party page of the keys user shows one synchronised account (DingTalk) and two empty entries.
await bindIdentity(app.ctx, { username: E2E_USERS.keys.username, provider: 'dingtalk', openId: 'ding-e2e-001' });
// The message center spec (tests/e2e/inbox.spec.ts, which names them too): an empty inbox per test.
await seedAccounts(app.ctx, {
  users: {
    'inbox-flow': { org: E2E_ORG.name, name: 'Inbox User', password: 'Inbox@pass1' },
    'inbox-keys': { org: E2E_ORG.name, name: 'Inbox Keys User', password: 'Inbox@pass1' },
    'inbox-painted': { org: E2E_ORG.name, name: 'Inbox Painted User', password: 'Inbox@pass1' },
    // tests/e2e/bell.spec.ts: adds an SSH key and resets the artifact password, so it works where packages is.
    'bell-fresh': { org: E2E_PACKAGES_ORG.name, name: 'Bell User', password: 'Bell@pass1' },
  },
});
// Directory and third-party sign-in (sign-in-sources.spec.ts): a real slapd and a real OpenID Connect provider on
// loopback; the LDAP directory is enabled; Lark signs in, WeCom answers without the id field it is told to read, and
// DingTalk is not enabled. Their secrets reach the service by environment variable, as an operator would give them.
const edition = process.env.EDITION ?? 'vpc';
const closeSources: Array<() => Promise<void>> = [];
if ((E2E_SIGN_IN.editions as readonly string[]).includes(edition)) {
  const directory = await startSlapd();
  closeSources.push(() => directory.close());
  process.env.E2E_LDAP_BIND_PASSWORD = directory.ldap.bindPassword;
  await setDirectory(app.ctx, {
    kind: 'ldap',
    url: directory.url,
    bindDn: directory.ldap.bindDn,
    bindSecretRef: 'env:E2E_LDAP_BIND_PASSWORD',
    baseDn: directory.ldap.baseDn,
    userFilter: directory.ldap.userFilter,
  });
  const origin = `http://${config.host}:${config.port}`;
  const clients = (['lark', 'wecom'] as const).map((p) => ({
    clientId: `e2e-${p}`,
    clientSecret: `e2e-${p}-secret`,
    redirectUris: [`${origin}/login/oauth/${p}/callback`],
  }));
  const provider = await startOAuthProvider({ clients });
  closeSources.push(() => provider.stop());
  for (const c of clients) {
    const p = c.clientId.slice(4) as 'lark' | 'wecom';
    process.env[`E2E_${p.toUpperCase()}_SECRET`] = c.clientSecret;
    await setOAuthProvider(app.ctx, {
      provider: p,
      clientId: c.clientId,
      clientSecretEnv: `E2E_${p.toUpperCase()}_SECRET`,
      authorizeUrl: provider.authorizeUrl,
      tokenUrl: provider.tokenUrl,
      userinfoUrl: provider.userinfoUrl,
      scope: 'openid',
      idField: p === E2E_SIGN_IN.noAccountInfo ? 'unionid' : 'sub',
      nameField: 'name',
    });
  }
  const { bound, binder } = E2E_SIGN_IN;
  await seedAccounts(app.ctx, {
    users: {
      [bound.username]: { org: E2E_ORG.name, name: bound.name, password: bound.password },
      [binder.username]: { org: E2E_ORG.name, name: binder.name, password: binder.password },
    },
  });
  await bindIdentity(app.ctx, { username: bound.username, provider: 'feishu', openId: bound.openId });
}
/**
 * Replaces an account's tokens (and their recorded uses) with `tokens`, dated on the service's clock; makes the account
 * (in the e2e organisation) when it does not exist yet, so each repeat of a test can have its own.
 */
async function seedTokens({
  account,
  tokens,
}: {
  account: E2EAccount;
  tokens: E2ETokenSeed[];
}): Promise<E2ESeededToken[]> {
  const { db, clock, credentialUses } = app.ctx;
  const find = () =>
    db.selectFrom('users').select('id').where('username_lower', '=', account.username.toLowerCase()).executeTakeFirst();
  let user = await find();
  if (!user) {
    const { username, ...rest } = account;
    await seedAccounts(app.ctx, { users: { [username]: { org: E2E_ORG.name, ...rest } } });
    user = (await find())!;
  }
  const gone = await db.deleteFrom('personal_access_tokens').where('user_id', '=', user.id).returning('id').execute();
  await credentialUses.forget(
    'token',
    gone.map((r) => r.id),
  );
  const now = clock.now().getTime();
  const daysAgo = (d: number) => now - d * 24 * 60 * 60 * 1000;
  const seeded: E2ESeededToken[] = [];
  for (const t of tokens) {
    const { token, record } = await issueToken(db, clock, {
      userId: user.id,
      name: t.name,
      description: t.description ?? `seeded by the e2e service`,
      scopes: t.scopes,
      expiresAt: t.expiresInDays === null ? null : new Date(daysAgo(-t.expiresInDays)),
    });
    await db
      .updateTable('personal_access_tokens')
      .set({
        created_at: daysAgo(t.createdDaysAgo ?? 0),
        last_used_at: t.usedDaysAgo === undefined ? null : daysAgo(t.usedDaysAgo),
      })
      .where('id', '=', record.id)
      .execute();
    seeded.push({ name: t.name, id: record.id, token });
  }
  return seeded;
}
await app.listen({ port: config.port, host: config.host });
await loadFirstScreenRenderer(config.distDir, config.edition);
const mailApi = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/captcha') {
    // Where a puzzle's gap is, as a person sees it in the picture (the specs drag the piece there).
    void puzzleGap(app.ctx, url.searchParams.get('id') ?? '').then(
      (x) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ x })),
      () => res.writeHead(404).end(),
    );
    return;
  }
  if (url.pathname === '/age-recovery') {
    // Ten minutes pass for one account's recoveries: its code and ticket are now stale.
    void app.ctx.db
      .updateTable('recovery_flows')
      .set({ code_expires_at: 1, ticket_expires_at: 1 })
      .where('username', '=', (url.searchParams.get('username') ?? '').toLowerCase())
      .execute()
      .then(
        () => res.writeHead(204).end(),
        () => res.writeHead(500).end(),
      );
    return;
  }
  if (url.pathname === '/age-proofs') {
    // The re-authentication window passes for one account's sessions: their last proof is long ago.
    const username = (url.searchParams.get('username') ?? '').toLowerCase();
    void app.ctx.db
      .updateTable('sessions')
      .set({ proved_at: 1 })
      .where('user_id', 'in', app.ctx.db.selectFrom('users').select('id').where('username_lower', '=', username))
      .execute()
      .then(
        () => res.writeHead(204).end(),
        () => res.writeHead(500).end(),
      );
    return;
  }
  if (url.pathname === '/tokens' && req.method === 'POST') {
    // One account's tokens start over as told, some made, used or ending days ago (the credentials-in-use spec: the
    // marks of 30 and 90 days, expiry, re-creation), through the slice's own issuing; answers their ids and secrets.
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on(
      'end',
      () =>
        void seedTokens(JSON.parse(body) as { account: E2EAccount; tokens: E2ETokenSeed[] }).then(
          (seeded) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seeded)),
          (err: Error) => res.writeHead(500).end(err.message),
        ),
    );
    return;
  }
  if (url.pathname !== '/mails') return void res.writeHead(404).end();
  const to = url.searchParams.get('to')?.toLowerCase();
  const list = to ? smtp.mails.filter((m) => m.to.some((t) => t.toLowerCase() === to)) : smtp.mails;
  const shown: E2EMail[] = list.map(({ to, subject, text, links }) => ({ to, subject, text, links }));
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(shown));
});
// A free port (fixed offsets collide with other e2e runs on the machine), published for mailsTo() and the slider.
await new Promise<void>((resolve) => mailApi.listen(0, '127.0.0.1', resolve));
const mailApiFile = mailApiPortFile(config.port);
fs.writeFileSync(mailApiFile, String((mailApi.address() as { port: number }).port));
const stop = () =>
  void app.close().finally(() => {
    mailApi.close();
    fs.rmSync(mailApiFile, { force: true });
    void smtp.close();
    for (const close of closeSources) void close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildApp } from '../server/app';
import { ConfigError, loadConfig, projectRoot } from '../server/config';
import { EditionError } from '../server/edition/loader';
import { loadFirstScreenRenderer } from '../server/html/first-screen';
import { seedDemoIfEmpty } from '../server/services/seed';

/** `npm start`: build the edition when missing, migrate, seed an empty database, listen and say how to sign in. */
async function start(): Promise<void> {
  const config = loadConfig();
  const index = path.join(config.distDir, config.edition, 'index.html');
  if (!fs.existsSync(index)) {
    console.log(`Building the "${config.edition}" edition (first start)…`);
    const r = spawnSync('npx', ['tsx', 'scripts/build.ts', '--edition', config.edition], {
      cwd: projectRoot,
      stdio: 'inherit',
    });
    if (r.status !== 0)
      console.warn(`warning: the build failed (exit ${r.status}); the API runs, pages answer 503 until it is built.`);
  }
  const app = await buildApp({ ...config, logger: { level: process.env.LOG_LEVEL ?? 'warn' } });
  const seed = await seedDemoIfEmpty(app.ctx);
  await app.listen({ port: config.port, host: config.host });
  // The first page's renderer loads now, not while that page waits.
  void loadFirstScreenRenderer(config.distDir, config.edition);
  const host =
    config.host === '0.0.0.0' || config.host === '::'
      ? 'localhost'
      : config.host.includes(':')
        ? `[${config.host}]`
        : config.host;
  const url = config.publicUrl ?? `http://${host}:${config.port}`;
  const db = config.databaseUrl ? 'PostgreSQL' : `SQLite ${path.join(config.dataDir, 'account.db')}`;
  console.log(`\nAccount service (${config.edition} edition, ${db}) is running at ${url}\n`);
  if (seed) {
    console.log('First start: created a demo organisation and user. The password is shown only this once:');
    console.log(`  organisation: ${seed.org}`);
    console.log(`  username:     ${seed.username}`);
    console.log(`  password:     ${seed.password}\n`);
  }
  console.log(`Sign in at ${url}/users/login${seed ? ' with the account above' : ''}.`);
  console.log('More accounts: npm run admin -- create-user --username NAME --password PASS --org "Demo Organization"');
  console.log(`API reference: ${url}/api/docs\n`);
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.once(sig, () => void app.close().then(() => process.exit(0)));
}

start().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof EditionError) {
    console.error(e.message);
    process.exit(1);
  }
  console.error(e);
  process.exit(1);
});

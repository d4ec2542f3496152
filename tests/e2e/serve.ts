// The real service for one e2e project: a fresh temp database, the edition's built bundle, loopback only.
// Seeds the accounts the specs sign in with (tests/e2e/fixtures.ts names them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createOrg, createUser, installApp } from '../../server/services/accounts';
import { E2E_ORG, E2E_USERS } from './fixtures';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${process.env.EDITION ?? 'vpc'}-`));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
const app = await buildApp({ ...config, logger: false });
await createOrg(app.ctx, E2E_ORG.name);
for (const key of E2E_ORG.apps) await installApp(app.ctx, E2E_ORG.name, key);
for (const u of Object.values(E2E_USERS)) {
  await createUser(app.ctx, { ...u, org: E2E_ORG.name });
}
await app.listen({ port: config.port, host: config.host });
const stop = () =>
  void app.close().finally(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

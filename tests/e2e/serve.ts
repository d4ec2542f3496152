// The real service for one e2e project: a fresh temp database, the edition's built bundle, loopback only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${process.env.EDITION ?? 'vpc'}-`));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
const app = await buildApp({ ...config, logger: false });
await app.listen({ port: config.port, host: config.host });
const stop = () => void app.close().finally(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

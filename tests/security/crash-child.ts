// The service as its own process for the crash rounds (tests/security/crash.test.ts): killed with SIGKILL mid-write.
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { TEST_HASH_PARAMS } from '../kit/server';

const config = loadConfig(process.env);
const app = await buildApp({ ...config, hashParams: TEST_HASH_PARAMS, logger: { level: 'info' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);

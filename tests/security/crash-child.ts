// The service as its own process for the crash rounds (tests/security/crash.test.ts): killed with SIGKILL mid-write.
// It loads its modules (the plugins' too) first and says LOADED, then waits for a line on stdin before it opens the database: the test
// starts the next round's process while the current one runs, so loading (most of a start) overlaps the round.
import { once } from 'node:events';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { discoverServerPlugins } from '../../server/plugin-loader';
import { TEST_HASH_PARAMS } from '../kit/server';

await discoverServerPlugins(); // the plugins' modules too (cached for buildApp)
process.stdout.write('LOADED\n');
await once(process.stdin, 'data');
const config = loadConfig(process.env);
const app = await buildApp({ ...config, hashParams: TEST_HASH_PARAMS, logger: { level: 'info' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);

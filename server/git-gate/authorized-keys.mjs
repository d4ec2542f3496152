// sshd's AuthorizedKeysCommand for git over SSH (issue 42): `authorized-keys.mjs <config> %t %k`. Asks the account
// service which account the presented key belongs to and prints its answer: authorized_keys lines whose forced command
// is the gate with the key's id (nothing for an unknown key, and then sshd refuses the key). Exits non-zero, printing
// nothing on stdout, when the service cannot answer: sshd then refuses the key as well.
import { askService, readConfig } from './common.mjs';

const [, , configFile, type, key] = process.argv;
const config = readConfig(configFile);
if (!type || !key) {
  process.stderr.write('usage: authorized-keys.mjs <config> <key type> <base64 key>\n');
  process.exit(1);
}
const query = new URLSearchParams({ type, key });
if (config.gate) query.set('gate', config.gate);
const res = await askService(config, `/internal/v1/ssh/authorized-keys?${query}`);
if (res?.status !== 200) {
  process.stderr.write(`git gate: the account service answered ${res ? res.status : 'nothing'}\n`);
  process.exit(1);
}
process.stdout.write(res.body);

// `npm run setup`: installs what a clean machine lacks for the tests: Debian's Chromium (as root, via apt).
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(cmd) {
  console.log(`$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

if (fs.existsSync(CHROMIUM)) {
  console.log(`chromium present: ${CHROMIUM}`);
} else if (process.getuid?.() === 0) {
  run('apt-get update -qq');
  run('apt-get install -y -qq chromium');
} else {
  console.error(`chromium is missing at ${CHROMIUM}; install it as root: apt-get install -y chromium`);
  process.exit(1);
}

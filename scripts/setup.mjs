// `npm run setup`: installs what a clean machine lacks for the tests (as root, via apt): Debian's Chromium, the Noto CJK
// fonts it draws Chinese with, OpenLDAP's slapd and ldap-utils for the directory sign-in tests (tests/kit/slapd.ts), and
// nginx for `npm run cluster` (several instances behind a reverse proxy), OpenSSH's server and git for git over SSH
// (`npm run git-ssh` and its test). PostgreSQL comes with scripts/with-postgres.sh.
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

// Chinese text (the default language of most editions) needs a CJK font. Without one Chromium draws empty boxes, so a
// screenshot shows nothing readable, and it searches every installed font for each missing glyph: the first layout of a
// Chinese page took 25-45 ms instead of 12-20, which a phone (Android ships Noto Sans CJK) never pays and which Lighthouse
// multiplies by 4 (npm run bench:web). Noto Sans CJK is what Android and ChromeOS draw Chinese with.
const CJK_FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
if (fs.existsSync(CJK_FONT)) {
  console.log(`CJK font present: ${CJK_FONT}`);
} else if (process.getuid?.() === 0) {
  run('apt-get install -y -qq fonts-noto-cjk || (apt-get update -qq && apt-get install -y -qq fonts-noto-cjk)');
} else {
  // The tests pass without it (Chinese as boxes); only the screenshots and the bench's figures suffer.
  console.error(
    'the Noto CJK fonts are missing (Chinese pages draw as boxes); install them as root: apt-get install -y fonts-noto-cjk',
  );
}

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
if (NGINX) {
  console.log(`nginx present: ${NGINX}`);
} else if (process.getuid?.() === 0) {
  // Only `npm run cluster` needs nginx, not `npm test`: a failed install warns instead of stopping the setup.
  try {
    run('apt-get install -y -qq nginx || (apt-get update -qq && apt-get install -y -qq nginx)');
  } catch {
    console.error('nginx could not be installed; npm run cluster needs it (apt-get install -y nginx)');
  }
} else {
  console.error('nginx is missing (npm run cluster needs it); install it as root: apt-get install -y nginx');
}

// The directory sign-in tests start their own slapd on a loopback port (tests/kit/slapd.ts); the package's own daemon is
// not needed (Debian's postinst does not start it in a container, where policy-rc.d forbids it).
const SLAPD = '/usr/sbin/slapd';
if (fs.existsSync(SLAPD) && fs.existsSync('/usr/sbin/slapadd')) {
  console.log(`slapd present: ${SLAPD}`);
} else if (process.getuid?.() === 0) {
  run('apt-get install -y -qq slapd ldap-utils || (apt-get update -qq && apt-get install -y -qq slapd ldap-utils)');
} else {
  console.error(
    'slapd is missing (the directory sign-in tests need it); install it as root: apt-get install -y slapd ldap-utils',
  );
  process.exit(1);
}

// Git over SSH (tests/http/git-over-ssh.test.ts, `npm run git-ssh`) starts its own sshd on a loopback port with its own
// configuration (scripts/lib/sshd.ts) and runs git-upload-pack / git-receive-pack; the package's own daemon is not used.
const SSHD = '/usr/sbin/sshd';
const GIT = '/usr/bin/git';
if (fs.existsSync(SSHD) && fs.existsSync(GIT)) {
  console.log(`sshd and git present: ${SSHD}, ${GIT}`);
} else if (process.getuid?.() === 0) {
  run('apt-get install -y -qq openssh-server git || (apt-get update -qq && apt-get install -y -qq openssh-server git)');
} else {
  console.error(
    'sshd or git is missing (the git over SSH test needs them); install them as root: apt-get install -y openssh-server git',
  );
  process.exit(1);
}

// `npm run artifacts`: Debian's nginx on loopback in front of a directory of artifacts, every download judged by the
// running account service (the artifact password, through nginx's auth_request and the internal endpoint), so
// `curl -u`, npm and Maven can be tried by hand (docs/operations.md, "Artifact downloads"). The service must run with
// the same INTERNAL_API_SECRET (e.g. `INTERNAL_API_SECRET=… npm start` in another terminal).
//   INTERNAL_API_SECRET  the service's internal secret (required)
//   SERVICE_URL          where nginx reaches the service (default http://127.0.0.1:3000)
//   ARTIFACTS_PORT       where nginx listens on 127.0.0.1 (default 8081)
//   ARTIFACTS_DIR        the directory served (default: a demo directory made under the system temp folder)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NGINX, startArtifactsNginx } from './lib/nginx';

/**
 * A small artifact directory as registries lay them out: an npm package (its metadata and tarball) and a Maven
 * artifact (pom and jar), enough for `curl -u`, `npm install` and `mvn dependency:get` to find something.
 */
function writeDemoArtifacts(dir: string, baseUrl: string): void {
  const put = (rel: string, body: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  };
  put('README.txt', 'Demo artifacts served behind the account service.\n');
  // A real package tarball (tar writes it), so `npm install demo-lib` unpacks something.
  const pkg = path.join(dir, '.pack', 'package');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(
    path.join(pkg, 'package.json'),
    JSON.stringify({ name: 'demo-lib', version: '1.0.0', main: 'index.js' }),
  );
  fs.writeFileSync(path.join(pkg, 'index.js'), "module.exports = 'demo-lib from the artifact front door';\n");
  fs.mkdirSync(path.join(dir, 'npm/demo-lib/-'), { recursive: true });
  execFileSync('tar', [
    '-czf',
    path.join(dir, 'npm/demo-lib/-/demo-lib-1.0.0.tgz'),
    '-C',
    path.dirname(pkg),
    'package',
  ]);
  fs.rmSync(path.join(dir, '.pack'), { recursive: true });
  put(
    'npm/demo-lib/index.json',
    JSON.stringify({
      name: 'demo-lib',
      'dist-tags': { latest: '1.0.0' },
      versions: {
        '1.0.0': {
          name: 'demo-lib',
          version: '1.0.0',
          dist: { tarball: `${baseUrl}/npm/demo-lib/-/demo-lib-1.0.0.tgz` },
        },
      },
    }),
  );
  put(
    'maven/com/example/demo/1.0.0/demo-1.0.0.pom',
    '<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>demo</artifactId><version>1.0.0</version></project>\n',
  );
  put('maven/com/example/demo/1.0.0/demo-1.0.0.jar', Buffer.from('PK demo jar\n'));
}

function main(): void {
  const secret = process.env.INTERNAL_API_SECRET?.trim();
  if (!secret) {
    console.error('artifacts: set INTERNAL_API_SECRET to the service’s (the service must run with it too)');
    process.exit(2);
  }
  if (!NGINX) {
    console.error('artifacts: nginx is missing; `npm run setup` installs it (as root, via apt)');
    process.exit(2);
  }
  const service = process.env.SERVICE_URL?.trim() || 'http://127.0.0.1:3000';
  const listen = Number(process.env.ARTIFACTS_PORT ?? 8081);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'account-artifacts-'));
  fs.chmodSync(work, 0o755); // nginx's workers (nobody when started as root) read the demo files
  const base = `http://127.0.0.1:${listen}`;
  let root = process.env.ARTIFACTS_DIR?.trim();
  if (!root) {
    root = path.join(work, 'artifacts');
    writeDemoArtifacts(root, base);
  }
  const nginx = startArtifactsNginx(work, { listen, root: path.resolve(root), service, secret });
  const stop = () => {
    nginx.stop();
    fs.rmSync(work, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`artifacts: ${root} served at ${base}, each download judged by ${service}`);
  console.log(`  access log: ${path.join(work, 'artifacts-access.log')}`);
  console.log(`  try: curl -u <username>:<artifact password> ${base}/maven/com/example/demo/1.0.0/demo-1.0.0.pom`);
  console.log(`       npm install demo-lib --registry ${base}/npm/ (with //127.0.0.1:${listen}/npm/:_auth in .npmrc)`);
  console.log('  Ctrl-C stops nginx');
  setInterval(() => {}, 1 << 30);
}

main();

// `npm run git-ssh`: a real sshd on loopback serving git, every key and every clone or push judged by the running
// account service (the SSH key's owner, scope and expiry, the organisation's membership and policies, through the
// gate programs of server/git-gate and the internal API), with a demo repository, so git over SSH can be tried by hand
// (docs/operations.md, "Git over SSH"). The service must run with the same INTERNAL_API_SECRET (e.g.
// `INTERNAL_API_SECRET=… npm start` in another terminal). Runs as root (sshd runs its AuthorizedKeysCommand only from
// root-owned files); the login user is the one running it.
//   INTERNAL_API_SECRET  the service's internal secret (required)
//   SERVICE_URL          where the gate reaches the service (default http://127.0.0.1:3000)
//   GIT_SSH_PORT         where sshd listens on 127.0.0.1 (default 2222)
//   GIT_REPOSITORIES     the repository root, `<root>/<organisation name>/<repo>.git` (default ./data/repositories)
//   GIT_SSH_DEMO_ORG     the organisation whose demo.git is made when missing (default "Demo Organization", the one
//                        the first `npm start` creates)
import path from 'node:path';
import { checkGitSshd, createDemoRepository, startGitSshd } from './lib/sshd';

async function main(): Promise<void> {
  const secret = process.env.INTERNAL_API_SECRET?.trim();
  if (!secret) {
    console.error('git-ssh: set INTERNAL_API_SECRET to the service’s (the service must run with it too)');
    process.exit(2);
  }
  try {
    checkGitSshd();
  } catch (e) {
    console.error(`git-ssh: ${(e as Error).message}`);
    process.exit(2);
  }
  const service = process.env.SERVICE_URL?.trim() || 'http://127.0.0.1:3000';
  const port = Number(process.env.GIT_SSH_PORT ?? 2222);
  const repositories = path.resolve(process.env.GIT_REPOSITORIES?.trim() || 'data/repositories');
  const org = process.env.GIT_SSH_DEMO_ORG?.trim() || 'Demo Organization';
  const demo = createDemoRepository(repositories, org);
  const sshd = await startGitSshd({ service, secret, repositories, port }).catch((e: Error) => {
    console.error(`git-ssh: ${e.message}`);
    process.exit(1);
  });
  const stop = () => {
    void sshd.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const ssh = `ssh -p ${port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null`;
  console.log(
    `git-ssh: sshd on 127.0.0.1:${port} (login user ${sshd.user}), each key and command judged by ${service}`,
  );
  console.log(`  repositories: ${repositories} (<organisation name>/<repo>.git); demo: ${demo}`);
  console.log(`  sshd log: ${path.join(sshd.dir, 'sshd.log')}`);
  console.log('  add your public key under Personal settings > SSH keys as a member of the organisation, then:');
  console.log(`  GIT_SSH_COMMAND='${ssh}' git clone '${sshd.user}@127.0.0.1:${org}/demo.git'`);
  console.log('  Ctrl-C stops sshd');
  setInterval(() => {}, 1 << 30);
}

await main();

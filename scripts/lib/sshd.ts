// Git over SSH on loopback (issue 42): Debian's OpenSSH server with its own configuration, host key and programs under
// one work directory, asking the account service through the gate programs of server/git-gate. Used by
// `npm run git-ssh` (trying it by hand) and tests/http/git-over-ssh.test.ts. `npm run setup` installs openssh-server
// and git.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Debian's OpenSSH server (sshd must be started by its absolute path: it re-executes itself). */
export const SSHD = '/usr/sbin/sshd';
/** The git whose upload-pack / receive-pack the gate runs. */
export const GIT = '/usr/bin/git';
/** Where the gate programs live in the project (copied into the work directory at start). */
const GATE_SOURCES = path.join(import.meta.dirname, '../../server/git-gate');
/** What sshd needs for privilege separation; Debian's package makes it only when its service starts. */
const PRIVSEP_DIR = '/run/sshd';

/** What the sshd of `startGitSshd` serves and asks. */
export interface GitSshdOptions {
  /** The account service's base URL (the gate's questions go there). */
  service: string;
  /** The service's INTERNAL_API_SECRET; written to the gate's configuration file (mode 0600) only. */
  secret: string;
  /** The repository root: `<root>/<organisation name>/<repo>.git`. */
  repositories: string;
  /** The port on 127.0.0.1; a free one when absent. */
  port?: number;
  /** What the gate says before the service named the member's language (default en_US). */
  locale?: 'zh_CN' | 'en_US';
}

/** A running sshd serving git. */
export interface GitSshd {
  port: number;
  /** The login user (the one running it; root in CI): `<user>@127.0.0.1:<org>/<repo>.git`. */
  user: string;
  /** The work directory (configuration, host key, programs, sshd.log). */
  dir: string;
  /** sshd's log so far (LogLevel VERBOSE: accepted and refused keys). */
  log(): string;
  /** GIT_SSH_COMMAND for a client using `identity` (a private key file): no agent, no known_hosts, no prompt. */
  sshCommand(identity: string): string;
  /** Stops sshd and removes the work directory. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Throws unless this machine can run it: sshd and git installed, run as root. sshd runs the AuthorizedKeysCommand only
 * when it and every directory above it belong to root and nobody else may write them.
 */
export function checkGitSshd(): void {
  if (!fs.existsSync(SSHD) || !fs.existsSync(GIT))
    throw new Error(
      `${SSHD} or ${GIT} is missing: npm run setup installs them (as root: apt-get install -y openssh-server git)`,
    );
  if (process.getuid?.() !== 0)
    throw new Error(
      'git over SSH on loopback runs as root (sshd runs the AuthorizedKeysCommand only from root-owned files)',
    );
}

/** True when `dir` and every directory above it are root's and writable by nobody else (what sshd checks). */
function rootOwnedPath(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    let st: fs.Stats;
    try {
      st = fs.statSync(d);
    } catch {
      return false;
    }
    if (st.uid !== 0 || (st.mode & 0o022) !== 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

/** A fresh work directory where sshd accepts the programs (not /tmp: anyone may write there). */
function makeWorkDir(): string {
  const bases = [process.env.GIT_SSH_WORK_BASE, '/run', '/var/lib', os.homedir()].filter((b): b is string => !!b);
  const base = bases.find((b) => fs.existsSync(b) && rootOwnedPath(b));
  if (!base) throw new Error(`no root-owned directory to run sshd from (tried ${bases.join(', ')})`);
  const dir = fs.mkdtempSync(path.join(base, 'git-ssh-'));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** A free TCP port on 127.0.0.1 (`port` itself when given and free; rejects when it is taken). */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something listens on 127.0.0.1:port; rejects when `child` exits first or after `ms`. */
async function listening(port: number, child: ChildProcess, log: () => string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`sshd stopped at start (${child.exitCode ?? child.signalCode}):\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`sshd did not listen on ${port}:\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A shell word in single quotes (paths in the wrapper scripts). */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The sshd_config of a git-only server: keys from the service, every session forced to the gate. */
export function sshdConfig(dir: string, user: string): string {
  return `# git over SSH for the account service (scripts/lib/sshd.ts); the port comes with -p.
ListenAddress 127.0.0.1
HostKey ${dir}/host_ed25519
PidFile ${dir}/sshd.pid
AuthorizedKeysFile none
AuthorizedKeysCommand ${dir}/bin/authorized-keys %t %k
AuthorizedKeysCommandUser ${user}
AllowUsers ${user}
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin forced-commands-only
UsePAM no
PermitUserEnvironment no
AllowTcpForwarding no
AllowAgentForwarding no
AllowStreamLocalForwarding no
X11Forwarding no
PermitTunnel no
PermitTTY no
PrintMotd no
PrintLastLog no
AcceptEnv LANG LC_ALL GIT_PROTOCOL
MaxStartups 100:30:200
LogLevel VERBOSE
`;
}

/**
 * Fills the work directory: the gate programs (mode 0755: sshd refuses an AuthorizedKeysCommand others may write),
 * their wrappers naming node and the configuration file (mode 0600, the secret's only place), a fresh host key and
 * sshd_config; answers the latter's path.
 */
function prepareWorkDir(dir: string, user: string, o: GitSshdOptions): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { mode: 0o755 });
  for (const f of fs.readdirSync(GATE_SOURCES).filter((f) => f.endsWith('.mjs'))) {
    fs.copyFileSync(path.join(GATE_SOURCES, f), path.join(bin, f));
    fs.chmodSync(path.join(bin, f), 0o755);
  }
  const configFile = path.join(dir, 'git-gate.json');
  const wrapper = (name: string, program: string) => {
    const file = path.join(bin, name);
    // sshd clears the environment: the node binary and the configuration are named in full.
    fs.writeFileSync(
      file,
      `#!/bin/sh\nexec ${sq(process.execPath)} ${sq(path.join(bin, program))} ${sq(configFile)} "$@"\n`,
      { mode: 0o755 },
    );
    fs.chmodSync(file, 0o755);
    return file;
  };
  const gate = wrapper('git-gate', 'gate.mjs');
  wrapper('authorized-keys', 'authorized-keys.mjs');
  fs.writeFileSync(
    configFile,
    JSON.stringify(
      {
        service: o.service,
        secret: o.secret,
        repositories: path.resolve(o.repositories),
        gate,
        git: GIT,
        locale: o.locale ?? 'en_US',
      },
      null,
      2,
    ),
    { mode: 0o600 },
  );
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    'ed25519',
    '-N',
    '',
    '-C',
    'git-ssh host',
    '-f',
    path.join(dir, 'host_ed25519'),
  ]);
  const conf = path.join(dir, 'sshd_config');
  fs.writeFileSync(conf, sshdConfig(dir, user));
  return conf;
}

/**
 * Starts sshd on 127.0.0.1 (`sshd -D -f FILE -p PORT`) with a fresh host key, the gate programs copied under a
 * root-owned work directory (mode 0755: sshd refuses an AuthorizedKeysCommand others may write) and their
 * configuration file (mode 0600, the secret's only place).
 */
export async function startGitSshd(o: GitSshdOptions): Promise<GitSshd> {
  checkGitSshd();
  if (!fs.existsSync(PRIVSEP_DIR)) fs.mkdirSync(PRIVSEP_DIR, { mode: 0o755, recursive: true });
  // A port already taken would pass the "is it listening" check with someone else's server.
  const port = await freePort(o.port).catch(() => {
    throw new Error(`127.0.0.1:${o.port} is in use: choose another port`);
  });
  const dir = makeWorkDir();
  const user = os.userInfo().username;
  let conf: string;
  try {
    conf = prepareWorkDir(dir, user, o);
    // Check the configuration first: a mistake is then sshd's own message, not a port that never opens.
    execFileSync(SSHD, ['-t', '-f', conf, '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const logFile = path.join(dir, 'sshd.log');
  const log = () => {
    try {
      return fs.readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  const child = spawn(SSHD, ['-D', '-f', conf, '-p', String(port), '-E', logFile], { stdio: 'ignore' });
  let stopped = false;
  const stop = async () => {
    if (!stopped) {
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(port, child, log);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    port,
    user,
    dir,
    log,
    sshCommand: (identity) =>
      [
        'ssh',
        `-i ${sq(identity)}`,
        `-p ${port}`,
        '-o StrictHostKeyChecking=no',
        '-o UserKnownHostsFile=/dev/null',
        '-o IdentitiesOnly=yes',
        '-o BatchMode=yes',
        // The client's language reaches the gate (a member without a language of their own is answered in it).
        '-o SendEnv=LANG',
        '-o LogLevel=ERROR',
      ].join(' '),
    stop,
  };
}

/**
 * A bare repository `<root>/<org>/<repo>.git` with one commit (README.md on main), unless it exists: the demo the
 * script and the test clone.
 */
export function createDemoRepository(root: string, org: string, repo = 'demo.git'): string {
  const bare = path.join(root, org, repo);
  if (fs.existsSync(bare)) return bare;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'git-demo-'));
  try {
    const git = (...args: string[]) =>
      execFileSync(GIT, args, {
        cwd: work,
        stdio: 'ignore',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'Demo',
          GIT_AUTHOR_EMAIL: 'demo@example.com',
          GIT_COMMITTER_NAME: 'Demo',
          GIT_COMMITTER_EMAIL: 'demo@example.com',
        },
      });
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(work, 'README.md'), `# ${org}/${repo}\n\nA demo repository served by git over SSH.\n`);
    git('add', 'README.md');
    git('commit', '-q', '-m', 'A first commit');
    fs.mkdirSync(path.dirname(bare), { recursive: true });
    execFileSync(GIT, ['clone', '-q', '--bare', work, bare], { stdio: 'ignore' });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return bare;
}

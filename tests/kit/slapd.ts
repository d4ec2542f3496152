// A real directory for the tests: Debian's OpenLDAP (`/usr/sbin/slapd`) on a free loopback port, one per test file,
// with an LDAP directory (dc=example,dc=org) and a Windows-AD look-alike (dc=corp,dc=example) seeded from
// tests/fixtures/ldap. Directory sign-in tests (HTTP, e2e) start it in `beforeAll` and `close()` it in `afterAll`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'ldapts';

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
const SCHEMA_DIR = '/etc/ldap/schema';
const MODULE_DIR = '/usr/lib/ldap';
const FIXTURES = path.join(import.meta.dirname, '../fixtures/ldap');

/** The password of the directories' root accounts (`cn=admin,<base>`), for changing entries in tests. */
export const LDAP_ADMIN_PASSWORD = 'Admin#Root-0';

/** The seeded accounts' passwords, by account (the LDIF fixtures hold their {SSHA} hashes). */
export const LDAP_PASSWORDS = {
  /** `cn=reader,dc=example,dc=org`, the LDAP directory's service account. */
  reader: 'Reader#Pass-1',
  lin: 'Lin#Pass-1',
  mo: 'Mo#Pass-2',
  lin2: 'Lin2#Pass-4',
  sam: 'Sam#Pass-7',
  tao: 'Tao#Pass-8',
  ghost: 'Ghost#Pass-3',
  /** `cn=reader,cn=Users,dc=corp,dc=example`, the AD look-alike's service account. */
  corpReader: 'CorpReader#Pass-1',
  kwan: 'Kwan#Pass-5',
  dormant: 'Dormant#Pass-6',
} as const;

/** One seeded account as a test uses it. */
export interface DirectoryUser {
  /** What the user types as user name (uid / sAMAccountName). */
  login: string;
  password: string;
  dn: string;
  /** cn (LDAP) or displayName (AD). */
  name: string;
  mail: string;
}

/** One directory (one base) of the running slapd, with what the service's configuration needs. */
export interface DirectoryBase {
  baseDn: string;
  /** The read-only service account that searches for users. */
  bindDn: string;
  bindPassword: string;
  /** A filter selecting the enabled accounts (the login attribute is added by the service). */
  userFilter: string;
  /** The attribute users sign in with, and the name and e-mail attributes. */
  loginAttr: string;
  nameAttr: string;
  emailAttr: string;
  /** The root account of this base (bypasses access rules): changes entries in tests. */
  adminDn: string;
  adminPassword: string;
  users: Record<string, DirectoryUser>;
}

/** The running slapd. */
export interface TestDirectory {
  /** `ldap://127.0.0.1:<port>` (StartTLS offered). */
  url: string;
  /** `ldaps://127.0.0.1:<port>`, with a certificate for 127.0.0.1 signed by `caFile`. */
  ldapsUrl: string;
  /** PEM of the throwaway CA that signed the directory's certificate. */
  caFile: string;
  port: number;
  /** uid-based LDAP directory: lin, mo, lin2, sam, tao (enabled), ghost (employeeType disabled). */
  ldap: DirectoryBase;
  /** sAMAccountName-based AD look-alike: kwan (userAccountControl 512), dormant (514, disabled). */
  ad: DirectoryBase;
  /** The temp folder (config, databases, `slapd.log`). */
  dir: string;
  /** slapd's log so far (loglevel stats: one `BIND dn="…"` line per bind, one `RESULT` per answer). */
  log(): string;
  /** Binds (DN, result code) slapd received so far, service accounts included; `err=0` is a success. */
  binds(): Array<{ dn: string; err: number | null }>;
  /** Runs `fn` with a client bound as the base's root account (modify or delete entries), then unbinds. */
  asAdmin<T>(base: 'ldap' | 'ad', fn: (client: Client) => Promise<T>): Promise<T>;
  /** Stops slapd (SIGTERM, waits for the exit); the data stays for `restart()`. Idempotent. */
  stop(): Promise<void>;
  /** Kills slapd at once (SIGKILL, a crashed directory); idempotent. */
  kill(): Promise<void>;
  /** Starts slapd again on the same port with the same data (after `stop()`/`kill()`; stops it first if running). */
  restart(): Promise<void>;
  /** Stops slapd and removes the temp folder. Idempotent. */
  close(): Promise<void>;
}

/** The `{SSHA}` form of a password, as `slappasswd` makes it (SHA-1 over password + 8-byte salt, then the salt). */
export function sshaHash(password: string): string {
  const salt = crypto.randomBytes(8);
  const digest = crypto
    .createHash('sha1')
    .update(Buffer.concat([Buffer.from(password, 'utf8'), salt]))
    .digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

/** Installs slapd when it is missing (as root, through apt-get, as scripts/with-postgres.sh does PostgreSQL). */
function ensureSlapd(): void {
  if (fs.existsSync(SLAPD) && fs.existsSync(SLAPADD)) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `${SLAPD} is missing: install OpenLDAP as root (apt-get install -y slapd ldap-utils, or npm run setup)`,
    );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'slapd', 'ldap-utils'], { env, stdio: 'ignore' });
  } catch {
    execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'slapd', 'ldap-utils'], { env, stdio: 'ignore' });
  }
  if (!fs.existsSync(SLAPD)) throw new Error(`${SLAPD} is still missing after apt-get install slapd`);
}

/** A loopback port free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Whether a TCP connection to the port succeeds. */
function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(500, () => done(false));
  });
}

/** Fills `{{NAME}}` and `{{PASSWORD:account}}` placeholders. */
function fill(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{([A-Z_]+)(?::(\w+))?\}\}/g, (whole, name: string, account?: string) => {
    if (name === 'PASSWORD' && account) {
      const pw = (LDAP_PASSWORDS as Record<string, string>)[account];
      if (pw === undefined) throw new Error(`LDIF placeholder for an unknown account: ${whole}`);
      return sshaHash(pw);
    }
    if (vars[name] === undefined) throw new Error(`unknown placeholder ${whole}`);
    return vars[name];
  });
}

/**
 * Runs slapd (in the foreground, -d) tied to this process: the shell prints slapd's pid on fd 3, exits with slapd,
 * and kills slapd when its stdin closes (`stop()`, or this process ending in any way, even SIGKILL).
 */
const GUARD = [
  'exec 4<&0',
  '"$@" 3>&- 4<&- </dev/null &',
  'pid=$!',
  'echo "$pid" >&3',
  'exec 3>&-',
  '( read _ignored <&4; kill "$pid" 2>/dev/null ) &',
  'reader=$!',
  'exec 4<&-',
  'wait "$pid"; code=$?',
  'kill "$reader" 2>/dev/null',
  'exit "$code"',
].join('\n');

/** slapd processes of this test process (guard shell → slapd pid), killed when it exits however it ends. */
const running = new Map<ChildProcess, number | undefined>();
/** Temp folders of directories not closed yet, removed on exit. */
const openDirs = new Set<string>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [guard, pid] of running) {
      for (const kill of [() => pid !== undefined && process.kill(pid, 'SIGKILL'), () => guard.kill('SIGKILL')]) {
        try {
          kill();
        } catch {
          // already gone
        }
      }
    }
    for (const dir of openDirs) fs.rmSync(dir, { recursive: true, force: true });
  });
}

const LDAP_BASE = 'dc=example,dc=org';
const AD_BASE = 'dc=corp,dc=example';

function ldapUser(login: string, name: string): DirectoryUser {
  return {
    login,
    password: LDAP_PASSWORDS[login as keyof typeof LDAP_PASSWORDS],
    dn: `uid=${login},ou=people,${LDAP_BASE}`,
    name,
    mail: `${login}@example.org`,
  };
}

function adUser(login: string, name: string): DirectoryUser {
  return {
    login,
    password: LDAP_PASSWORDS[login as keyof typeof LDAP_PASSWORDS],
    dn: `cn=${name},cn=Users,${AD_BASE}`,
    name,
    mail: `${login}@corp.example`,
  };
}

/**
 * A throwaway CA and a certificate for 127.0.0.1 signed by it, in `dir` (ca.pem, server.pem, server.key; EC keys, so
 * it takes milliseconds): slapd offers StartTLS on its ldap:// port and TLS on its ldaps:// port with them.
 */
function makeTlsFiles(dir: string): void {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Account tests CA');
  run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
}

/**
 * Starts slapd for one test file: a temp folder with the config and two MDB databases loaded with `slapadd` from the
 * LDIF fixtures, listening on `ldap://127.0.0.1:<free port>` only; resolves once it accepts connections (≤ 10 s).
 */
export async function startSlapd(): Promise<TestDirectory> {
  ensureSlapd();
  installExitHook();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'account-slapd-'));
  const conf = path.join(dir, 'slapd.conf');
  const logFile = path.join(dir, 'slapd.log');
  let child: ChildProcess | undefined;
  let closed = false;
  openDirs.add(dir);
  try {
    fs.mkdirSync(path.join(dir, 'example-org'));
    fs.mkdirSync(path.join(dir, 'corp-example'));
    const vars = {
      SCHEMA_DIR,
      MODULE_DIR,
      FIXTURES,
      DIR: dir,
      ADMIN_PASSWORD: sshaHash(LDAP_ADMIN_PASSWORD),
    };
    makeTlsFiles(dir);
    fs.writeFileSync(conf, fill(fs.readFileSync(path.join(FIXTURES, 'slapd.conf'), 'utf8'), vars));
    for (const [base, file] of [
      [LDAP_BASE, 'example-org.ldif'],
      [AD_BASE, 'corp-example.ldif'],
    ]) {
      const ldif = path.join(dir, file);
      fs.writeFileSync(ldif, fill(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), vars));
      try {
        execFileSync(SLAPADD, ['-q', '-f', conf, '-b', base, '-l', ldif], { stdio: 'pipe' });
      } catch (e) {
        const err = e as { stderr?: Buffer };
        throw new Error(`slapadd of ${file} failed: ${err.stderr?.toString() ?? String(e)}`);
      }
    }
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    openDirs.delete(dir);
    throw e;
  }
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const tlsPort = await freePort();
  const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`;

  let slapdPid: number | undefined;
  const tail = () => {
    try {
      return fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '(no log)';
    }
  };

  const launch = async (): Promise<void> => {
    const out = fs.openSync(logFile, 'a');
    const proc = spawn(
      '/bin/sh',
      ['-c', GUARD, 'slapd-guard', SLAPD, '-d', 'stats', '-f', conf, '-h', `${url}/ ${ldapsUrl}/`],
      {
        stdio: ['pipe', out, out, 'pipe'],
      },
    );
    fs.closeSync(out);
    slapdPid = undefined;
    child = proc;
    running.set(proc, undefined);
    proc.once('exit', () => {
      running.delete(proc);
      if (child === proc) child = undefined;
    });
    slapdPid = await new Promise<number>((resolve, reject) => {
      let text = '';
      (proc.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => {
        text += c.toString();
        if (!text.includes('\n')) return;
        running.set(proc, Number(text.trim()));
        resolve(Number(text.trim()));
      });
      proc.once('exit', () => reject(new Error(`slapd exited at start:\n${tail()}`)));
      proc.once('error', reject);
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child !== proc) throw new Error(`slapd exited at start:\n${tail()}`);
      if (await canConnect(port)) return;
      if (Date.now() > deadline) throw new Error(`slapd did not accept connections on ${url} within 10 s:\n${tail()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  const waitExit = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  /** Ends slapd with `signal` through its pid, then lets the guard shell end. */
  const end = async (signal: NodeJS.Signals) => {
    const proc = child;
    if (!proc) return;
    if (slapdPid !== undefined) {
      try {
        process.kill(slapdPid, signal);
      } catch {
        // already gone
      }
    }
    proc.stdin?.end();
    await waitExit(proc);
    // The guard waits for slapd, so slapd is gone too; the port is free for restart().
  };
  const stop = () => end('SIGTERM');
  const kill = () => end('SIGKILL');

  try {
    await launch();
  } catch (e) {
    await kill();
    fs.rmSync(dir, { recursive: true, force: true });
    openDirs.delete(dir);
    throw e;
  }

  const base = (
    baseDn: string,
    bindDn: string,
    bindPassword: string,
    rest: Pick<DirectoryBase, 'userFilter' | 'loginAttr' | 'nameAttr' | 'emailAttr' | 'users'>,
  ): DirectoryBase => ({
    baseDn,
    bindDn,
    bindPassword,
    adminDn: `cn=admin,${baseDn}`,
    adminPassword: LDAP_ADMIN_PASSWORD,
    ...rest,
  });

  const directory: TestDirectory = {
    url,
    ldapsUrl,
    caFile: path.join(dir, 'ca.pem'),
    port,
    dir,
    ldap: base(LDAP_BASE, `cn=reader,${LDAP_BASE}`, LDAP_PASSWORDS.reader, {
      userFilter: '(&(objectClass=inetOrgPerson)(!(employeeType=disabled)))',
      loginAttr: 'uid',
      nameAttr: 'cn',
      emailAttr: 'mail',
      users: {
        lin: ldapUser('lin', 'Lin Wei'),
        mo: ldapUser('mo', 'Mo Chen'),
        lin2: ldapUser('lin2', 'Lin Er'),
        sam: ldapUser('sam', 'Sam Liu'),
        tao: ldapUser('tao', 'Tao Zhou'),
        ghost: ldapUser('ghost', 'Ghost Former'),
      },
    }),
    ad: base(AD_BASE, `cn=reader,cn=Users,${AD_BASE}`, LDAP_PASSWORDS.corpReader, {
      userFilter: '(&(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
      loginAttr: 'sAMAccountName',
      nameAttr: 'displayName',
      emailAttr: 'mail',
      users: {
        kwan: adUser('kwan', 'Kwan Li'),
        dormant: adUser('dormant', 'Dormant Account'),
      },
    }),
    log: () => {
      try {
        return fs.readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
    binds() {
      // conn=1001 op=0 BIND dn="uid=lin,ou=people,dc=example,dc=org" method=128
      // conn=1001 op=0 RESULT tag=97 err=49 qtime=… text=
      const lines = directory.log().split('\n');
      const pending = new Map<string, { dn: string; err: number | null }>();
      const out: Array<{ dn: string; err: number | null }> = [];
      for (const line of lines) {
        const bind = / (conn=\d+ op=\d+) BIND dn="([^"]*)" method=/.exec(line);
        if (bind) {
          const entry = { dn: bind[2], err: null };
          pending.set(bind[1], entry);
          out.push(entry);
          continue;
        }
        const result = / (conn=\d+ op=\d+) RESULT tag=97 err=(\d+)/.exec(line);
        if (result) {
          const entry = pending.get(result[1]);
          if (entry) entry.err = Number(result[2]);
          pending.delete(result[1]);
        }
      }
      return out;
    },
    async asAdmin(which, fn) {
      const b = directory[which];
      const client = new Client({ url, timeout: 5000, connectTimeout: 5000 });
      try {
        await client.bind(b.adminDn, b.adminPassword);
        return await fn(client);
      } finally {
        await client.unbind().catch(() => {});
      }
    },
    stop,
    kill,
    async restart() {
      if (closed) throw new Error('the directory was closed');
      await stop();
      await launch();
    },
    async close() {
      if (closed) return;
      closed = true;
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
      openDirs.delete(dir);
    },
  };
  return directory;
}

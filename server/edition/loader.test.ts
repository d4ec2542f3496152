import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EditionError, formatProblem, listEditionIds, loadAllEditions, loadEdition, resolveEditionId } from './loader';

const root = path.resolve(import.meta.dirname, '../..');
const editionsDir = path.join(root, 'editions');
const pluginsDir = path.join(root, 'plugins');
const temps: string[] = [];

/** A copy of editions/ in a temp folder where one manifest is altered. */
function brokenCopy(id: string, mutate: (m: Record<string, unknown>) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editions-'));
  temps.push(dir);
  fs.cpSync(editionsDir, dir, { recursive: true });
  const file = path.join(dir, `${id}.json`);
  const m = JSON.parse(fs.readFileSync(file, 'utf8'));
  mutate(m);
  fs.writeFileSync(file, JSON.stringify(m));
  return dir;
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof EditionError) return e.problems.map(formatProblem);
    throw e;
  }
  throw new Error('expected an EditionError');
}

afterEach(() => {
  while (temps.length) fs.rmSync(temps.pop()!, { recursive: true, force: true });
});

describe('edition manifests', () => {
  it('all five shipped editions are valid', () => {
    const all = loadAllEditions({ editionsDir, pluginsDir, root });
    expect(all.map((m) => m.id)).toEqual(['aliyun', 'dedicated', 'dedicated_intl', 'global', 'vpc']);
  });

  it('carries the seed facts per edition', () => {
    const ed = Object.fromEntries(loadAllEditions({ editionsDir, root }).map((m) => [m.id, m]));
    expect(ed.vpc.brand.color).toBe('#006AD4'); // schema default
    for (const id of ['aliyun', 'vpc', 'dedicated', 'dedicated_intl']) {
      expect(ed[id].paths).toEqual({ relogin: '/users/login', codeHostingPrefix: '/uiless/proxy/' });
      expect(ed[id].settingsMenu).toEqual([
        { key: 'profile', visible: 'always' },
        { key: 'security', visible: 'always' },
        { key: 'personalAccessToken', visible: 'always' },
        { key: 'ssh', visible: { appInstalled: 'codeup' } },
        { key: 'packagesCredential', visible: { appInstalled: 'packages' } },
        { key: 'third-party', visible: 'always' },
      ]);
    }
    expect(ed.global.paths).toEqual({ relogin: '/sso/login', codeHostingPrefix: '/' });
    expect(ed.global.settingsMenu).toEqual([
      { key: 'profile', visible: 'always' },
      { key: 'security', visible: 'always' },
      { key: 'personalAccessToken', visible: 'always' },
      { key: 'ssh', visible: 'always' },
    ]);
    expect(ed.global.locale.default).toBe('en_US');
    expect(ed.dedicated_intl.locale.default).toBe('en_US');
    expect(ed.aliyun.locale.default).toBe('zh_CN');
    expect(ed.global.helpLinks.helpCenter).not.toBe(ed.aliyun.helpLinks.helpCenter);
    expect(ed.dedicated_intl.helpLinks.helpCenter).not.toBe(ed.dedicated.helpLinks.helpCenter);
    expect(ed.vpc.appSwitcher.map((a) => a.key)).toEqual([
      'workbench',
      'projex',
      'testhub',
      'alidocs',
      'insight',
      'codeup',
      'flow',
      'appstack',
      'packages',
      'org-member',
      'org-admin',
      'old-devops',
      'devstudio',
      'thoughts',
      'open',
      'docs',
      'yunxiao',
      'lingma',
    ]);
    expect(ed.vpc.names.variants?.lingma.system.en_US).toBe('Lingma');
  });

  it('names the hosts of the credential snippets where the suite has them, none for private deployments', () => {
    const ed = Object.fromEntries(loadAllEditions({ editionsDir, root }).map((m) => [m.id, m]));
    expect(ed.aliyun.hosts).toEqual({
      codeHosting: 'codeup.aliyun.com',
      packages: 'packages.aliyun.com',
      openApi: 'openapi-rdc.aliyuncs.com',
    });
    expect(ed.global.hosts?.codeHosting).toBe('codeup.alibabacloud.com');
    expect(ed.global.hosts?.packages).toBeUndefined(); // no artifact repositories in the global edition
    for (const id of ['vpc', 'dedicated', 'dedicated_intl']) expect(ed[id].hosts).toBeUndefined();
  });

  it('refuses a host with a scheme, a path, capitals or an unknown purpose', () => {
    const dir = brokenCopy('aliyun', (m) => {
      m.hosts = {
        codeHosting: 'https://codeup.aliyun.com',
        packages: 'packages.aliyun.com/npm',
        openApi: 'OpenAPI.example.com',
        containerRegistry: 'registry.example.com:5000',
        ftp: 'ftp.example.com',
      };
    });
    const problems = problemsOf(() => loadEdition('aliyun', { editionsDir: dir, root: dir }));
    expect(problems).toContain('aliyun.json /hosts/ftp is not an allowed property');
    for (const key of ['codeHosting', 'packages', 'openApi'])
      expect(problems.some((p) => p.startsWith(`aliyun.json /hosts/${key} must match pattern`))).toBe(true);
    expect(problems.some((p) => p.includes('/hosts/containerRegistry'))).toBe(false); // a port is allowed
  });

  it('names file, JSON pointer and rule for a bad colour', () => {
    const dir = brokenCopy('global', (m) => ((m.brand as Record<string, string>).color = 'blue'));
    expect(problemsOf(() => loadEdition('global', { editionsDir: dir, root: dir }))).toEqual([
      'global.json /brand/color must match pattern "^#[0-9A-Fa-f]{6}$"',
    ]);
  });

  it('reports missing and unknown properties, wrong enums, ids and assets', () => {
    const dir = brokenCopy('aliyun', (m) => {
      delete m.plugins;
      m.colour = '#000000';
      (m.paths as Record<string, string>).relogin = '/login';
      m.id = 'other';
      (m.brand as Record<string, string>).logo = 'assets/none/logo.svg';
    });
    const problems = problemsOf(() => loadEdition('aliyun', { editionsDir: dir, root: dir }));
    expect(problems).toContain('aliyun.json /plugins is required');
    expect(problems).toContain('aliyun.json /colour is not an allowed property');
    expect(problems).toContain('aliyun.json /paths/relogin must be one of "/users/login", "/sso/login"');
    const dir2 = brokenCopy('aliyun', (m) => {
      m.id = 'other';
      (m.brand as Record<string, string>).logo = 'assets/none/logo.svg';
      (m.plugins as string[]).push('no-such-plugin');
    });
    const p2 = problemsOf(() => loadEdition('aliyun', { editionsDir: dir2, pluginsDir, root: dir2 }));
    expect(p2).toContain('aliyun.json /id must equal the file name "aliyun"');
    expect(p2).toContain('aliyun.json /brand/logo names a missing file "assets/none/logo.svg"');
    const at = JSON.parse(fs.readFileSync(path.join(editionsDir, 'aliyun.json'), 'utf8')).plugins.length;
    expect(p2).toContain(
      `aliyun.json /plugins/${at} names plugin "no-such-plugin" but plugins/no-such-plugin/index.ts does not exist`,
    );
  });

  it('refuses unreadable JSON and a bad menu condition', () => {
    const dir = brokenCopy('vpc', (m) => ((m.settingsMenu as unknown[])[0] = { key: 'profile', visible: 'sometimes' }));
    expect(problemsOf(() => loadEdition('vpc', { editionsDir: dir, root: dir }))).toEqual([
      "vpc.json /settingsMenu/0/visible must be one of the allowed forms: 'always', or only when the organisation has the named app installed.",
    ]);
    fs.writeFileSync(path.join(dir, 'vpc.json'), '{ "id": ');
    expect(problemsOf(() => loadEdition('vpc', { editionsDir: dir, root: dir }))[0]).toMatch(
      /^vpc\.json \/ is not readable JSON/,
    );
  });

  it('collects problems of every file before failing', () => {
    const dir = brokenCopy('vpc', (m) => ((m.locale as Record<string, string>).default = 'fr_FR'));
    fs.writeFileSync(path.join(dir, 'global.json'), '[]');
    const problems = problemsOf(() => loadAllEditions({ editionsDir: dir, root: dir }));
    expect(problems.some((p) => p.startsWith('vpc.json /locale/default'))).toBe(true);
    expect(problems.some((p) => p.startsWith('global.json / must be object'))).toBe(true);
  });

  it('falls back to vpc for an unknown edition, with a warning', () => {
    const ids = listEditionIds(editionsDir);
    const warnings: string[] = [];
    expect(resolveEditionId('global', ids)).toBe('global');
    expect(resolveEditionId(undefined, ids)).toBe('vpc');
    expect(resolveEditionId('nope', ids, (w) => warnings.push(w))).toBe('vpc');
    expect(warnings).toEqual(['unknown edition "nope", falling back to "vpc"']);
  });
});

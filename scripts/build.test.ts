import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledPlugins, editionBuildPaths, editionsToBuild } from './lib/edition-build';

// Builds in a temp folder: a sixth edition dropped into a copy of editions/ must build with no code change,
// and each bundle must carry only its own edition's data.
const root = path.resolve(import.meta.dirname, '..');
let tmp = '';
let editionsDir = '';
let distDir = '';

function build(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

/** Every script, page and stylesheet of a build of one edition: its folder and the shared `static/`. */
function bundleText(edition: string): string {
  return [path.join(distDir, edition), path.join(distDir, 'static')]
    .flatMap((dir) =>
      fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(js|html|css)$/.test(f))
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8')),
    )
    .join('\n');
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'build-'));
  editionsDir = path.join(tmp, 'editions');
  distDir = path.join(tmp, 'dist');
  fs.cpSync(path.join(root, 'editions'), editionsDir, { recursive: true });
  const sixth = JSON.parse(fs.readFileSync(path.join(editionsDir, 'vpc.json'), 'utf8'));
  sixth.id = 'sixth';
  sixth.brand = { color: '#12AB34', logo: 'assets/sixth/logo.svg' };
  sixth.names.product = { zh_CN: '第六版', en_US: 'Sixth Edition Product' };
  sixth.helpLinks = { helpCenter: 'https://help.sixth.example/' };
  sixth.hosts = { codeHosting: 'git.sixth.example' };
  sixth.locale.default = 'en_US';
  // The sixth edition shows the identity-provider section, which no shipped edition's menu lists.
  sixth.settingsMenu.push({ key: 'identity-provider', visible: 'always' });
  fs.mkdirSync(path.join(editionsDir, 'assets/sixth'));
  fs.writeFileSync(
    path.join(editionsDir, 'assets/sixth/logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#12AB34"/></svg>',
  );
  fs.writeFileSync(path.join(editionsDir, 'sixth.json'), JSON.stringify(sixth, null, 2));
}, 60_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(path.join(root, '.generated', `${path.basename(tmp)}-dist`), { recursive: true, force: true });
});

describe('build', () => {
  it('builds a dropped-in sixth edition, only it, and folds no other edition into its bundle', () => {
    // One edition keeps this test short; the five shipped ones are built (and served to the e2e suite) by npm test.
    const r = build(['--edition', 'sixth'], { EDITIONS_DIR: editionsDir, DIST_DIR: distDir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('built 1 edition(s) [sixth]');
    const html = fs.readFileSync(path.join(distDir, 'sixth/index.html'), 'utf8');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<div id="container"></div>');
    expect(html).toMatch(/<script id="page-config" type="application\/json"[^>]*>\{\}<\/script>/);
    expect(fs.existsSync(path.join(distDir, 'sixth/edition/sixth/logo.svg'))).toBe(true);
    const sixthText = bundleText('sixth');
    expect(sixthText).toContain('#12AB34');
    expect(sixthText).toContain('Sixth Edition Product');
    expect(sixthText).toContain('git.sixth.example'); // the credential snippets' hosts, folded per edition

    // The sixth is vpc's manifest with its own brand: every other edition's brand, names and links stay out.
    const others = ['aliyun', 'dedicated', 'dedicated_intl', 'global'].map((id) =>
      JSON.parse(fs.readFileSync(path.join(editionsDir, `${id}.json`), 'utf8')),
    );
    for (const m of others) {
      const foreign = [
        m.brand.color ?? '#006AD4',
        m.names.product.zh_CN,
        m.names.product.en_US,
        m.names.system.en_US,
        ...Object.values(m.helpLinks as Record<string, string>).filter((u) => u.startsWith('https://')),
        ...Object.values((m.hosts ?? {}) as Record<string, string>),
      ];
      for (const s of foreign) expect(sixthText, `${m.id}: ${s}`).not.toContain(s);
    }
    for (const id of ['aliyun', 'global', 'vpc']) expect(fs.existsSync(path.join(distDir, id))).toBe(false);
    // A section in the menu ships its chunk; one in no menu of the edition ships nothing.
    expect(fs.readdirSync(path.join(distDir, 'static/js/async')).join(' ')).toContain('plugin-identity-provider');
  }, 120_000);

  it('leaves out a plugin whose only sections are in no menu of the edition', async () => {
    const paths = editionBuildPaths(root);
    const [vpc] = editionsToBuild(paths, ['vpc']);
    const { included, leftOut } = await bundledPlugins(vpc, paths);
    expect(leftOut).toEqual(['identity-provider']);
    expect(included.map((p) => p.id)).toContain('access-tokens');
    const withMenu = {
      ...vpc,
      settingsMenu: [...vpc.settingsMenu, { key: 'identity-provider', visible: 'always' as const }],
    };
    expect((await bundledPlugins(withMenu, paths)).leftOut).toEqual([]);
  });

  it('stops on an invalid manifest, naming file, pointer and rule', () => {
    const broken = JSON.parse(fs.readFileSync(path.join(editionsDir, 'global.json'), 'utf8'));
    broken.brand.color = 'not-a-colour';
    const dir = path.join(tmp, 'broken');
    fs.cpSync(editionsDir, dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'global.json'), JSON.stringify(broken));
    const r = build([], { EDITIONS_DIR: dir, DIST_DIR: path.join(tmp, 'dist-broken') });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${path.relative(root, dir)}/global.json /brand/color must match pattern`);
    expect(r.stderr).toContain('build stopped');
    expect(fs.existsSync(path.join(tmp, 'dist-broken'))).toBe(false);
  });

  it('refuses an unknown edition name on the command line', () => {
    const r = build(['--edition', 'nope'], { EDITIONS_DIR: editionsDir, DIST_DIR: path.join(tmp, 'dist-x') });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown edition(s): nope');
  });
});

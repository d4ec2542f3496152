import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  catalogueTexts,
  checkGlossary,
  checkServerCatalogues,
  findCatalogues,
  inboxTexts,
  loadServerCatalogues,
  readings,
} from './check-messages';

const root = path.resolve(import.meta.dirname, '..');

describe('server error catalogues', () => {
  it("the core's and every slice's have the same non-empty codes in zh_CN and en_US, each code defined once", async () => {
    const catalogues = await loadServerCatalogues(root);
    expect(catalogues.map((c) => c.name)).toEqual(
      expect.arrayContaining(['server/i18n', path.join('plugins', 'access-tokens', 'server', 'messages.ts')]),
    );
    expect(checkServerCatalogues(catalogues)).toEqual([]);
  });

  it('reports a missing, an empty, a placeholder mismatch and a duplicate code', () => {
    const problems = checkServerCatalogues([
      { name: 'core', en_US: { A: 'a {x}', B: 'b' }, zh_CN: { A: '甲 {y}', B: ' ' } },
      { name: 'slice', en_US: { A: 'again', C: 'c' }, zh_CN: { A: '又' } },
    ]);
    expect(problems).toEqual([
      'core: "B" is empty in zh_CN',
      'core: "A" has different {placeholders} in zh_CN and en_US',
      'slice: "C" is missing in zh_CN',
      'slice: "A" is also defined in core',
    ]);
  });
});

describe('glossary (schemas/glossary.ts)', () => {
  const en = (key: string, text: string) => ({ where: 'f.json', key, locale: 'en_US' as const, text });
  const zh = (key: string, text: string) => ({ where: 'f.json', key, locale: 'zh_CN' as const, text });

  it('every web, server and inbox text of the product keeps it', async () => {
    const texts = [
      ...catalogueTexts(findCatalogues(root), await loadServerCatalogues(root)),
      ...(await inboxTexts(root)),
    ];
    expect(texts.length).toBeGreaterThan(500);
    expect(checkGlossary(texts)).toEqual([]);
  });

  it('refuses a variant of a term, naming file, key and the words', () => {
    expect(checkGlossary([en('a.tag', 'Sensitive behavior')])).toEqual([
      'f.json: "a.tag" (en_US) says "Sensitive behavior": write "sensitive action" (schemas/glossary.ts)',
    ]);
    const problems = checkGlossary([
      en('b.button', 'Modify'),
      en('c.email', 'Unbind'),
      en('d.size', 'Upload failed, image size exceeds 1M'),
      en('e.token', 'No access token'),
      en('f.ssh', 'Add SSH public key'),
      zh('g.size', '图片大小超过 2MB'),
      zh('h.sensitive', '敏感行为'),
      zh('i.org', '组织不存在'),
    ]);
    for (const [key, words] of [
      ['b.button', '"Modify"'],
      ['c.email', '"Unbind"'],
      ['d.size', '"1M"'],
      ['e.token', '"access token"'],
      ['f.ssh', '"SSH public key"'],
      ['g.size', '"2MB"'],
      ['h.sensitive', '"敏感行为"'],
      ['i.org', '"组织"'],
    ])
      expect(
        problems.some((p) => p.includes(`"${key}"`) && p.includes(`says ${words}`)),
        key,
      ).toBe(true);
  });

  it('refuses Title Case in English, allowing sentence starts, acronyms, listed names and placeholders', () => {
    expect(checkGlossary([en('s.title', 'Personal Access Token')])).toEqual([
      'f.json: "s.title" (en_US) capitalises "Access" mid-sentence: use sentence case, or allow the name in schemas/glossary.ts',
    ]);
    const fine = [
      'SSH keys',
      'Sign in with LDAP or Windows AD',
      'Feishu (Lark), DingTalk and WeCom',
      'Saved. Try again: Now',
      '{provider} sign-in is not supported',
      'Chinese (Simplified)',
      'Arrow keys (Shift+arrow: 10 px), Home/End, Enter confirms.',
      '{count, plural, one {# SSH key} other {# SSH keys}}',
    ];
    expect(checkGlossary(fine.map((t, i) => en(`ok.${i}`, t)))).toEqual([]);
    // every branch of a choice is read
    expect(checkGlossary([en('p', '{n, plural, one {# key} other {# Keys}}')])).toHaveLength(1);
    // the same rule does not apply to Chinese
    expect(checkGlossary([zh('z', 'Personal Access Key 个人访问令牌')])).toEqual([]);
  });

  it('reads every branch of an ICU message, with placeholders and tags', () => {
    expect(readings('{a, select, true {X {b}} other {Y}} <link>go</link> {n, plural, one {# z} other {# zs}}')).toEqual(
      ['X \u00a7 go 1 z', 'X \u00a7 go 1 zs', 'Y go 1 z', 'Y go 1 zs'],
    );
  });
});

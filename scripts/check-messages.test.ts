import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkServerCatalogues, loadServerCatalogues } from './check-messages';

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

import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// One-way imports (DESIGN.md): linted source placed at real paths, importing real modules.
const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'boundaries/element-types').length;
}

describe('import boundaries', () => {
  it('lets a plugin import the core and its own files', async () => {
    const code =
      "import { edition } from '../../../src/core/edition';\nimport p from '../index';\nexport const x = [edition, p];\n";
    expect(await boundaryErrors('plugins/profile/pages/Probe.tsx', code)).toBe(0);
  });

  it('refuses a plugin importing another plugin', async () => {
    const code = "import p from '../../ssh-keys/index';\nexport const x = p;\n";
    expect(await boundaryErrors('plugins/profile/pages/Probe.tsx', code)).toBe(1);
  });

  it('refuses the core importing a plugin or the shell', async () => {
    expect(
      await boundaryErrors('src/core/probe.ts', "import p from '../../plugins/profile/index';\nexport const x = p;\n"),
    ).toBe(1);
    expect(
      await boundaryErrors('src/core/probe.ts', "import S from '../shell/NotFoundPage';\nexport const x = S;\n"),
    ).toBe(1);
  });

  it('refuses the service importing web code', async () => {
    expect(
      await boundaryErrors(
        'server/probe.ts',
        "import { edition } from '../src/core/edition';\nexport const x = edition;\n",
      ),
    ).toBe(1);
  });
});

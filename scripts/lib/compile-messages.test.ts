import fs from 'node:fs';
import path from 'node:path';
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { compileCatalogue } from './compile-messages';
import messagesLoader from './messages-loader';

const root = path.resolve(import.meta.dirname, '../..');

/** Every source catalogue of the product: core, shell and each plugin, both languages. */
function catalogues(): string[] {
  const dirs = [path.join(root, 'src/core/messages'), path.join(root, 'src/shell/messages')];
  for (const id of fs.readdirSync(path.join(root, 'plugins'))) dirs.push(path.join(root, 'plugins', id, 'messages'));
  return dirs.flatMap((d) => ['zh_CN', 'en_US'].map((l) => path.join(d, `${l}.json`))).filter((f) => fs.existsSync(f));
}

/** A value for every argument of a message: numbers for plurals and numbers, a date for dates, a wrapper for tags. */
function argumentsOf(tree: MessageFormatElement[], out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const el of tree) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      out[el.value] = (chunks: unknown[]) => `<${el.value}>${chunks.join('')}</${el.value}>`;
      argumentsOf(el.children, out);
    } else if (el.type === TYPE.plural || el.type === TYPE.number) out[el.value] = 3;
    else if (el.type === TYPE.date || el.type === TYPE.time) out[el.value] = new Date(0);
    else out[el.value] ??= 'v';
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      for (const option of Object.values(el.options)) argumentsOf(option.value, out);
    }
  }
  return out;
}

describe('compiled catalogues', () => {
  it('format every message exactly as its source string does', () => {
    let checked = 0;
    for (const file of catalogues()) {
      const source = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
      const compiled = compileCatalogue(source, file);
      expect(Object.keys(compiled)).toEqual(Object.keys(source));
      const locale = file.endsWith('zh_CN.json') ? 'zh-CN' : 'en-US';
      for (const [id, text] of Object.entries(source)) {
        const values = argumentsOf(compiled[id]);
        const fromSource = new IntlMessageFormat(text, locale).format(values);
        const fromTree = new IntlMessageFormat(compiled[id], locale).format(values);
        expect(fromTree, `${file} ${id}`).toEqual(fromSource);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('stop the build on a message that does not parse, naming it', () => {
    expect(() => compileCatalogue({ 'x.broken': 'Hello {name' }, 'plugins/x/messages/en_US.json')).toThrow(
      /plugins\/x\/messages\/en_US.json: message "x.broken" is not valid ICU/,
    );
  });

  it('reach the bundle through the loader as the compiled JSON', () => {
    const out = messagesLoader.call({ resourcePath: 'm.json' }, JSON.stringify({ a: 'Hi {name}' }));
    expect(JSON.parse(out)).toEqual({
      a: [
        { type: 0, value: 'Hi ' },
        { type: 1, value: 'name' },
      ],
    });
  });
});

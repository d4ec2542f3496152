// Message catalogues are compiled at build time: every ICU message becomes formatjs's syntax tree, so the browser
// formats without parsing and the web bundle carries formatjs's no-parser build instead of the ICU parser (about
// 8 KB gzip less in the first script, and no parsing in the first render).
import { parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** A catalogue as the web app receives it: message id → syntax tree. */
export type CompiledCatalogue = Record<string, MessageFormatElement[]>;

/**
 * Compiles a catalogue (id → ICU message) with the options react-intl would parse with at run time (tags are
 * parsed, as `ignoreTag` is off). A message that does not parse stops the build, naming it.
 */
export function compileCatalogue(messages: Record<string, string>, source = 'catalogue'): CompiledCatalogue {
  const out: CompiledCatalogue = {};
  for (const [id, text] of Object.entries(messages)) {
    try {
      out[id] = parse(text, { ignoreTag: false });
    } catch (e) {
      throw new Error(`${source}: message "${id}" is not valid ICU: ${(e as Error).message}`);
    }
  }
  return out;
}

// The index of antd's CSS-variable blocks that the build puts at the head of each antd sheet it writes
// (scripts/lib/antd-styles.ts) and the page reads (src/app/style-nonce.ts): which `.css-var-…` blocks the sheet
// holds, so the page learns it from one rule instead of reading every rule of the sheet (index.css alone has
// ~1,800; reading them all cost a phone some 30 ms inside the hydration's first commit). Plain constants: both
// sides import them.

/** The selector of the index rule (matches no element). */
export const VAR_BLOCK_INDEX_SELECTOR = '#antd-var-blocks';

/** The custom property holding the list. */
export const VAR_BLOCK_INDEX_PROPERTY = '--antd-var-blocks';

/** Between two selectors of the list (a selector of a variable block holds none). */
const SEPARATOR = '|';

/** The index rule of a sheet holding the blocks `selectors`. */
export function varBlockIndexRule(selectors: readonly string[]): string {
  return `${VAR_BLOCK_INDEX_SELECTOR}{${VAR_BLOCK_INDEX_PROPERTY}:"${selectors.join(SEPARATOR)}"}`;
}

/** The selectors of an index rule's property value, as the CSSOM gives it (quoted). */
export function parseVarBlockIndex(value: string): string[] {
  return value
    .trim()
    .replace(/^(["'])(.*)\1$/s, '$2')
    .split(SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The selector of one block of antd's CSS variables (`.css-var-app`, `.css-var-app.ant-btn{…}`), else undefined:
 * how the build lists a sheet's blocks and how the page knows a block antd is about to add.
 */
export function cssVarSelector(css: string): string | undefined {
  if (!css.startsWith('.css-var-')) return undefined;
  const open = css.indexOf('{');
  return open > 0 && css.endsWith('}') && css.indexOf('}') === css.length - 1 ? css.slice(0, open).trim() : undefined;
}

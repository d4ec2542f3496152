// antd's registration of a component's CSS variables (@ant-design/cssinjs's useCSSVarRegister), which the build points
// cssinjs's own import at (rsbuild.config.ts). For each kind of component a page mounts, antd derives the component's
// tokens and writes them out as a block of CSS variables (`.css-var-app.ant-btn{--ant-btn-…}`): some thirty blocks,
// about 30 ms of a phone's first render, inside the hydration. The edition's stylesheets already hold those very
// blocks (scripts/lib/antd-styles.ts writes them from the same theme, and names them in each sheet's index): a block
// the page's sheets hold is registered empty, so nothing is derived for it, and antd adds no <style> for it.
import useOriginalCSSVarRegister, {
  CSS_VAR_PREFIX,
  extract,
} from '@ant-design/cssinjs/es/hooks/useCSSVarRegister.js?original';
import { inStaticSheets } from './style-nonce';

type RegisterConfig = Parameters<typeof useOriginalCSSVarRegister>[0];

/** The selector of the block antd would write for `config` (cssinjs's serializeCSSVar), unless hashed. */
export function varBlockSelector(config: Pick<RegisterConfig, 'key' | 'scope' | 'hashId'>): string | undefined {
  // A hashed theme scopes its blocks under `:where(.hash)`: the edition's themes are not hashed, so not ours.
  if (config.hashId) return undefined;
  const base = `.${config.key}`;
  const scopes = [config.scope].flat().filter((s): s is string => !!s);
  return scopes.length ? scopes.map((s) => `${base}.${s}`).join(', ') : base;
}

/** Whether the page's stylesheets hold a block, decided once per block (the registration is cached once too). */
const held = new Map<string, boolean>();

function heldBySheets(selector: string | undefined): boolean {
  if (!selector || typeof document === 'undefined') return false;
  let answer = held.get(selector);
  if (answer === undefined) held.set(selector, (answer = inStaticSheets(document, selector)));
  return answer;
}

const noVariables = () => ({});

/** cssinjs's useCSSVarRegister, deriving nothing for a block the page's stylesheets already hold. */
const useCSSVarRegister: typeof useOriginalCSSVarRegister = (config, fn) =>
  useOriginalCSSVarRegister(config, heldBySheets(varBlockSelector(config)) ? (noVariables as typeof fn) : fn);

/** Forgets what was decided (tests). */
export function resetHeldVarBlocks(): void {
  held.clear();
}

export { CSS_VAR_PREFIX, extract };
export default useCSSVarRegister;

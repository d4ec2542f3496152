// The build aliases this module to the per-edition plugin list it generates (see rsbuild.config.ts).
declare module '@edition-plugins' {
  import type { PluginDefinition } from '../core/plugin';
  /** The plugins this edition's manifest lists, in order. */
  export const editionPlugins: PluginDefinition[];
}

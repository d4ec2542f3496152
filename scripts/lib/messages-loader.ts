// rspack loader for the catalogues (`messages/<locale>.json`): their JSON becomes the compiled catalogue's JSON.
// Runs in the build process, which tsx runs (scripts/build.ts), so it may be TypeScript.
import { compileCatalogue } from './compile-messages';

export default function messagesLoader(this: { resourcePath: string }, source: string): string {
  return JSON.stringify(compileCatalogue(JSON.parse(source) as Record<string, string>, this.resourcePath));
}

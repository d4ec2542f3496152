import type { EditionHosts } from '../../schemas/edition';

// Ready-to-paste snippets for a credential shown once (issue 42): the texts only, so they are tested without a page.
// Hosts come from the edition (src/core/edition: folded per bundle); one an edition does not name is the page's own.

/** The credentials that are shown once and can be pasted into a client. */
export type SnippetCredential = 'token' | 'packages-password';

/** One client's snippet: git's credential helper, `.npmrc`, Maven's settings.xml, docker login, a curl call. */
export type SnippetId = 'git' | 'curl' | 'npmrc' | 'maven' | 'docker';

/** Which snippets a credential gets: a token opens git over HTTPS and the open API, the artifact password the registries. */
export const SNIPPETS_OF: Record<SnippetCredential, readonly SnippetId[]> = {
  token: ['git', 'curl'],
  'packages-password': ['npmrc', 'maven', 'docker'],
};

/** Where a client goes: its origin for URLs (`https://codeup.aliyun.com`) and its host for host-only fields. */
export interface Endpoint {
  origin: string;
  host: string;
}

/** Every host a snippet may name, resolved. */
export type SnippetHosts = Record<keyof Required<EditionHosts>, Endpoint>;

/** The page's own place (what `window.location` has): used where the edition names no host. */
export interface PagePlace {
  protocol: string;
  host: string;
}

/** The npm registry's path on the packages host. */
export const NPM_REGISTRY_PATH = '/npm/';
/** The Maven repository's path on the packages host. */
export const MAVEN_REPOSITORY_PATH = '/maven/';
/** The open API call the curl snippet makes: who am I, harmless and readable with any scope. */
export const OPEN_API_PROBE = '/oapi/v1/platform/user';
/** The id Maven matches the `<server>` credentials and the `<mirror>` by. */
export const MAVEN_SERVER_ID = 'packages';

/**
 * The edition's hosts with the page's own where it names none: a private deployment (vpc) serves git, the registries
 * and the open API on its one host. Edition hosts are HTTPS; the page's keep the page's scheme (a local trial is http).
 */
export function snippetHosts(hosts: EditionHosts | undefined, page: PagePlace): SnippetHosts {
  const own: Endpoint = { origin: `${page.protocol}//${page.host}`, host: page.host };
  const named = (host: string | undefined): Endpoint => (host ? { origin: `https://${host}`, host } : own);
  const packages = named(hosts?.packages);
  return {
    codeHosting: named(hosts?.codeHosting),
    packages,
    containerRegistry: hosts?.containerRegistry ? named(hosts.containerRegistry) : packages,
    openApi: named(hosts?.openApi),
  };
}

/** What a snippet is filled with. */
export interface SnippetInput {
  credential: SnippetCredential;
  /** The token or the artifact password, as shown once. */
  secret: string;
  /** The account's username (the member's for a token, the artifact account's for the password). */
  username: string;
  hosts: SnippetHosts;
}

/** A snippet ready to paste. */
export interface Snippet {
  id: SnippetId;
  text: string;
}

/** A word for a POSIX shell: as is when plainly safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Text for an XML element's content or attribute. */
export function xmlText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Base64 of the UTF-8 bytes (npm's `_password`). */
export function base64(s: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return btoa(bin);
}

function gitSnippet({ secret, username, hosts }: SnippetInput): string {
  // Through whatever helper git is configured with (store, cache, the OS keychain); a quoted heredoc expands nothing.
  return [
    `git credential approve <<'EOF'`,
    `protocol=${hosts.codeHosting.origin.split(':')[0]}`,
    `host=${hosts.codeHosting.host}`,
    `username=${username}`,
    `password=${secret}`,
    'EOF',
  ].join('\n');
}

function curlSnippet({ secret, hosts }: SnippetInput): string {
  return `curl -H ${shellWord(`x-yunxiao-token: ${secret}`)} ${hosts.openApi.origin}${OPEN_API_PROBE}`;
}

function npmrcSnippet({ secret, username, hosts }: SnippetInput): string {
  // Credentials scoped to the registry (npm sends them nowhere else); `_password` is base64, as npm reads it.
  const scope = `//${hosts.packages.host}${NPM_REGISTRY_PATH}`;
  return [
    `registry=${hosts.packages.origin}${NPM_REGISTRY_PATH}`,
    `${scope}:username=${username}`,
    `${scope}:_password=${base64(secret)}`,
  ].join('\n');
}

function mavenSnippet({ secret, username, hosts }: SnippetInput): string {
  return [
    '<settings>',
    '  <servers>',
    '    <server>',
    `      <id>${MAVEN_SERVER_ID}</id>`,
    `      <username>${xmlText(username)}</username>`,
    `      <password>${xmlText(secret)}</password>`,
    '    </server>',
    '  </servers>',
    '  <mirrors>',
    '    <mirror>',
    `      <id>${MAVEN_SERVER_ID}</id>`,
    '      <mirrorOf>*</mirrorOf>',
    `      <url>${xmlText(hosts.packages.origin + MAVEN_REPOSITORY_PATH)}</url>`,
    '    </mirror>',
    '  </mirrors>',
    '</settings>',
  ].join('\n');
}

function dockerSnippet({ secret, username, hosts }: SnippetInput): string {
  // On standard input: docker warns of a password given with -p (it lands in the process list).
  return `printf '%s' ${shellWord(secret)} | docker login --username ${shellWord(username)} --password-stdin ${hosts.containerRegistry.host}`;
}

const BUILDERS: Record<SnippetId, (input: SnippetInput) => string> = {
  git: gitSnippet,
  curl: curlSnippet,
  npmrc: npmrcSnippet,
  maven: mavenSnippet,
  docker: dockerSnippet,
};

/** The snippets a credential gets, in the order they are offered. */
export function credentialSnippets(input: SnippetInput): Snippet[] {
  return SNIPPETS_OF[input.credential].map((id) => ({ id, text: BUILDERS[id](input) }));
}

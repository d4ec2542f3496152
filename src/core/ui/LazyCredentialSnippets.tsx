import { lazy, Suspense } from 'react';
import type { CredentialSnippetsProps } from './CredentialSnippets';

const CredentialSnippets = lazy(
  () => import(/* webpackChunkName: "core-credential-snippets" */ './CredentialSnippets'),
);

/**
 * The ready-to-paste snippets, fetched when a secret is first shown: a page's first bytes carry none of them (their
 * texts, antd's Tabs). Nothing shows until they are here, under the secret itself, which needs no wait.
 */
export function LazyCredentialSnippets(props: CredentialSnippetsProps) {
  return (
    <Suspense fallback={null}>
      <CredentialSnippets {...props} />
    </Suspense>
  );
}

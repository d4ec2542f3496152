import { CopyOutlined } from '@ant-design/icons';
import { Button, Tabs, Typography } from 'antd';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { copyText } from '../clipboard';
import {
  credentialSnippets,
  snippetHosts,
  type PagePlace,
  type SnippetCredential,
  type SnippetId,
} from '../credential-snippets';
import { edition } from '../edition';

/** Props of the ready-to-paste snippets. */
export interface CredentialSnippetsProps {
  /** Which credential was just shown: a token gets git and curl, the artifact password the registries. */
  credential: SnippetCredential;
  /** The value shown once. */
  secret: string;
  /** The account name the clients send with it. */
  username: string;
  /** The page's own place, for hosts the edition does not name; the browser's location when absent (tests set it). */
  page?: PagePlace;
}

type CopyState = { id: SnippetId; ok: boolean } | null;

/** Each snippet's tab name and what it does (literal keys: the message check finds them here). */
const WORDS: Record<SnippetId, { label: string; hint: string }> = {
  git: { label: 'core.snippets.git.label', hint: 'core.snippets.git.hint' },
  curl: { label: 'core.snippets.curl.label', hint: 'core.snippets.curl.hint' },
  npmrc: { label: 'core.snippets.npmrc.label', hint: 'core.snippets.npmrc.hint' },
  maven: { label: 'core.snippets.maven.label', hint: 'core.snippets.maven.hint' },
  docker: { label: 'core.snippets.docker.label', hint: 'core.snippets.docker.hint' },
};

/**
 * Ready-to-paste snippets for a credential shown once, filled with the secret, the username and the edition's hosts,
 * each with its copy button. Loaded on its own (`LazyCredentialSnippets`): only a page that just showed a secret needs
 * it. The copy's result is said in a live region beside the button (a screen reader hears it; nothing moves focus).
 */
export default function CredentialSnippets({ credential, secret, username, page }: CredentialSnippetsProps) {
  const intl = useIntl();
  const titleId = useId();
  const [copied, setCopied] = useState<CopyState>(null);
  const place = page ?? (typeof window === 'undefined' ? { protocol: 'https:', host: '' } : window.location);
  const snippets = credentialSnippets({ credential, secret, username, hosts: snippetHosts(edition.hosts, place) });
  const name = (id: SnippetId) => intl.formatMessage({ id: WORDS[id].label });
  const copy = async (id: SnippetId, text: string) => setCopied({ id, ok: await copyText(text) });

  return (
    <div
      role="group"
      aria-labelledby={titleId}
      data-testid="credential-snippets"
      // Its own ground (not an alert's tint): the selected tab's brand colour keeps its contrast in every edition.
      style={{
        minWidth: 0,
        padding: '12px 16px 16px',
        border: '1px solid var(--ant-color-border-secondary)',
        borderRadius: 'var(--ant-border-radius-lg, 8px)',
        background: 'var(--ant-color-bg-container)',
      }}
    >
      <Typography.Text strong id={titleId}>
        <FormattedMessage id="core.snippets.title" />
      </Typography.Text>
      <Tabs
        size="small"
        // Narrow gaps: the labels fit a 320 px window, so antd adds no "more" button (not a tab, in the tab list).
        tabBarGutter={16}
        onChange={() => setCopied(null)}
        items={snippets.map(({ id, text }) => ({
          key: id,
          label: name(id),
          children: (
            <div data-testid={`snippet-${id}`}>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                <FormattedMessage id={WORDS[id].hint} />
              </Typography.Paragraph>
              <pre
                data-testid={`snippet-${id}-text`}
                style={{
                  margin: 0,
                  padding: '8px 12px',
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  fontFamily: 'var(--ant-font-family-code, monospace)',
                  fontSize: 13,
                  background: 'var(--ant-color-fill-tertiary)',
                  borderRadius: 'var(--ant-border-radius, 6px)',
                }}
              >
                {text}
              </pre>
              <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap', marginTop: 8 }}>
                <Button
                  icon={<CopyOutlined />}
                  onClick={() => void copy(id, text)}
                  aria-label={intl.formatMessage({ id: 'core.snippets.copyNamed' }, { name: name(id) })}
                  data-testid={`snippet-${id}-copy`}
                >
                  <FormattedMessage id="core.snippets.copy" />
                </Button>
                <Typography.Text role="status" data-testid={`snippet-${id}-status`}>
                  {copied?.id === id && (
                    <FormattedMessage id={copied.ok ? 'core.snippets.copied' : 'core.snippets.copyFailed'} />
                  )}
                </Typography.Text>
              </div>
            </div>
          ),
        }))}
      />
    </div>
  );
}

// The product's glossary: one word per concept in each language, and the variants a message must not use.
// `npm run check:messages` reads it (scripts/check-messages.ts) and refuses a message that breaks it;
// docs/glossary.md explains it for writers. Change a term here, then the catalogues, in one commit.

/** A wording a message must not use, and what to write instead. */
export interface ForbiddenVariant {
  /** Matched against the message text (flags `i` where case does not matter). */
  pattern: RegExp;
  /** What to write instead, shown in the check's report. */
  use: string;
}

/** One concept of the product: how each language names it and what it must not be called. */
export interface GlossaryTerm {
  /** The concept, in a few words. */
  concept: string;
  /** The English wording(s), sentence case. */
  en: string;
  /** The Chinese wording(s). */
  zh: string;
  /** Why this wording, and how to use it. */
  note: string;
  /** Variants refused in English messages. */
  avoidEn?: readonly ForbiddenVariant[];
  /** Variants refused in Chinese messages. */
  avoidZh?: readonly ForbiddenVariant[];
}

/** The terms, in the order docs/glossary.md lists them. */
export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    concept: 'personal access token',
    en: 'personal access token; "token" once the context is clear',
    zh: '个人访问令牌；上下文清楚时用“令牌”',
    note: 'As GitHub and GitLab name it. Never a bare "access token" (it reads as an OAuth token) or "PAT"; a token is created, edited and deleted.',
    avoidEn: [
      { pattern: /(?<!personal )\baccess tokens?\b/i, use: '"personal access token" (or "token")' },
      { pattern: /\bPATs?\b/, use: '"personal access token"' },
    ],
    avoidZh: [{ pattern: /(?<![-\w])token(?![-\w])/i, use: '“令牌”（链接里的标识写“链接”）' }],
  },
  {
    concept: 'SSH key',
    en: 'SSH key; "public key" only for the key text pasted into the form',
    zh: 'SSH 公钥；表单里粘贴的内容称“公钥”',
    note: 'As GitHub and GitLab name it. A key is added, edited and deleted.',
    avoidEn: [{ pattern: /\bSSH public keys?\b/i, use: '"SSH key"' }],
    avoidZh: [{ pattern: /SSH\s*(密钥|秘钥|Key)|SSH公钥/i, use: '“SSH 公钥”' }],
  },
  {
    concept: 'sensitive action',
    en: 'sensitive action; "message about a sensitive action"',
    zh: '敏感操作；“敏感操作消息”',
    note: 'An action on the account its owner is told of in the inbox (a token created, an SSH key added, the password or the email changed…). The inbox tags such messages "Sensitive action".',
    avoidEn: [
      { pattern: /\bsensitive (behaviou?rs?|operations?)\b/i, use: '"sensitive action"' },
      { pattern: /\bsecurity messages?\b/i, use: '"message about a sensitive action"' },
    ],
    avoidZh: [{ pattern: /敏感行为|安全消息/, use: '“敏感操作”' }],
  },
  {
    concept: 'email address',
    en: 'email, email address; an email (a message) is sent',
    zh: '邮箱（地址）；邮件（一封信）',
    note: 'One spelling, as GitHub writes it; "mailbox" and "mail" read as translated.',
    avoidEn: [
      { pattern: /\be-mails?\b/i, use: '"email"' },
      { pattern: /\bmailbox(es)?\b/i, use: '"email address"' },
      { pattern: /(?<![-\w])mails?\b/i, use: '"email" / "emails"' },
    ],
  },
  {
    concept: 'bind / unbind',
    en: 'email: add, change, remove; third-party and identity-provider accounts: link, unlink, linked, not linked',
    zh: '绑定、解绑（邮箱和第三方账号都用）',
    note: 'English has no "bind" for accounts: an email address is added and removed (GitHub), an outside account is linked and unlinked (Keycloak). Chinese keeps the usual 绑定/解绑.',
    avoidEn: [
      {
        pattern: /\b(un)?(bind|binds|binding|bindings|bound)\b/i,
        use: '"add/remove" (email) or "link/unlink" (accounts)',
      },
      { pattern: /\bdisassociat\w*/i, use: '"remove" or "unlink"' },
    ],
    avoidZh: [{ pattern: /解除绑定|解除关联|取消关联/, use: '“解绑”' }],
  },
  {
    concept: 'expires',
    en: 'column "Expires", field "Expiration", "expiration date", "Expired", "About to expire"; "Never" in an Expires column, "Never expires" as a choice',
    zh: '过期时间、过期日期、已过期、即将过期、永不过期',
    note: 'As GitHub writes token expiry. A licence or order expires too, with the same words.',
    avoidEn: [
      { pattern: /\bexpiry\b/i, use: '"expiration"' },
      { pattern: /\b(expire|expired|expiration|expiring) time\b/i, use: '"expiration date"' },
    ],
    avoidZh: [{ pattern: /到期/, use: '“过期”' }],
  },
  {
    concept: 'last used',
    en: 'column "Last used"; "Never used" when it never was',
    zh: '最近使用；从未使用',
    note: 'Tokens and SSH keys show the same words (no "-").',
  },
  {
    concept: 'edit / change',
    en: 'edit (an item: a token, an SSH key), change (a value: the password, the email)',
    zh: '编辑（条目）、修改（取值）',
    note: '"Modify" reads as translated.',
    avoidEn: [
      { pattern: /\bmodif(y|ies|ied|ying|ication|ications)\b/i, use: '"edit" (an item) or "change" (a value)' },
    ],
  },
  {
    concept: 'sign in / sign out',
    en: 'sign in, sign out (verbs); sign-in (noun)',
    zh: '登录、退出登录',
    note: 'As GitHub writes it, one pair everywhere.',
    avoidEn: [
      { pattern: /\blog(ged|ging)? ?(in|out)\b|\blogin\b|\blogout\b/i, use: '"sign in" / "sign out" / "sign-in"' },
    ],
  },
  {
    concept: 'organization',
    en: 'organization (US spelling, as the product is en_US: also license, behavior)',
    zh: '企业',
    note: 'The suite calls an organization 企业 on every page; 组织 was a second word for it.',
    avoidEn: [
      { pattern: /\borganis(e|es|ed|ation|ations)\b/i, use: '"organization"' },
      { pattern: /\blicence(s|d)?\b/i, use: '"license"' },
      { pattern: /\bbehaviours?\b/i, use: '"behavior"' },
    ],
    avoidZh: [{ pattern: /组织/, use: '“企业”' }],
  },
  {
    concept: 'failure',
    en: '"… failed, please try again"; "Something went wrong"',
    zh: '……失败，请重试',
    note: '"Please retry" and "abnormal" read as translated; "Retry" stays as a button.',
    avoidEn: [
      { pattern: /\bplease retry\b/i, use: '"please try again"' },
      { pattern: /\babnormal\b/i, use: '"something went wrong"' },
    ],
  },
  {
    concept: 'size',
    en: 'a number, a space and the unit: "1 MB", "512 KB"',
    zh: '同英文：“1 MB”',
    note: '"1M" is not a unit a reader knows.',
  },
];

/** A size written without its unit's B or without the space ("1M", "1MB", "1 mb"); refused in every language. */
export const BAD_SIZE: ForbiddenVariant = {
  pattern: /\b\d+(?:\.\d+)?(?:\s?[KMGT](?![A-Za-z])|[KMGT]i?B\b|\s?[kmgt]i?b\b| [KMGT]iB\b)/,
  use: 'a number, a space and the unit ("1 MB")',
};

/**
 * Words and phrases English messages may capitalise inside a sentence: brand and product names, proper nouns,
 * key and header names. Words in capitals only (SSH, LDAP, API, IP, US…) are allowed without being listed.
 * Everything else follows sentence case: only the first word of a sentence starts with a capital.
 */
export const CAPITALIZED_ALLOWED: readonly string[] = [
  // brands and products
  'GitHub',
  'GitLab',
  'DingTalk',
  'Lark',
  'Feishu',
  'WeCom',
  'Windows',
  'Windows AD',
  'Maven',
  'NuGet',
  'Docker',
  'Chrome',
  'Alibaba Cloud',
  // authenticator apps and security keys the two-factor texts name
  'Google Authenticator',
  'Microsoft Authenticator',
  'YubiKey',
  '1Password',
  // places
  'China',
  // languages as their own names
  'English',
  'Chinese',
  'Chinese (Simplified)',
  'English (US)',
  // keys and HTTP headers named in hints
  'Shift',
  'Home',
  'End',
  'Enter',
  'Authorization',
  'X-Requested-With',
];

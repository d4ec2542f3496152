/** Static type of an edition manifest after loading (defaults applied); mirrors edition.schema.json. */
import type { SupportedLocale } from './locale';

/** The two languages every user-visible string exists in. */
export type Locale = SupportedLocale;

/** A text given in both languages. */
export type Localized = Record<Locale, string>;

/** When a settings menu entry shows: always, or only with an app installed in the organisation. */
export type MenuVisibility = 'always' | { appInstalled: string };

/** One entry of the settings sidebar, in the order the edition wants. */
export interface MenuEntry {
  key: string;
  visible: MenuVisibility;
}

/** One application of the suite as the app switcher shows it. */
export interface AppDescriptor {
  key: string;
  id?: string;
  vpcId?: string;
  name: Localized;
  /** Path of the svg under editions/, recoloured to the brand colour at display time. */
  logo: string;
  url?: string;
}

/** Help links by purpose; an absent key hides that link. */
export interface HelpLinks {
  helpCenter?: string;
  openApi?: string;
  accessToken?: string;
  sshKey?: string;
  packagesCredential?: string;
  identityProvider?: string;
}

/**
 * Host names the ready-to-paste credential snippets name (git over HTTPS, artifact registries, open API); a missing
 * one means the page's own host, as a private deployment serves everything there.
 */
export interface EditionHosts {
  /** Git over HTTPS. */
  codeHosting?: string;
  /** The npm and Maven registries. */
  packages?: string;
  /** `docker login`; missing: the packages host. */
  containerRegistry?: string;
  /** The open API a personal access token calls. */
  openApi?: string;
}

/** Everything that differs between editions; data only. */
export interface EditionManifest {
  id: string;
  brand: { color: string; logo: string; favicon?: string };
  names: {
    product: Localized;
    system: Localized;
    variants?: Record<string, { system: Localized; logo?: string }>;
  };
  locale: { default: Locale };
  paths: { relogin: '/users/login' | '/sso/login'; codeHostingPrefix: string };
  helpLinks: HelpLinks;
  settingsMenu: MenuEntry[];
  appSwitcher: AppDescriptor[];
  plugins: string[];
  /** Hosts of the suite's other services, for credential snippets; absent: all on the page's own host. */
  hosts?: EditionHosts;
  features: { legacyTokens: boolean; privateDeployment: boolean };
  /** Sign-in extras of the edition: a link to sign in with the cloud provider's own account (aliyun). */
  signIn?: { cloudProviderUrl?: string };
}

/** The edition used when none or an unknown one is asked for. */
export const DEFAULT_EDITION = 'vpc';

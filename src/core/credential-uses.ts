import { runInAction } from 'mobx';
import type { RequestClient } from './request';
import { annotate, SectionStore } from './stores/resource';
import { CREDENTIAL_USES_PATH, type CredentialKind } from '../../schemas/credential-kinds';
import type { CredentialUsesPage, CredentialUseView } from '../../schemas/credential-uses';

// A credential's usage timeline on the web (issue 42): the core's call and store behind the timeline drawer that the
// token, SSH key and artifact password pages open. The rows come newest first, a page at a time.

export type { CredentialUseView, CredentialUsesPage } from '../../schemas/credential-uses';

/** One page of a credential's uses, older than `before` (the previous page's `next`) when given. */
export function fetchCredentialUses(client: RequestClient, kind: CredentialKind, id: string, before?: string) {
  return client.get<CredentialUsesPage>(CREDENTIAL_USES_PATH, before ? { kind, id, before } : { kind, id });
}

/** The timeline of one credential: its first page on `load()`, then older pages appended by `loadOlder()`. */
export class CredentialUsesStore extends SectionStore {
  /** The rows shown, newest first. */
  uses: CredentialUseView[] = [];
  /** The cursor of the next older page; null when the last page is shown. */
  next: string | null = null;
  /** An older page is on its way (the rows shown stay). */
  loadingOlder = false;
  /** The last older page did not come: the rows shown stay, the button offers it again. */
  olderFailed = false;

  constructor(
    private readonly client: RequestClient,
    /** Which kind of credential. */
    readonly kind: CredentialKind,
    /** The credential's id in its slice. */
    readonly id: string,
  ) {
    super({ loading: true });
    annotate<CredentialUsesStore>(this, {
      observable: ['uses', 'next', 'loadingOlder', 'olderFailed'],
      action: ['load', 'loadOlder'],
    });
  }

  /** (Re)loads the newest page; a failure shows no rows. */
  async load(): Promise<void> {
    this.olderFailed = false;
    await this.loadWith(
      fetchCredentialUses(this.client, this.kind, this.id),
      (page) => {
        this.uses = page.uses;
        this.next = page.next;
      },
      () => {
        this.uses = [];
        this.next = null;
      },
    );
  }

  /** Appends the next older page; does nothing at the end or while one is on its way. */
  async loadOlder(): Promise<void> {
    if (!this.next || this.loadingOlder) return;
    this.loadingOlder = true;
    this.olderFailed = false;
    const [error, page] = await fetchCredentialUses(this.client, this.kind, this.id, this.next);
    runInAction(() => {
      this.loadingOlder = false;
      if (error || !page) {
        this.olderFailed = true;
        return;
      }
      this.uses = [...this.uses, ...page.uses];
      this.next = page.next;
    });
  }
}

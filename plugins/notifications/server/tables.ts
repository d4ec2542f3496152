/** The message center's table, owned by this slice (its migration is `052-inbox`). */

/** One message of one user's inbox; what it says is rendered from `type` and `params` in the reader's language. */
export interface InboxMessagesTable {
  id: string;
  user_id: string;
  /** The application it comes from (`INBOX_APPS`). */
  app: string;
  /** The account event type (`token.created`…) or `org.notice`. */
  type: string;
  /** JSON object of the event's fields (names, dates, an administrator's notice text); never a secret. */
  params: string;
  /** 1 for security events (sensitive behaviour): not deletable while unread. */
  sensitive: number;
  /** When the user read it; null while unread. */
  read_at: number | null;
  created_at: number;
  /** The event's key when it has one (scheduled events): one message per key and user. */
  event_key: string | null;
}

declare module '../../../server/db/schema' {
  interface DB {
    inbox_messages: InboxMessagesTable;
  }
}

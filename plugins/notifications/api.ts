import type { RequestClient } from '../../src/core/request';
import type { Success } from '../../schemas/common';
import type {
  InboxBatchDeleteBody,
  InboxChanged,
  InboxCounts,
  InboxDeleteReadBody,
  InboxListBody,
  InboxPage,
  InboxReadBody,
} from './contract';

/** Where the message center's calls live. */
export const INBOX_URL = '/users/ajax/v1/notifications/inbox';

const message = (id: string) => `${INBOX_URL}/messages/${encodeURIComponent(id)}`;

/** Calls of the message center; a response ≥ 500 shows the central notice, the page explains the rest. */
export function inboxApi(client: RequestClient) {
  return {
    /** One page of my messages, newest first; pass the previous answer's `next_token` for the next one. */
    list: (body: InboxListBody) => client.post<InboxPage>(`${INBOX_URL}/messages:list`, body),
    /** Marks one message read; 404 `InboxMessageNotFound` when it is gone (or not mine). */
    read: (id: string) => client.post<Success>(`${message(id)}/read`, {}),
    /** Marks the listed messages read, or every unread one (of one application when `app` is given). */
    readMany: (body: InboxReadBody) => client.post<InboxChanged>(`${INBOX_URL}/messages/read`, body),
    /** Deletes one message; 409 `InboxMessageUnreadSensitive` while a security message is unread. */
    remove: (id: string) => client.delete<Success>(message(id)),
    /** Deletes the listed messages; unread security messages among them are kept (`kept`). */
    removeMany: (body: InboxBatchDeleteBody) => client.post<InboxChanged>(`${INBOX_URL}/messages:batchDelete`, body),
    /** Deletes every read message (of one application when `app` is given). */
    removeRead: (body: InboxDeleteReadBody) => client.post<InboxChanged>(`${INBOX_URL}/messages:deleteRead`, body),
    /** Unread and total counts, overall and per application: the tabs and the bell. */
    counts: () => client.post<InboxCounts>(`${INBOX_URL}/messages/unread:countGroupByApp`, {}),
    /**
     * Calls `listener` after any call of the app (of any section) whose answer says it wrote account events to me:
     * each may be a new message. Returns the unsubscribe function.
     */
    accountEvents: (listener: () => void) => client.onAccountEvents(listener),
  };
}

/** The message center's calls, as the stores use them. */
export type InboxApi = ReturnType<typeof inboxApi>;

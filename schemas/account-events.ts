/**
 * The answer header by which the service tells the signed-in caller how many account events the call addressed to
 * them (or to an organisation they act in): each may be a new inbox message, so the web app refreshes what shows
 * them without knowing which slice wrote one. Absent when there were none.
 */
export const ACCOUNT_EVENTS_HEADER = 'x-account-events';

import type { ServerLocale } from '../../../server/i18n/index';
import type { HistoryGroup } from '../contract';
import { allEntries, toEntry, type HistoryDeps } from './history-service';
import { HISTORY_TEXTS, entryCells } from './history-texts';

/** The byte order mark that makes spreadsheet programs read the file as UTF-8 (Excel otherwise guesses a code page). */
export const UTF8_BOM = '\ufeff';

/** First characters that make a spreadsheet read a cell as a formula (or a field separator run into one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): always quoted, quotes doubled. A cell a spreadsheet would take for a formula (a token
 * named `=HYPERLINK(…)`) starts with an apostrophe instead, so it is shown as text and never evaluated (OWASP's
 * "CSV injection" advice).
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One CSV record with its CRLF. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Entries per chunk the export hands to the socket. */
const CHUNK_ROWS = 100;

/**
 * The account's history of the last 90 days (of one group) as CSV in `locale`: the BOM and the header row first,
 * then the entries newest first, read in keyset batches and yielded in chunks, so the answer streams in bounded
 * memory however long the history is.
 */
export async function* historyCsv(
  deps: HistoryDeps,
  userId: string,
  group: HistoryGroup | undefined,
  locale: ServerLocale,
): AsyncGenerator<string> {
  const t = HISTORY_TEXTS[locale];
  yield UTF8_BOM + csvLine(t.columns);
  let chunk = '';
  let rows = 0;
  for await (const row of allEntries(deps, userId, group)) {
    chunk += csvLine(entryCells(t, toEntry(row)));
    if (++rows % CHUNK_ROWS === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

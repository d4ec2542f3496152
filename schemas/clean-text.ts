/**
 * The rule for text a person writes and other people (or a security notice) read: display names, token and SSH key
 * names, descriptions, organisation notices. Plain functions without imports, so a form may use them as well as the
 * service (server/clean-text.ts turns a problem into the error answer that names the field).
 */

/** Why a text is refused: a control character, a text-direction control, or nothing visible in it. */
export type TextProblem = 'control' | 'direction' | 'invisible';

/** What a field allows beyond a single line: `multiline` lets line feeds through (a notice's body). */
export interface TextRule {
  multiline?: boolean;
}

// C0 and C1 controls and DEL (\p{Cc}: CR, LF, TAB, BEL, ESC, NEL…), and the Unicode line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_BUT_LF = /[^\n\P{Cc}]|[\u2028\u2029]/u;
// Bidi embeddings and overrides (U+202A–202E), isolates (U+2066–2069), the LRM/RLM marks and the Arabic letter mark:
// each can make a name read as something else ("…exe.txt" shown as "…txt.exe") where it is shown.
const DIRECTION = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// Nothing a reader sees: white space, default-ignorable code points (zero-width space and joiners, U+2060, U+FEFF,
// variation selectors, Hangul fillers, tags…) and the blank braille pattern.
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]*$/u;

/**
 * The text as stored: NFC-normalised, so the same name written with combining or precomposed accents is one name
 * (with `multiline`, CR LF and lone CR become LF). Apply before measuring and checking.
 */
export function normalizeText(value: string, rule: TextRule = {}): string {
  const nfc = value.normalize('NFC');
  return rule.multiline ? nfc.replace(/\r\n?/g, '\n') : nfc;
}

/** What is wrong with a (normalised, non-empty) text, or null when it may be stored and shown. */
export function textProblem(value: string, rule: TextRule = {}): TextProblem | null {
  if ((rule.multiline ? CONTROL_BUT_LF : CONTROL).test(value)) return 'control';
  if (DIRECTION.test(value)) return 'direction';
  if (INVISIBLE_ONLY.test(value)) return 'invisible';
  return null;
}

import { AppError } from './errors';
import type { LocalizedText } from './i18n/index';
import { normalizeText, textProblem, type TextProblem, type TextRule } from '../schemas/clean-text';

/** The error code of each problem of schemas/clean-text.ts (their messages name the field). */
const CODES = {
  control: 'TextControlCharacters',
  direction: 'TextDirectionControls',
  invisible: 'TextInvisibleOnly',
} as const satisfies Record<TextProblem, string>;

/**
 * A text a person wrote for others to read (a name, a description, a notice), as it is stored: NFC-normalised,
 * refused with 400 and a message naming `field` (in the request's language) when it holds control characters,
 * text-direction controls, or nothing visible. Trim and check emptiness and length around it as the field needs.
 */
export function cleanText(value: string, field: LocalizedText, rule: TextRule = {}): string {
  const text = normalizeText(value, rule);
  const problem = textProblem(text, rule);
  if (problem) throw new AppError(400, CODES[problem], { field });
  return text;
}

/** The same rule for the admin CLI: the stored text, or the reason in English naming the option. */
export function cleanTextForCli(
  value: string,
  option: string,
  rule: TextRule = {},
): { text: string } | { problem: string } {
  const text = normalizeText(value, rule);
  const problem = textProblem(text, rule);
  if (!problem) return { text };
  const reason = {
    control: rule.multiline ? 'control characters (line feeds aside)' : 'control characters (line breaks, tabs…)',
    direction: 'text-direction controls (U+202A–202E, U+2066–2069, U+200E/200F, U+061C)',
    invisible: 'only invisible characters',
  }[problem];
  return {
    problem:
      problem === 'invisible' ? `${option} must contain visible characters` : `${option} must not contain ${reason}`,
  };
}

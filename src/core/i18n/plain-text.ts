import type { MessageFormatElement } from 'react-intl';

/**
 * The text of a message that takes no arguments, whether an ICU string (a source catalogue, as tests load them) or
 * its compiled syntax tree (what the build puts in the bundle): the tree's literal parts, in order.
 */
export function plainText(message: string | MessageFormatElement[]): string {
  if (typeof message === 'string') return message;
  // Type 0 is formatjs's literal element; a message without arguments has nothing else.
  return message.map((el) => (el.type === 0 ? el.value : '')).join('');
}

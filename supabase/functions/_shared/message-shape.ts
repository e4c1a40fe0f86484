/**
 * Whether what someone typed into the search box is one identifier (it goes to /search/{it}) or a
 * message to check (it goes to /check). Kept apart from check-message.ts and free of imports so the
 * home page can decide without loading the extraction libraries.
 */
const ONE_PHONE = /^\+?[\d\s().-]+$/;

export function looksLikeMessage(input: string): boolean {
  const s = input.trim();
  if (s === '') return false;
  if (/[\r\n]/.test(s)) return true;
  // A number written with spaces (0917 123 4567, +63 (917) 123-4567) is still one identifier.
  if (ONE_PHONE.test(s)) return false;
  // Several words: a sentence or a chat line.
  return /\s/.test(s);
}

/**
 * Cuts text to `max` characters and adds an ellipsis when anything was cut (docs/behaviour.md §9:
 * front-page news 35/97, news list 40/200). Whitespace at the cut is trimmed so the ellipsis hugs
 * the last word.
 */
export function truncate(text: string | null | undefined, max: number): string {
  const value = (text ?? '').trim();
  if (value.length <= max) return value;
  return `${value.slice(0, max).trimEnd()}...`;
}

const BADGE_COLOURS = ['red', 'blue', 'orange', 'green'] as const;

/**
 * Initials for the project badge: the first letters of the first two words, or the first two
 * letters of a one-word name (seed 000 §9).
 * @example projectInitials('Web servers') // 'WS'
 */
export function projectInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length >= 2) return (firstChar(words[0]!) + firstChar(words[1]!)).toUpperCase();
  return [...(words[0] ?? '?')].slice(0, 2).join('').toUpperCase();
}

/** The badge colour, cycling red, blue, orange, green by position in the project list. */
export function projectColour(index: number): string {
  return BADGE_COLOURS[((index % BADGE_COLOURS.length) + BADGE_COLOURS.length) % BADGE_COLOURS.length]!;
}

function firstChar(word: string): string {
  return [...word][0] ?? '';
}

// How an app looks in the console: its colour (stored as Semaphore does, a CSS name or #hex) and
// a badge standing in for its Material Design icon name (the console ships no icon font).

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** The named colours apps use, with the hex value a colour picker needs. */
const NAMED_COLOURS: Record<string, string> = {
  black: '#000000', white: '#ffffff', grey: '#808080', gray: '#808080', red: '#ff0000', orange: '#ffa500',
  yellow: '#ffff00', green: '#008000', teal: '#008080', blue: '#0000ff', purple: '#800080', pink: '#ffc0cb', brown: '#a52a2a',
};

/**
 * The colour safe to put in a style attribute, or undefined for anything else.
 * @example appCssColour('#7b42bc') // '#7b42bc'; appCssColour('red;x:y') // undefined
 */
export function appCssColour(colour: string): string | undefined {
  const value = colour.trim().toLowerCase();
  return HEX.test(value) || Object.hasOwn(NAMED_COLOURS, value) ? value : undefined;
}

/**
 * The `#rrggbb` value for `<input type="color">`; black when the colour is unknown or empty.
 * @example pickerColour('blue') // '#0000ff'; pickerColour('#abc') // '#aabbcc'
 */
export function pickerColour(colour: string): string {
  const value = colour.trim().toLowerCase();
  if (Object.hasOwn(NAMED_COLOURS, value)) return NAMED_COLOURS[value]!;
  if (/^#[0-9a-f]{3}$/.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join('')}`;
  if (/^#[0-9a-f]{6}/.test(value)) return value.slice(0, 7);
  return '#000000';
}

/**
 * The colour to save from the form: the picker always sends a value, so an untouched picker
 * keeps the stored colour (a name such as `black` stays a name, an empty one stays empty).
 * @example colourToSave('#000000', 'black') // 'black'; colourToSave('#cc3300', 'black') // '#cc3300'
 */
export function colourToSave(picked: string, stored: string): string {
  return picked.toLowerCase() === pickerColour(stored) ? stored : picked;
}

/**
 * The letter shown for an icon name: the first letter after `mdi-` and `language-`.
 * @example appIconLetter('mdi-language-python') // 'P'; appIconLetter('') // '?'
 */
export function appIconLetter(icon: string): string {
  const word = icon.trim().replace(/^mdi-/, '').replace(/^language-/, '');
  return ([...word][0] ?? '?').toUpperCase();
}

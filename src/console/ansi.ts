/** A run of log text with the SGR styles in force; rendered as a span with classes, never as HTML. */
export interface AnsiSegment { text: string; classes: string }

interface Style { bold: boolean; italic: boolean; underline: boolean; fg: string; bg: string }

const PLAIN: Style = { bold: false, italic: false, underline: false, fg: '', bg: '' };
const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
// CSI sequences (colours and cursor moves alike) and OSC titles; only SGR ('m') changes style.
const ESCAPE = /\u001b\[([0-9;?]*)([A-Za-z])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * Splits a log line into styled segments from its ANSI SGR codes (bold, italic, underline,
 * 8/16 colours); other escape sequences are dropped.
 * @example parseAnsi('\u001b[31mfailed\u001b[0m ok') // [{text:'failed',classes:'fg-red'},{text:' ok',classes:''}]
 */
export function parseAnsi(line: string): AnsiSegment[] {
  const segments: AnsiSegment[] = [];
  let style = PLAIN;
  let last = 0;
  for (const match of line.matchAll(ESCAPE)) {
    pushText(segments, line.slice(last, match.index), style);
    last = match.index + match[0].length;
    if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
  }
  pushText(segments, line.slice(last), style);
  return segments;
}

function pushText(segments: AnsiSegment[], text: string, style: Style): void {
  if (!text) return;
  const classes = styleClasses(style);
  const previous = segments.at(-1);
  if (previous && previous.classes === classes) previous.text += text;
  else segments.push({ text, classes });
}

function applySgr(style: Style, params: string): Style {
  const codes = params === '' ? [0] : params.split(';').map((p) => Number(p) || 0);
  let next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) next = { ...PLAIN };
    else if (code === 1) next.bold = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 22) next.bold = false;
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code >= 30 && code <= 37) next.fg = COLOURS[code - 30]!;
    else if (code >= 90 && code <= 97) next.fg = `bright-${COLOURS[code - 90]}`;
    else if (code === 39) next.fg = '';
    else if (code >= 40 && code <= 47) next.bg = COLOURS[code - 40]!;
    else if (code >= 100 && code <= 107) next.bg = `bright-${COLOURS[code - 100]}`;
    else if (code === 49) next.bg = '';
    else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4; // 256/true colour: skipped
  }
  return next;
}

function styleClasses(style: Style): string {
  const classes: string[] = [];
  if (style.bold) classes.push('ansi-bold');
  if (style.italic) classes.push('ansi-italic');
  if (style.underline) classes.push('ansi-underline');
  if (style.fg) classes.push(`fg-${style.fg}`);
  if (style.bg) classes.push(`bg-${style.bg}`);
  return classes.join(' ');
}

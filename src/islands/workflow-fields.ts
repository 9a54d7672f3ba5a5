// Pure parts of the workflow editor (WorkflowEditor.tsx): where a new step goes, and how the
// text typed into a number, JSON or mapping field reads — or why it does not.

/** Room a step takes on the canvas (its box is 11rem by ~60 px), with the space around it. */
export const CELL = { width: 220, height: 100 };
const BOX = { width: 176, height: 64 };
/** the least room between two boxes */
const GAP = 16;
const MARGIN = 24;

interface Area { x: number; y: number; width: number; height: number }

/**
 * The first free place for a new step in the visible part of the canvas (`area`, in canvas
 * coordinates): cells of CELL left to right, as many columns as whole boxes fit (at least one), then the
 * next row. A cell is free when no step's box comes within GAP of a box there. `inView` is false when the
 * place lies below the visible part (the editor then zooms out to show every step).
 * @example freeSpot([{ x: 24, y: 24 }], { x: 0, y: 0, width: 700, height: 450 }) // { position: { x: 244, y: 24 }, inView: true }
 */
export function freeSpot(taken: { x: number; y: number }[], area: Area): { position: { x: number; y: number }; inView: boolean } {
  const columns = Math.max(1, Math.floor((area.width - 2 * MARGIN - BOX.width) / CELL.width) + 1);
  const left = area.x + MARGIN;
  const top = area.y + MARGIN;
  const busy = (x: number, y: number) => taken.some((p) => Math.abs(p.x - x) < BOX.width + GAP && Math.abs(p.y - y) < BOX.height + GAP);
  for (let i = 0; ; i++) {
    const x = left + (i % columns) * CELL.width;
    const y = top + Math.floor(i / columns) * CELL.height;
    if (!busy(x, y)) return { position: { x: Math.round(x), y: Math.round(y) }, inView: y + CELL.height - MARGIN <= area.y + area.height };
  }
}

/** What a field takes: a whole number from `min`, a JSON object, or `variable=output` lines. */
export type FieldRule = { kind: 'integer'; min: number } | { kind: 'object' } | { kind: 'mappings' };

/** A field's typed text as its value, or the message (a `workflowEditor` key and its values) saying why it does not read. */
export type FieldRead = { value: unknown } | { error: { key: string; vars?: Record<string, string | number> } };

/**
 * Reads what was typed into a field; the text itself is never changed.
 * @example parseFieldText({ kind: 'integer', min: 1 }, '-5') // { error: { key: 'mustBeInteger', vars: { min: 1 } } }
 */
export function parseFieldText(rule: FieldRule, text: string): FieldRead {
  if (rule.kind === 'integer') {
    const trimmed = text.trim();
    return /^\d{1,9}$/.test(trimmed) && Number(trimmed) >= rule.min ? { value: Number(trimmed) } : { error: { key: 'mustBeInteger', vars: { min: rule.min } } };
  }
  if (rule.kind === 'object') {
    try {
      const parsed: unknown = JSON.parse(text.trim() || '{}');
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { value: parsed };
    } catch { /* said below */ }
    return { error: { key: 'mustBeObject' } };
  }
  const mappings: { variable: string; output: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const parts = line.split('=');
    if (parts.length !== 2 || !parts[0]!.trim() || !parts[1]!.trim()) return { error: { key: 'mappingLine', vars: { line: i + 1 } } };
    mappings.push({ variable: parts[0]!.trim(), output: parts[1]!.trim() });
  }
  return { value: mappings };
}

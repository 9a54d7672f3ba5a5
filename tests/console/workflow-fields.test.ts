// The pure parts of the workflow screens: where the editor puts a new step, how a typed field
// reads (never rewritten), and the run graph's two drawings.
import { describe, expect, it } from 'vitest';
import { CELL, freeSpot, parseFieldText } from '../../src/islands/workflow-fields.ts';
import { layoutGraphTall, runGraphSvg, type GraphWords, type RunGraphNode } from '../../src/console/workflow-graph.ts';

const AREA = { x: 0, y: 0, width: 700, height: 450 };

describe('a new step in the editor', () => {
  it('goes to the first free place of the visible canvas, left to right, then down', () => {
    const taken: { x: number; y: number }[] = [];
    const spots = [];
    for (let i = 0; i < 4; i++) {
      const spot = freeSpot(taken, AREA);
      spots.push(spot);
      taken.push(spot.position);
    }
    // three boxes fit across 700 px, the fourth starts the next row
    expect(spots.map((s) => s.position)).toEqual([{ x: 24, y: 24 }, { x: 24 + CELL.width, y: 24 }, { x: 24 + 2 * CELL.width, y: 24 }, { x: 24, y: 24 + CELL.height }]);
    expect(spots.every((s) => s.inView)).toBe(true);
  });

  it('skips a place a step was dragged to, keeps one column on a phone, and says when the place is below the view', () => {
    expect(freeSpot([{ x: 30, y: 30 }], AREA).position).toEqual({ x: 24 + CELL.width, y: 24 });
    const phone = { x: 0, y: 0, width: 300, height: 250 };
    const first = freeSpot([], phone);
    const second = freeSpot([first.position], phone);
    const third = freeSpot([first.position, second.position], phone);
    expect([first.position.x, second.position.x, third.position.x]).toEqual([24, 24, 24]);
    expect([first.inView, second.inView, third.inView]).toEqual([true, true, false]);
  });
});

describe('a typed field of the editor', () => {
  it('reads a whole number from its minimum, and says why anything else does not read', () => {
    expect(parseFieldText({ kind: 'integer', min: 1 }, '90')).toEqual({ value: 90 });
    expect(parseFieldText({ kind: 'integer', min: 0 }, ' 0 ')).toEqual({ value: 0 });
    for (const typed of ['-5', '1e3', 'abc', '', '0', '1.5']) {
      expect(parseFieldText({ kind: 'integer', min: 1 }, typed), typed).toEqual({ error: { key: 'mustBeInteger', vars: { min: 1 } } });
    }
  });

  it('reads survey values as a JSON object and mappings as variable=output lines', () => {
    expect(parseFieldText({ kind: 'object' }, '{"version": "1.2"}')).toEqual({ value: { version: '1.2' } });
    expect(parseFieldText({ kind: 'object' }, '')).toEqual({ value: {} });
    expect(parseFieldText({ kind: 'object' }, '["a"]')).toEqual({ error: { key: 'mustBeObject' } });
    expect(parseFieldText({ kind: 'object' }, '{"version": ')).toEqual({ error: { key: 'mustBeObject' } });
    expect(parseFieldText({ kind: 'mappings' }, 'tag = image_tag\n\nhost=target')).toEqual({ value: [{ variable: 'tag', output: 'image_tag' }, { variable: 'host', output: 'target' }] });
    expect(parseFieldText({ kind: 'mappings' }, 'tag=image_tag\nhost')).toEqual({ error: { key: 'mappingLine', vars: { line: 2 } } });
  });
});

describe('the run graph', () => {
  const words: GraphWords = { kind: (k) => k, status: (s) => s, outputs: (n) => `${n}`, condition: (c) => c, label: 'graph', timeLeft: '{{time}} left' };
  const node = (id: number, kind = 'task'): RunGraphNode => ({ id, kind, name: `step ${id}`, status: 'pending', due: null, task_id: null, outputs: 0 });
  const chain = (n: number) => Array.from({ length: n - 1 }, (_, i) => ({ source_node_id: i + 1, destination_node_id: i + 2, condition: 'on_success' }));

  it('draws a chain also top to bottom, and names the width below which that drawing shows', () => {
    const nodes = [1, 2, 3, 4].map((id) => node(id));
    const svg = runGraphSvg(nodes, chain(4), words, (id) => `/t/${id}`).value;
    expect(svg).toContain('class="wf-graph wf-graph-wide"');
    expect(svg).toContain('class="wf-graph wf-graph-tall"');
    // 4 columns of 184 px with 56 px between and 16 px around: 936 px, rounded down to 880
    expect(svg).toContain('wf-graph-fit wf-fit-880');
    expect([...layoutGraphTall(nodes, chain(4)).values()].map((p) => p.x)).toEqual([16, 16, 16, 16]);
  });

  it('keeps to one drawing when the top-down one would be no narrower (many steps side by side)', () => {
    const nodes = [node(1), ...[2, 3, 4, 5].map((id) => node(id))];
    const fan = [2, 3, 4, 5].map((id) => ({ source_node_id: 1, destination_node_id: id, condition: 'on_success' }));
    const svg = runGraphSvg(nodes, fan, words, (id) => `/t/${id}`).value;
    expect(svg).not.toContain('wf-graph-tall');
    expect(svg).not.toContain('wf-fit-');
  });
});

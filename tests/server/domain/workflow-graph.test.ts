import { describe, expect, it } from 'vitest';
import { planRun, problemsOf, type GraphEdge, type GraphNode, type NodeState } from '../../../src/server/domain/workflows/workflow-graph.ts';
import { coerceToSurvey, deliverInputs, readOutputsText, readTaskOutputs } from '../../../src/server/domain/workflows/workflow-outputs.ts';

const node = (id: number, extra: Partial<GraphNode> = {}): GraphNode => ({ id, kind: 'task', name: '', template_id: 1, convergence_mode: 'all', delay_seconds: 0, approval_timeout: 0, ...extra });
const edge = (source: number, destination: number, condition: GraphEdge['condition'] = 'on_success'): GraphEdge => ({ source_node_id: source, destination_node_id: destination, condition });
const states = (entries: [number, NodeState][]) => new Map(entries);

describe('planning a run', () => {
  // 1 → 2 (success) ; 1 → 3 (failure) ; 2,3 → 4 (any)
  const graph = { nodes: [node(1), node(2), node(3), node(4, { convergence_mode: 'any' })], edges: [edge(1, 2), edge(1, 3, 'on_failure'), edge(2, 4), edge(3, 4)] };

  it('starts the start node first, then follows the edges its end takes', () => {
    expect(planRun(graph, states([]))).toEqual({ ready: [1], finished: false, failed: false });
    expect(planRun(graph, states([[1, 'active']])).ready).toEqual([]);
    expect(planRun(graph, states([[1, 'success']])).ready).toEqual([2]);
    expect(planRun(graph, states([[1, 'failed']])).ready).toEqual([3]);
  });

  it('skips the branch not taken, and an any-node starts from the branch that was', () => {
    expect(planRun(graph, states([[1, 'success'], [2, 'success']])).ready).toEqual([4]);
    const end = planRun(graph, states([[1, 'failed'], [3, 'success'], [4, 'success']]));
    expect(end).toEqual({ ready: [], finished: true, failed: false });
  });

  it('refuses a second start node; fails a run whose failure no edge took', () => {
    const all = { nodes: [node(1), node(2), node(3)], edges: [edge(1, 3), edge(2, 3)] };
    expect(problemsOf(all).map((p) => p.message)).toEqual([expect.stringMatching(/second start node/)]);
    const chain = { nodes: [node(1), node(2)], edges: [edge(1, 2)] };
    expect(planRun(chain, states([[1, 'failed']]))).toEqual({ ready: [], finished: true, failed: true });
  });
});

describe('outputs and inputs', () => {
  it('reads an outputs file by the rules, with the reason when it breaks one', () => {
    expect(readOutputsText('')).toEqual({});
    expect(readOutputsText('{"a-b": 1, "_x": [1]}')).toEqual({ 'a-b': 1, _x: [1] });
    expect(() => readOutputsText('[1]')).toThrow('must hold a JSON object');
    expect(() => readOutputsText('{"1x": 1}')).toThrow('is not allowed');
    expect(() => readOutputsText(JSON.stringify({ big: 'x'.repeat(33 * 1024) }))).toThrow('larger than 32 KB');
    expect(() => readOutputsText(JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]))))).toThrow('101 values');
  });

  it('reads the not-captured list beside the outputs (the same for a task run here and a runner\'s report)', () => {
    expect(readTaskOutputs('{"a": 1}', '')).toEqual({ outputs: { a: 1 }, notCaptured: [] });
    expect(readTaskOutputs('', '[{"name": "pw", "reason": "sensitive", "extra": 1}]')).toEqual({ outputs: {}, notCaptured: [{ name: 'pw', reason: 'sensitive' }] });
    expect(() => readTaskOutputs('[1]', '[]')).toThrow('must hold a JSON object');
    expect(() => readTaskOutputs('{}', '{')).toThrow('not captured is not valid JSON');
    expect(() => readTaskOutputs('{}', '[{"name": 1}]')).toThrow('{name, reason} entries');
    expect(() => readTaskOutputs('{}', JSON.stringify(Array.from({ length: 1001 }, () => ({ name: 'a', reason: 'b' }))))).toThrow('at most 1000');
  });

  it('coerces to the variable type and never fills a secret', () => {
    expect(coerceToSurvey({ name: 'n', type: 'int' }, 3)).toEqual({ value: '3' });
    expect(coerceToSurvey({ name: 'n', type: 'int' }, 'three')).toEqual({ reason: 'not an integer' });
    expect(coerceToSurvey({ name: 'e', type: 'enum', values: [{ value: 'eu' }] }, 'us')).toEqual({ reason: 'not one of: eu' });
    expect(coerceToSurvey({ name: 's', type: '' }, { a: 1 })).toEqual({ value: '{"a":1}' });
    expect('reason' in coerceToSurvey({ name: 't', type: 'secret' }, 'x')).toBe(true);
  });

  it('lets an explicit mapping beat a by-name delivery, and the older edge win between equals', () => {
    const survey = [{ name: 'tag', type: '' }];
    const { values, lines } = deliverInputs(survey, [
      { edge_id: 1, input_mode: 'by_name', input_mappings: [], source_node_id: 10, source_task_id: 5, outputs: { tag: 'by-name' } },
      { edge_id: 3, input_mode: 'explicit', input_mappings: [{ variable: 'tag', output: 'image' }], source_node_id: 11, source_task_id: 6, outputs: { image: 'explicit' } },
      { edge_id: 2, input_mode: 'explicit', input_mappings: [{ variable: 'tag', output: 'image' }], source_node_id: 12, source_task_id: 7, outputs: { image: 'older' } },
    ]);
    expect(values).toEqual({ tag: 'older' });
    expect(lines).toEqual(['Input "tag" <- output "image" of node 12 (task #7)']);
  });
});

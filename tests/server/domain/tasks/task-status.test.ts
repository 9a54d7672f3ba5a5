import { describe, expect, it } from 'vitest';
import { ACTIVE_STATUSES, FINISHED_STATUSES, TASK_STATUSES, canMove, isFinished } from '../../../../src/server/domain/tasks/task-status.ts';

describe('task status guard', () => {
  it('treats stopped, success, error, rejected and canceled as finished and terminal', () => {
    expect(FINISHED_STATUSES.every(isFinished)).toBe(true);
    for (const from of FINISHED_STATUSES) for (const to of TASK_STATUSES) expect(canMove(from, to), `${from} → ${to}`).toBe(false);
  });

  it('follows the reference rules: no way back from confirmed, running or stopping', () => {
    expect(canMove('confirmed', 'waiting_confirmation')).toBe(false);
    expect(canMove('running', 'waiting')).toBe(false);
    expect(canMove('stopping', 'waiting')).toBe(false);
    expect(canMove('stopping', 'running')).toBe(false);
    expect(canMove('running', 'running')).toBe(false);
  });

  it('allows the normal paths of a run, a terraform confirmation and a stop', () => {
    const path = (...s: string[]) => s.slice(1).every((to, i) => canMove(s[i]!, to));
    expect(path('waiting', 'starting', 'running', 'success')).toBe(true);
    expect(path('waiting', 'starting', 'running', 'waiting_confirmation', 'confirmed', 'running', 'success')).toBe(true);
    expect(path('running', 'waiting_confirmation', 'rejected')).toBe(true);
    expect(path('running', 'stopping', 'stopped')).toBe(true);
    expect(path('waiting', 'stopped')).toBe(true);
  });

  it('lets every active status fail, which crash recovery relies on', () => {
    for (const s of ACTIVE_STATUSES) expect(canMove(s, 'error'), s).toBe(true);
  });
});

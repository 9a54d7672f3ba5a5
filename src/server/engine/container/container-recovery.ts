import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutorSettings } from '../../config/config.ts';
import { containerInstance, LABELS, listArgs, removeArgs, taskContainerName, taskIdOfContainer } from './container-cli.ts';
import { containerCommand, reasonOf } from './container-command.ts';
import { CONTAINERS_USED_MARKER } from './task-container.ts';

interface Where {
  tmpPath: string;
  executor: ExecutorSettings;
}

/**
 * Crash recovery of one task: removes (killing it first) the container a task that ran in one
 * left behind. True when there was one.
 * @example if (await endSurvivingContainer(config, row)) log('its container was still running; it was removed');
 */
export async function endSurvivingContainer(where: Where, row: { id: number; executor_image: string | null }): Promise<boolean> {
  if (!row.executor_image) return false;
  const name = taskContainerName(containerInstance(where.tmpPath), row.id);
  const removed = await containerCommand(where.executor.engine, removeArgs(where.executor.engine, name));
  return removed.code === 0 && removed.stdout.includes(name);
}

/**
 * Removes every container of this installation whose task is over: leftovers of a crash, or of
 * a removal that failed. `stillRunning` is asked, after the listing, which of the listed tasks
 * still run (a task started meanwhile was claimed before its container was made). Only a
 * tmp_path whose tasks have used containers is looked at, so servers that never do pay nothing.
 * @example const removed = await sweepTaskContainers({ tmpPath, executor }, async (ids) => new Set(ids.filter((id) => running.has(id))));
 */
export async function sweepTaskContainers(where: Where, stillRunning: (taskIds: number[]) => Promise<Set<number>>): Promise<number[]> {
  if (!existsSync(join(where.tmpPath, CONTAINERS_USED_MARKER))) return [];
  const { engine } = where.executor;
  const instance = containerInstance(where.tmpPath);
  const listed = await containerCommand(engine, listArgs(LABELS.instance, instance));
  if (listed.code !== 0) throw new Error(`cannot list containers: ${reasonOf(listed)}`);
  const taskIds = listed.stdout.split('\n').map((name) => taskIdOfContainer(instance, name)).filter((id): id is number => id !== null);
  if (!taskIds.length) return [];
  const running = await stillRunning(taskIds);
  const removed: number[] = [];
  for (const taskId of taskIds.filter((id) => !running.has(id))) {
    const result = await containerCommand(engine, removeArgs(engine, taskContainerName(instance, taskId)));
    if (result.code === 0) removed.push(taskId);
  }
  return removed;
}

import type { TaskOutputLine } from '../console/types.ts';
import { BLOCK_LINES, CACHED_BLOCKS } from './task-log-model.ts';

/**
 * A log's lines by position, held in blocks of BLOCK_LINES as `/output` answered them. Past
 * `maxBlocks` the least recently used block is dropped (fetched again if scrolled back to).
 */
export class LineCache {
  readonly #blocks = new Map<number, TaskOutputLine[]>();
  readonly maxBlocks: number;

  constructor(maxBlocks = CACHED_BLOCKS) {
    this.maxBlocks = maxBlocks;
  }

  line(index: number): TaskOutputLine | undefined {
    return this.#blocks.get(Math.floor(index / BLOCK_LINES))?.[index % BLOCK_LINES];
  }

  /** Keeps the lines of `block`; a shorter answer (read before a running log grew) never replaces a longer one. */
  put(block: number, lines: TaskOutputLine[]): void {
    const held = this.#blocks.get(block);
    this.#blocks.delete(block);
    this.#blocks.set(block, held && held.length > lines.length ? held : lines);
    for (const oldest of this.#blocks.keys()) {
      if (this.#blocks.size <= this.maxBlocks) break;
      this.#blocks.delete(oldest);
    }
  }

  /**
   * The blocks holding a line of `first..last` that is not here yet; the blocks that have all
   * their lines of that range count as just used.
   * @example cache.missing(999_970, 999_999) // [999]
   */
  missing(first: number, last: number): number[] {
    const result: number[] = [];
    for (let block = Math.floor(first / BLOCK_LINES); block <= Math.floor(last / BLOCK_LINES); block++) {
      const lines = this.#blocks.get(block);
      const lastWanted = Math.min(last, (block + 1) * BLOCK_LINES - 1) - block * BLOCK_LINES;
      if (!lines || lines.length <= lastWanted) result.push(block);
      else this.put(block, lines);
    }
    return result;
  }

  get size(): number {
    return this.#blocks.size;
  }
}

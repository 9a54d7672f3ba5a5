import type { Db } from '../../db/database.ts';
import { now } from '../../lib/time.ts';
import { AnsibleOutputParser, type SummaryEvent } from './ansible-output-parser.ts';

/** Semaphore's stage types, in the order a run passes them. */
export type StageType = 'init' | 'terraform_plan' | 'running' | 'print_result';

/** A stage's row and the number (1-based, among the task's log lines) of its first line. */
interface OpenStage { id: number; firstLine: number }

/**
 * Writes a task's summary while it runs: stages begin when the job says so (and `print_result`
 * at Ansible's PLAY RECAP), recap hosts and failed tasks are stored as the output streams past,
 * so the summary is live and nothing reads the log a second time. It sees every line the task
 * log stores, in order, so a stage's lines are known by number and become output ids when the
 * stage ends. Database writes run one after another behind the output; a failed write (the task
 * deleted mid-run) only stops the summary.
 * @example const s = new TaskSummaryRecorder(db, task, () => out.flush()); s.readAnsible(); s.beginStage('init'); s.line('PLAY RECAP ***'); await s.close();
 */
export class TaskSummaryRecorder {
  readonly #db: Db;
  readonly #task: { id: number; project_id: number };
  readonly #flushOutput: () => Promise<void>;
  #parser: AnsibleOutputParser | null = null;
  #work: Promise<void> = Promise.resolve();
  #stage: OpenStage | null = null;
  /** log lines seen so far */
  #lines = 0;
  #failed = false;

  constructor(db: Db, task: { id: number; project_id: number }, flushOutput: () => Promise<void>) {
    this.#db = db;
    this.#task = task;
    this.#flushOutput = flushOutput;
  }

  /** From now on, read the lines as ansible-playbook output (recap hosts, failed tasks). */
  readAnsible(): void {
    this.#parser ??= new AnsibleOutputParser();
  }

  /** Ends the current stage and opens `type` with the next line (or, at a recap, this one). */
  beginStage(type: StageType, firstLine = this.#lines + 1): void {
    this.#queue(async () => {
      await this.#endStage(firstLine - 1);
      const row = await this.#db.insertInto('task_stage')
        .values({ task_id: this.#task.id, type, start: now(), end: null, start_output_id: null, end_output_id: null, result: null })
        .returning('id').executeTakeFirstOrThrow();
      this.#stage = { id: row.id, firstLine };
    });
  }

  /** Every line the task log stores, in the order it stores them. */
  line(text: string): void {
    this.#lines++;
    if (this.#parser) this.#handle(this.#parser.read(text));
  }

  /** Ends the last stage and waits until everything is stored. */
  async close(): Promise<void> {
    if (this.#parser) this.#handle(this.#parser.end());
    const lastLine = this.#lines;
    this.#queue(() => this.#endStage(lastLine));
    await this.#work;
  }

  #handle(events: SummaryEvent[]): void {
    const { id: task_id, project_id } = this.#task;
    for (const event of events) {
      if (event.kind === 'recap') this.beginStage('print_result', this.#lines);
      else if (event.kind === 'host') this.#queue(() => this.#db.insertInto('task_ansible_host').values({ task_id, project_id, ...event.counts, created: now() }).execute().then(() => {}));
      else this.#queue(() => this.#db.insertInto('task_ansible_error').values({ task_id, project_id, ...event.failure, created: now() }).execute().then(() => {}));
    }
  }

  async #endStage(lastLine: number): Promise<void> {
    const stage = this.#stage;
    if (!stage) return;
    this.#stage = null;
    const hasLines = lastLine >= stage.firstLine;
    if (hasLines) await this.#flushOutput();
    await this.#db.updateTable('task_stage').set({
      end: now(),
      start_output_id: hasLines ? await this.#outputIdOfLine(stage.firstLine) : null,
      end_output_id: hasLines ? await this.#outputIdOfLine(lastLine) : null,
    }).where('id', '=', stage.id).execute();
  }

  /** The `task_output.id` of the task's n-th line (1-based). */
  async #outputIdOfLine(n: number): Promise<number | null> {
    const row = await this.#db.selectFrom('task_output').select('id').where('task_id', '=', this.#task.id)
      .orderBy('id').limit(1).offset(n - 1).executeTakeFirst();
    return row ? Number(row.id) : null;
  }

  #queue(step: () => Promise<void>): void {
    this.#work = this.#work.then(async () => {
      if (this.#failed) return;
      try {
        await step();
      } catch (err) {
        this.#failed = true;
        console.warn(`[engine] task ${this.#task.id}: summary not stored: ${(err as Error).message}`);
      }
    });
  }
}

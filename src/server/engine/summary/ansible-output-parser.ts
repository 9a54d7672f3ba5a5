/** One host's line of a PLAY RECAP. */
export interface RecapCounts {
  host: string;
  ok: number;
  changed: number;
  unreachable: number;
  failed: number;
  skipped: number;
  rescued: number;
  ignored: number;
}

/** A task that failed or could not reach its host, with Ansible's message. */
export interface TaskFailure {
  host: string;
  task: string;
  error: string;
}

export type SummaryEvent =
  | { kind: 'recap' }
  | { kind: 'host'; counts: RecapCounts }
  | { kind: 'failure'; failure: TaskFailure };

/** Longest error message kept; Ansible can print whole command outputs as `msg`. */
const MAX_ERROR_CHARS = 4000;

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const TASK_HEADER = /^(?:TASK|RUNNING HANDLER) \[(.*)\]/;
const PLAY_HEADER = /^PLAY \[/;
const RECAP_HEADER = /^PLAY RECAP \*/;
const RECAP_LINE = /^(\S+)\s+:\s+ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)(?:\s+skipped=(\d+))?(?:\s+rescued=(\d+))?(?:\s+ignored=(\d+))?/;
const FATAL = /^fatal: \[([^\]]+)\]: (?:FAILED|UNREACHABLE)! => (.*)$/;
const FAILED_ITEM = /^failed: \[([^\]]+)\] \(item=.*?\) => (.*)$/;
const IGNORING = /^\.\.\.ignoring\s*$/;

/**
 * Reads ansible-playbook's default output one line at a time, as it streams, and tells what a
 * line completed: the recap began, a recap host line, or a failed/unreachable task. A failure is
 * told on the line after it, because `...ignoring` there means it did not count.
 * @example const p = new AnsibleOutputParser(); for (const line of lines) handle(p.read(line)); handle(p.end());
 */
export class AnsibleOutputParser {
  #task = '';
  #inRecap = false;
  #pending: TaskFailure | null = null;

  read(raw: string): SummaryEvent[] {
    const line = raw.replace(ANSI, '').trimEnd();
    if (IGNORING.test(line)) {
      this.#pending = null;
      return [];
    }
    const events = this.end();
    const header = TASK_HEADER.exec(line);
    if (header) {
      this.#task = header[1]!;
      this.#inRecap = false;
    } else if (RECAP_HEADER.test(line)) {
      this.#inRecap = true;
      events.push({ kind: 'recap' });
    } else if (PLAY_HEADER.test(line)) {
      this.#inRecap = false;
    } else if (this.#inRecap) {
      const counts = recapCounts(line);
      if (counts) events.push({ kind: 'host', counts });
    } else {
      const failed = FATAL.exec(line) ?? FAILED_ITEM.exec(line);
      if (failed) this.#pending = { host: hostName(failed[1]!), task: this.#task, error: messageOf(failed[2]!) };
    }
    return events;
  }

  /** What the last line left open (a failure not yet confirmed by the next line). */
  end(): SummaryEvent[] {
    const pending = this.#pending;
    this.#pending = null;
    return pending ? [{ kind: 'failure', failure: pending }] : [];
  }
}

function recapCounts(line: string): RecapCounts | null {
  const m = RECAP_LINE.exec(line);
  if (!m) return null;
  const n = (i: number) => Number(m[i] ?? 0);
  return { host: m[1]!, ok: n(2), changed: n(3), unreachable: n(4), failed: n(5), skipped: n(6), rescued: n(7), ignored: n(8) };
}

/** `web1 -> db1` (a delegated task) names the inventory host first. */
function hostName(text: string): string {
  return text.split(' -> ')[0]!.trim();
}

/** The result's `msg` (or what explains the failure best); the raw text when it is not JSON. */
function messageOf(resultText: string): string {
  let message = resultText.trim();
  try {
    const result = JSON.parse(resultText) as Record<string, unknown>;
    const best = result.msg ?? result.reason ?? result.stderr ?? result.module_stderr;
    if (best !== undefined && best !== '') message = typeof best === 'string' ? best : JSON.stringify(best);
  } catch {
    // multi-line or non-JSON results (other callbacks) keep their first line as written
  }
  return message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)}…` : message;
}

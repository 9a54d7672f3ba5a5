import { badRequest } from '../../http/errors.ts';
import { filesReadByLimit, limitArgument } from './ansible-host-patterns.ts';

/**
 * Launch-time rule: ansible-playbook opens every `@path` part of its `--limit` and prints the
 * lines it cannot match as hosts, so only someone who may edit the template may name a file.
 * The parts are found as ansible finds them (`,`, else `:` and whitespace), in the very value
 * the engine will pass.
 * @example refuseLimitReadingFiles(['localhost:@/etc/passwd'], false) // throws 400
 */
export function refuseLimitReadingFiles(limit: string[], mayEditTemplate: boolean): void {
  if (mayEditTemplate || !filesReadByLimit(limitArgument(limit)).length) return;
  throw badRequest('limit: a host pattern must not start with "@" (ansible reads it as a file on the server)');
}

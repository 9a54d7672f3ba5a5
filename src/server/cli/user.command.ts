import type { Config } from '../config/config.ts';

/** `signalbox user add|change-by-login|change-by-email|delete|get|list`. */
export async function runUserCommand(_config: Config, args: string[]): Promise<number> {
  console.error(`user ${args[0] ?? ''}: not available yet`);
  return 2;
}

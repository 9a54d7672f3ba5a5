import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR } from './paths.ts';

/** The package version, reported by /api/info and `signalbox version`. */
export const VERSION: string = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')).version;

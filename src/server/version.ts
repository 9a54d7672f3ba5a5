import { readFileSync } from 'node:fs';

/** The package version, reported by /api/info and `signalbox version`. */
export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

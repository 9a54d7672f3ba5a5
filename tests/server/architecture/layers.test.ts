import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../../../src/server/', import.meta.url));
const DOMAIN = join(SERVER, 'domain');
const ENGINE = join(SERVER, 'engine');

/** Every .ts file under `dir`. */
function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The files of this tree that `file` imports; `withTypes` counts `import type` too. */
function localImports(file: string, withTypes: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  const statements = [...text.matchAll(/^\s*(?:import|export)\b(\s+type\b)?[^;'"(]*?(?:\bfrom\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm)]
    .filter((m) => withTypes || !m[1])
    .map((m) => m[2]!);
  const dynamic = [...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return [...statements, ...dynamic].map((specifier) => resolve(dirname(file), specifier));
}

/**
 * The chains of imports that lead from a domain file into the engine, through any file
 * outside the engine: the engine builds on the domain, never the other way round. A domain
 * file's own imports count whatever they bring; beyond it only code that runs (a type that
 * deps.ts names from metrics, say, is gone once compiled): an outer module that merely
 * names an engine type does not make the domain load the engine.
 */
function pathsIntoEngine(): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): void => {
    if (file.startsWith(ENGINE)) {
      found.push([...chain, file].map((f) => relative(SERVER, f)).join(' -> '));
      return;
    }
    const direct = chain.length === 0;
    const key = `${direct}:${file}`;
    if (seen.has(key) || !file.startsWith(SERVER)) return;
    seen.add(key);
    for (const target of localImports(file, direct)) walk(target, [...chain, file]);
  };
  for (const file of sourcesIn(DOMAIN)) walk(file, []);
  return found;
}

describe('layers', () => {
  it('finds the imports it looks for', () => {
    const engineFile = join(ENGINE, 'engine.ts');
    expect(localImports(engineFile, true).some((target) => target.startsWith(DOMAIN))).toBe(true);
    expect(localImports(join(SERVER, 'deps.ts'), true)).toContain(join(SERVER, 'metrics/metrics.ts'));
    expect(localImports(join(SERVER, 'deps.ts'), false)).not.toContain(join(SERVER, 'metrics/metrics.ts'));
  });

  it('the domain imports nothing from the engine, directly or through another module', () => {
    expect(pathsIntoEngine()).toEqual([]);
  });
});

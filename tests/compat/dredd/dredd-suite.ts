import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { SEMAPHORE_DOCUMENTS, semaphoreDocumentPath, type SemaphoreDocument } from '../../contract/openapi-spec.ts';
import { runDredd, summary } from './run-dredd.ts';
import { DREDD_EXCEPTIONS } from './exceptions.ts';

/**
 * Semaphore's own API test suite against Signalbox, on each database: every transaction its
 * hooks run passes, but those excepted for a reason (exceptions.ts). Prints the counts.
 */
export function describeDreddSuite(document: SemaphoreDocument): void {
  const path = semaphoreDocumentPath(document);
  const { label, file } = SEMAPHORE_DOCUMENTS[document];
  const exceptions = DREDD_EXCEPTIONS[document];
  for (const dialect of DIALECTS) {
    describe.skipIf(!path)(`Semaphore's Dredd suite with ${file}, ${label}'s document (${dialect})`, () => {
      it('passes every transaction Semaphore\'s hooks run, but the excepted ones', async () => {
        const { results, output } = await runDredd(document, path!, dialect);
        console.log(`Semaphore's Dredd suite, ${label}'s document, ${dialect}: ${summary(results, exceptions)}`);
        const failed = results.filter((r) => r.status === 'fail');
        const unexpected = failed.filter((r) => !exceptions.some((e) => e.name === r.name));
        expect(unexpected.map((r) => `${r.name}: ${r.message.slice(0, 300)}`), output.slice(-4000)).toEqual([]);
        // an exception that no longer fails is stale: it must go (unless it depends on the minute)
        const stale = exceptions.filter((e) => !e.either && !failed.some((r) => r.name === e.name));
        expect(stale.map((e) => e.name)).toEqual([]);
        expect(results.filter((r) => r.status === 'pass').length).toBeGreaterThan(50);
      }, 600_000);
    });
  }
}

/// <reference types="astro/client" />
import type { RunnerApi } from './server/host/runner-api-client.ts';
import type { ClientFacts } from './server/lib/client-facts.ts';

declare global {
  namespace App {
    interface Locals {
      /** the runner API, in-process or remote, handed over by the host server */
      runnerApi: RunnerApi;
      /** the browser's address and scheme as the host server worked them out (trusted proxies) */
      client: ClientFacts;
      /** SEMAPHORE_WEB_ROOT, the other origin our own pages may post from */
      webRoot: string;
    }
  }
}

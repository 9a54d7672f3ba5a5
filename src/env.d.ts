/// <reference types="astro/client" />
import type { RunnerApi } from './server/host/runner-api-client.ts';

declare global {
  namespace App {
    interface Locals {
      /** the runner API, in-process or remote, handed over by the host server */
      runnerApi: RunnerApi;
    }
  }
}

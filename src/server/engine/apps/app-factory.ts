import type { App } from './app.ts';
import { ansibleApp } from './ansible.ts';
import { terraformApp } from './terraform.ts';
import { shellApp } from './shell.ts';

/**
 * The app that runs a template, keyed on `template.app` (Semaphore's AppFactory seam).
 * Unknown ids run as custom shell-type apps whose command is the id (or `apps.<id>.path`).
 * @example await appFor(template.app).run(ctx);
 */
export function appFor(appId: string): App {
  switch (appId) {
    case '':
    case 'ansible':
      return ansibleApp;
    case 'terraform':
    case 'tofu':
      return terraformApp(appId);
    default:
      return shellApp(appId);
  }
}

import type { TFunction } from 'i18next';
import type { User } from './types.ts';
import type { Theme } from './preferences.ts';

declare global {
  namespace App {
    interface Locals {
      /** the active language code (one of LANGUAGES) for this request */
      lang: string;
      /** this request's translator (one i18next instance per request) */
      t: TFunction;
      /** 'light', 'dark' or '' (follow the system) */
      theme: Theme;
      /** the signed-in user; absent on public pages */
      user?: User;
      /** the signed-in user's stored options (`/api/user/options`); absent on public pages */
      userOptions?: Record<string, string>;
    }
  }
}

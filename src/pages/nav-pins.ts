import type { APIRoute } from 'astro';
import { safeBackPath } from '../console/preferences.ts';
import { storeUserOption, unpinnedItems } from '../console/user-options.ts';

/** Drawer entries that can be unpinned: the paths of a project's drawer entries. */
const ENTRY = /^[a-z]{1,32}$/;

/**
 * `POST /nav-pins` (`unpin=<entry>` or `pin=<entry>`, `back=<path>`): moves a drawer entry to the
 * "More" group or back, stored in the user's `nav.unpinnedItems`, then returns to the page.
 */
export const POST: APIRoute = async (astro) => {
  const form = await astro.request.formData();
  const unpin = String(form.get('unpin') ?? '');
  const pin = String(form.get('pin') ?? '');
  const list = unpinnedItems(astro.locals.userOptions).filter((item) => item !== pin && item !== unpin);
  if (ENTRY.test(unpin)) list.push(unpin);
  await storeUserOption(astro, 'nav.unpinnedItems', JSON.stringify(list));
  return astro.redirect(safeBackPath(String(form.get('back') ?? '')), 303);
};

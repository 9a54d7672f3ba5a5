// The logos of the built-in apps, as the one SVG path (24×24) each tool's mark is drawn with.
// Simple Icons (CC0-1.0, https://simpleicons.org) carries all of them but PowerShell, which it
// dropped: that one comes from Material Design Icons, the set the rest of the console uses.
// Each file is read at build time (`?raw`), so only these seven marks reach the bundle.
import { mdiPowershell } from '@mdi/js';
import ansible from 'simple-icons/icons/ansible.svg?raw';
import terraform from 'simple-icons/icons/terraform.svg?raw';
import opentofu from 'simple-icons/icons/opentofu.svg?raw';
import pulumi from 'simple-icons/icons/pulumi.svg?raw';
import bash from 'simple-icons/icons/gnubash.svg?raw';
import python from 'simple-icons/icons/python.svg?raw';

/** The `d` of the one path a Simple Icons file holds. */
function pathOf(svg: string): string {
  const d = /<path d="([^"]+)"/.exec(svg)?.[1];
  if (!d) throw new Error('a Simple Icons file without its path');
  return d;
}

const LOGOS: Record<string, string> = {
  ansible: pathOf(ansible), terraform: pathOf(terraform), tofu: pathOf(opentofu), pulumi: pathOf(pulumi),
  bash: pathOf(bash), python: pathOf(python), powershell: mdiPowershell,
};

/**
 * The logo path of a built-in app by its id, or undefined for any other app (which shows a letter).
 * @example appLogo('tofu') // 'M…'; appLogo('my-tool') // undefined
 */
export function appLogo(appId: string): string | undefined {
  return Object.hasOwn(LOGOS, appId) ? LOGOS[appId] : undefined;
}

// Browser side of RelativeTime: rewrites every <time data-relative> every 30 s, in the page's
// language, so "a minute ago" does not go stale on a page left open.
import { relativeTimeParts } from '../console/format.ts';

const REFRESH_EVERY_MS = 30_000;

/**
 * Starts refreshing the relative times of the document; returns a stop function.
 * @example startRelativeTimes()
 */
export function startRelativeTimes(): () => void {
  const lang = document.body.dataset.lang ?? 'en';
  const refresh = () => {
    for (const el of document.querySelectorAll<HTMLTimeElement>('time[data-relative]')) {
      const parts = relativeTimeParts(el.dateTime, lang);
      const [relative, absolute] = el.children;
      if (!parts || !relative || !absolute) continue;
      relative.textContent = parts[0];
      absolute.textContent = `(${parts[1]})`;
    }
  };
  const timer = setInterval(refresh, REFRESH_EVERY_MS);
  return () => clearInterval(timer);
}

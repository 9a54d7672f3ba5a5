import { describe, expect, it } from 'vitest';
import { measurePageCss } from './support/css-weight.ts';
import { measurePageJs } from './support/js-weight.ts';
import { look, server, setUpLook, SLOW } from './support/look-world.ts';

// What every page of the console weighs on the wire (what the look files share: support/look-world.ts).
setUpLook();

describe('console weight', () => {
  it('keeps CSS ≤ 25 KB gzip on every page and the history script ≤ 3 KB', async () => {
    const cookie = look.api.cookie;
    for (const [name, path] of look.routes) {
      const { bytes } = await measurePageCss(server.url + path, cookie);
      expect(bytes, name).toBeGreaterThan(5 * 1024);
      expect(bytes, name).toBeLessThanOrEqual(25 * 1024);
    }
    const history = await measurePageJs(`${server.url}/project/${look.projectId}/history`, cookie);
    expect(history.bytes).toBeGreaterThan(0);
    // 2 KB until issue 46: keeping what a person typed across a live update (live-swap.ts) is 0.8 KB of it
    expect(history.bytes).toBeLessThanOrEqual(3 * 1024);
  }, SLOW);
});

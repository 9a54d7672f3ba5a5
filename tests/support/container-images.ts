import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Container images the execution-environment tests run in. There is no registry on the build
 * machines: each image is made here, once per machine, and found again by its tag — a Debian
 * rootfs from `debootstrap --variant=minbase`, imported with `podman import`, then `podman build`
 * on top (apt works inside a build with the host's network). A lock (`flock`) keeps two test
 * files from building at once; the second finds the images made by the first.
 */

/** The Debian release inside the images: its ansible-core differs from the build machines' (bookworm, 2.14). */
const SUITE = 'trixie';
/** Bump when a recipe changes, so machines build the new one. */
const RECIPE = '1';
const ROOTFS_TAG = `localhost/signalbox-test-rootfs:${SUITE}-${RECIPE}`;

/** A marker file the base image has and no build machine does. */
export const IMAGE_MARKER = { path: '/etc/signalbox-test-image', text: 'made for the signalbox executor tests' };

export const TEST_IMAGES = {
  /** minbase + procps + the marker file */
  base: `localhost/signalbox-test-base:${SUITE}-${RECIPE}`,
  /** the base + Debian's ansible-core of the same release */
  ansible: `localhost/signalbox-test-ansible:${SUITE}-${RECIPE}`,
} as const;

const LAYERS: Record<keyof typeof TEST_IMAGES, { from: string; run: string }> = {
  base: { from: ROOTFS_TAG, run: `printf '%s\\n' '${IMAGE_MARKER.text}' > ${IMAGE_MARKER.path}` },
  ansible: {
    from: TEST_IMAGES.base,
    run: 'apt-get update && apt-get install -y --no-install-recommends ansible-core && apt-get clean && rm -rf /var/lib/apt/lists/* /usr/share/doc /usr/share/man',
  },
};

/**
 * True when Podman can run the tests here (podman and debootstrap installed, run as root); else
 * the tests skip with a visible message — except under CI, where it is an error.
 */
export function podmanAvailable(): boolean {
  const missing = ['podman', 'debootstrap'].filter((cmd) => !onPath(cmd));
  if (!missing.length && process.getuid?.() === 0) {
    useTestContainersConf();
    return true;
  }
  const why = missing.length ? `${missing.join(' and ')} not installed (apt-get install podman runc debootstrap)` : 'not root (debootstrap and rootful Podman need it)';
  if (process.env.CI) throw new Error(`the container executor tests need Podman under CI: ${why}`);
  console.warn(`\n*** ${why}: container executor tests are SKIPPED ***\n`);
  return false;
}

/**
 * Podman on the build machines works with runc, the cgroupfs manager and no default ulimits;
 * the tests write that containers.conf and point CONTAINERS_CONF at it (the server's CLI calls
 * inherit it).
 */
export function useTestContainersConf(): string {
  const dir = join(tmpdir(), 'signalbox-test-podman');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'containers.conf');
  const runtime = onPath('runc') ? 'runtime = "runc"\n' : '';
  writeFileSync(file, `[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\n${runtime}`);
  process.env.CONTAINERS_CONF = file;
  return file;
}

/**
 * The tag of a test image, built first when this machine does not have it yet.
 * @example const image = await testImage('ansible');
 */
export async function testImage(kind: keyof typeof TEST_IMAGES): Promise<string> {
  const wanted = TEST_IMAGES[kind];
  if (imageExists(wanted)) return wanted;
  await runLocked(buildScript(kind));
  if (!imageExists(wanted)) throw new Error(`building ${wanted} finished without the image`);
  return wanted;
}

export function imageExists(tag: string): boolean {
  try {
    execFileSync('podman', ['image', 'exists', tag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** What `podman` answers, trimmed; throws with its errors on failure. */
export function podman(...args: string[]): string {
  return execFileSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The build, in order, of what `kind` needs: each step skipped when its image exists (checked under the lock). */
function buildScript(kind: keyof typeof TEST_IMAGES): string {
  const chain: (keyof typeof TEST_IMAGES)[] = kind === 'ansible' ? ['base', 'ansible'] : ['base'];
  const lines = [
    'set -euo pipefail',
    'exists() { podman image exists "$1"; }',
    `if ! exists '${ROOTFS_TAG}'; then`,
    '  root="$(mktemp -d /var/tmp/signalbox-rootfs.XXXXXX)"',
    '  trap \'rm -rf "$root"\' EXIT',
    `  debootstrap --variant=minbase --include=procps ${SUITE} "$root/fs" '${debianMirror()}' > "$root/debootstrap.log" 2>&1 || { tail -n 20 "$root/debootstrap.log" >&2; exit 1; }`,
    '  rm -rf "$root/fs/usr/share/doc" "$root/fs/usr/share/man" "$root/fs/usr/share/locale" "$root/fs/var/lib/apt/lists/"* "$root/fs/var/cache/apt/"*.bin',
    `  tar -C "$root/fs" -c . | podman import --quiet - '${ROOTFS_TAG}' > /dev/null`,
    'fi',
  ];
  for (const step of chain) {
    const { from, run } = LAYERS[step];
    const context = mkdtempSync(join(tmpdir(), `signalbox-image-${step}-`));
    writeFileSync(join(context, 'Containerfile'), `FROM ${from}\nRUN ${run}\n`);
    lines.push(
      `if ! exists '${TEST_IMAGES[step]}'; then`,
      `  podman build --quiet --network=host --tag '${TEST_IMAGES[step]}' '${context}' > /dev/null`,
      'fi',
      `rm -rf '${context}'`,
    );
  }
  return lines.join('\n');
}

/** Runs a build script under the machine-wide lock; rejects with its last error lines. */
function runLocked(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', [join(tmpdir(), 'signalbox-test-images.lock'), 'bash', '-c', script], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`building the test images failed (${code}):\n${errors.slice(-4000)}`))));
  });
}

/** The machine's Debian mirror, as apt has it (deb822 `URIs:` or a one-line `deb` entry). */
function debianMirror(): string {
  const files = ['/etc/apt/sources.list', ...(existsSync('/etc/apt/sources.list.d') ? readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f)) : [])];
  for (const file of files.filter((f) => /\.(list|sources)$/.test(f) && existsSync(f))) {
    const text = readFileSync(file, 'utf8');
    const uri = /^URIs:\s*(\S+\/debian\/?)\s*$/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian\/?)\s/m.exec(text)?.[1];
    if (uri) return uri;
  }
  return 'http://deb.debian.org/debian';
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, command)));
}

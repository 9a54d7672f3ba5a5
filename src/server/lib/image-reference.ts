// Container image references as Docker and Podman parse them: [registry[:port]/]path[:tag][@digest].

const HOST_PART = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const REGISTRY = `${HOST_PART}(?:\\.${HOST_PART})*(?::[0-9]{1,5})?`;
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(?:(${REGISTRY})/)?(${COMPONENT}(?:/${COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);

/** The longest reference the engines accept. */
const MAX_LENGTH = 255;

/**
 * Why `text` is not an image reference, or null when it is one. The grammar keeps anything an
 * engine would read as an option (`-…`) or a second word off its command line.
 * @example imageReferenceProblem('--privileged') // 'is not an image reference such as registry.example.com/team/ansible:2.16'
 */
export function imageReferenceProblem(text: string): string | null {
  if (text.length > MAX_LENGTH) return `is longer than ${MAX_LENGTH} characters`;
  return REFERENCE.test(text) ? null : 'is not an image reference such as registry.example.com/team/ansible:2.16';
}

/**
 * The registry an image is pulled from, as `login` needs it: the first part when it names a
 * host (a dot, a port or `localhost`), else Docker Hub.
 * @example registryOf('quay.io/ansible/awx-ee:latest') // 'quay.io'
 * @example registryOf('alpine:3') // 'docker.io'
 */
export function registryOf(reference: string): string {
  const first = reference.split('/')[0]!;
  if (reference.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')) return first;
  return 'docker.io';
}

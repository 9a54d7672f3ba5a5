import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses the server's outgoing requests may connect to (`SEMAPHORE_OUTGOING_ADDRESSES`):
 * `private` (the default) refuses link-local, cloud metadata, unspecified, multicast and
 * reserved addresses; `public` refuses loopback and private networks as well; `any` refuses nothing.
 */
export type OutgoingAddressPolicy = 'public' | 'private' | 'any';
export const OUTGOING_ADDRESS_POLICIES: readonly OutgoingAddressPolicy[] = ['public', 'private', 'any'];

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0]!, Number(cidr.split('/')[1]), 'ipv6');
  return list;
}

/** Never a destination unless the policy is `any`: no service of ours lives there, instance credentials do. */
const NEVER = blockList(
  // unspecified ("this host"), link-local with the metadata services of AWS, GCP, Azure, OpenStack,
  // Alibaba's metadata service, Azure's wire server, multicast, reserved and broadcast
  ['0.0.0.0/8', '169.254.0.0/16', '100.100.100.200/32', '168.63.129.16/32', '224.0.0.0/4', '240.0.0.0/4'],
  ['::/128', 'fe80::/10', 'fd00:ec2::254/128', 'ff00::/8'],
);

/** Refused under `public`: this machine and private networks. */
const LOCAL = blockList(
  ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '198.18.0.0/15'],
  ['::1/128', 'fc00::/7'],
);

/**
 * Whether `address` (an IP in any spelling Node or DNS gives: `127.0.0.1`, `::1`,
 * `::ffff:7f00:1`, `fe80::1%eth0`) may be connected to under `policy`. An IPv6 address that
 * carries an IPv4 one (mapped `::ffff:0:0/96`, compatible `::/96`, NAT64 `64:ff9b::/96`) is
 * judged as that IPv4 address; anything that is no IP address is refused.
 * @example outgoingAddressAllowed('::ffff:169.254.169.254', 'private') // false
 */
export function outgoingAddressAllowed(address: string, policy: OutgoingAddressPolicy): boolean {
  if (policy === 'any') return true;
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = isIPv4(plain) ? plain : isIPv6(plain) ? embeddedIpv4(plain) : null;
  const [ip, type] = v4 ? [v4, 'ipv4' as const] : [plain, 'ipv6' as const];
  if (!v4 && !isIPv6(plain)) return false;
  if (NEVER.check(ip, type)) return false;
  return policy === 'private' || !LOCAL.check(ip, type);
}

/** The IPv4 address an IPv6 one carries in its last 32 bits, or null when it carries none. */
function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  const head = groups.slice(0, 6);
  const mapped = head.slice(0, 5).every((g) => g === 0) && head[5] === 0xffff;
  const compatible = head.every((g) => g === 0) && (groups[6] !== 0 || groups[7]! > 1);
  const nat64 = head[0] === 0x64 && head[1] === 0xff9b && head.slice(2).every((g) => g === 0);
  if (!mapped && !compatible && !nat64) return null;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left, right] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const head = parse(left);
  if (right === undefined) return head;
  const tail = parse(right);
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SLAPD = '/usr/sbin/slapd';
export const LDAP_BASE = 'dc=signalbox,dc=test';
export const LDAP_SERVICE = { dn: `cn=service,${LDAP_BASE}`, password: 'service-bind-password-71c3' };

export interface LdapPerson { uid: string; cn: string; mail: string; password: string; groups: string[] }

export interface Slapd {
  /** host:port on loopback */
  server: string;
  stop: () => Promise<void>;
}

/** True when slapd is installed; without it and outside CI the LDAP tests skip with a message. */
export function slapdAvailable(): boolean {
  if (existsSync(SLAPD)) return true;
  if (process.env.CI) throw new Error('slapd is required under CI (apt-get install slapd ldap-utils)');
  console.warn('\n*** slapd is not installed: LDAP tests are SKIPPED (apt-get install slapd ldap-utils) ***\n');
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function config(dir: string): string {
  return [
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${join(dir, 'slapd.pid')}`,
    'database mdb',
    `suffix "${LDAP_BASE}"`,
    `rootdn "${LDAP_SERVICE.dn}"`,
    `rootpw ${LDAP_SERVICE.password}`,
    `directory ${join(dir, 'data')}`,
    'access to attrs=userPassword by self write by anonymous auth by * none',
    'access to * by * read',
    '',
  ].join('\n');
}

function entries(people: LdapPerson[]): string {
  const blocks = [
    `dn: ${LDAP_BASE}\nobjectClass: dcObject\nobjectClass: organization\ndc: signalbox\no: Signalbox test`,
    `dn: ou=people,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: groups`,
    ...people.map((p) => `dn: uid=${p.uid},ou=people,${LDAP_BASE}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.cn}\nsn: ${p.cn}\nmail: ${p.mail}\nuserPassword: ${p.password}`),
  ];
  const groups = [...new Set(people.flatMap((p) => p.groups))];
  for (const group of groups) {
    const members = people.filter((p) => p.groups.includes(group)).map((p) => `member: uid=${p.uid},ou=people,${LDAP_BASE}`);
    blocks.push(`dn: cn=${group},ou=groups,${LDAP_BASE}\nobjectClass: groupOfNames\ncn: ${group}\n${members.join('\n')}`);
  }
  return `${blocks.join('\n\n')}\n`;
}

/**
 * A real OpenLDAP server on a free loopback port, with its own config and data directory,
 * loaded with the people (and their groupOfNames groups) before it starts.
 */
export async function startSlapd(people: LdapPerson[]): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-slapd-'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'slapd.conf'), config(dir));
  writeFileSync(join(dir, 'data.ldif'), entries(people));
  execFileSync('/usr/sbin/slapadd', ['-f', join(dir, 'slapd.conf'), '-l', join(dir, 'data.ldif')], { stdio: 'pipe' });
  const port = await freePort();
  const child: ChildProcess = spawn(SLAPD, ['-d', '0', '-f', join(dir, 'slapd.conf'), '-h', `ldap://127.0.0.1:${port}/`], { stdio: 'ignore' });
  await waitForPort(port);
  return {
    server: `127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`slapd did not start on port ${port}`);
}

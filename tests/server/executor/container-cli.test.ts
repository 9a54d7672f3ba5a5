import { describe, expect, it } from 'vitest';
import { containerInstance, execArgs, loginArgs, removeArgs, runArgs, taskContainerName, taskIdOfContainer, type ContainerSpec } from '../../../src/server/engine/container/container-cli.ts';
import { containerPlanFor, fileOwnerOf } from '../../../src/server/engine/container/container-plan.ts';
import { imageReferenceProblem, registryOf } from '../../../src/server/lib/image-reference.ts';
import type { TaskDetails } from '../../../src/server/engine/run/task-details.ts';

const spec: ContainerSpec = {
  name: 'signalbox-abc-task-7', image: 'registry.example.com:5000/team/ansible:2.19',
  labels: { 'io.signalbox.task': '7' }, mounts: [{ path: '/tmp/semaphore/task_7', readOnly: false }, { path: '/tmp/semaphore/secrets_7', readOnly: true }],
  network: 'none', cpus: '1.5', memory: '512m', user: '1000:1000',
};

describe('container command lines', () => {
  it('starts an idle container with the limits, labels and mounts, the image after "--"', () => {
    expect(runArgs(spec)).toEqual([
      'run', '--detach', '--rm', '--name', 'signalbox-abc-task-7', '--pull=never', '--label', 'io.signalbox.task=7',
      '--network=none', '--cpus=1.5', '--memory=512m', '--user=1000:1000',
      '--volume=/tmp/semaphore/task_7:/tmp/semaphore/task_7:rw', '--volume=/tmp/semaphore/secrets_7:/tmp/semaphore/secrets_7:ro',
      '--init=false', '--entrypoint=sleep', '--', 'registry.example.com:5000/team/ansible:2.19', '2147483647',
    ]);
    // the engine's default network is left to the engine
    expect(runArgs({ ...spec, network: 'bridge', cpus: null, memory: null, user: null }).some((a) => /^--(network|cpus|memory|user)/.test(a))).toBe(false);
  });

  it('runs a command with its environment from a file and by name, never as values', () => {
    expect(execArgs('ctr', { cwd: '/w', envFile: '/p/.env-1', envNames: ['MULTI'] }, 'bash', ['--', 'run.sh', '-x'])).toEqual([
      'exec', '--workdir=/w', '--env-file=/p/.env-1', '--env=MULTI', 'ctr', 'bash', '--', 'run.sh', '-x',
    ]);
  });

  it('signs in with the password on stdin, a user that looks like an option staying a value', () => {
    expect(loginArgs('quay.io', '-bob')).toEqual(['login', '--username=-bob', '--password-stdin', 'quay.io']);
  });

  it('removes at once on both engines', () => {
    expect(removeArgs('podman', 'c')).toEqual(['rm', '--force', '--time=0', 'c']);
    expect(removeArgs('docker', 'c')).toEqual(['rm', '--force', 'c']);
  });

  it('names containers by installation and task, and reads the task back', () => {
    const a = containerInstance('/tmp/semaphore');
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(containerInstance('/tmp/other')).not.toBe(a);
    expect(taskIdOfContainer(a, taskContainerName(a, 42))).toBe(42);
    expect(taskIdOfContainer(containerInstance('/tmp/other'), taskContainerName(a, 42))).toBeNull();
  });
});

describe('image references', () => {
  it.each([
    'alpine', 'alpine:3.20', 'quay.io/ansible/awx-ee:24.6.1', 'localhost/signalbox-test-base:trixie-1', 'registry.example.com:5000/a/b/c:v1',
    `debian@sha256:${'a'.repeat(64)}`, 'ghcr.io/org/image:1.0@sha256:' + 'b'.repeat(64),
  ])('accepts %s', (ref) => expect(imageReferenceProblem(ref)).toBeNull());

  it.each(['--privileged', '-v/:/host', 'alpine 3', 'Alpine', 'alpine:', 'alpine;rm', '', 'a'.repeat(256), 'alpine\n--rm'])('refuses %j', (ref) => {
    expect(imageReferenceProblem(ref)).not.toBeNull();
  });

  it('finds the registry to sign in to', () => {
    expect(registryOf('quay.io/ansible/awx-ee:latest')).toBe('quay.io');
    expect(registryOf('localhost:5000/x')).toBe('localhost:5000');
    expect(registryOf('library/alpine')).toBe('docker.io');
    expect(registryOf('alpine:3')).toBe('docker.io');
  });
});

describe('which container a task runs in', () => {
  const details = (template: Record<string, unknown>, project: Record<string, unknown> = {}) => ({
    template: { executor_image: null, executor_network: null, executor_cpus: null, executor_memory: null, executor_user: null, executor_pull: null, ...template },
    project: { executor_image: null, ...project },
    registryKey: null,
  }) as unknown as TaskDetails;
  const settings = { engine: 'podman' as const, image: '', pull: 'if-missing' as const };

  it('runs on the host when no image is named anywhere', () => {
    expect(containerPlanFor(details({}), settings)).toBeNull();
  });

  it('takes the template image, else the project one, else the server one', () => {
    expect(containerPlanFor(details({ executor_image: 'a:1' }, { executor_image: 'b:1' }), { ...settings, image: 'c:1' })?.image).toBe('a:1');
    expect(containerPlanFor(details({}, { executor_image: 'b:1' }), { ...settings, image: 'c:1' })?.image).toBe('b:1');
    expect(containerPlanFor(details({}), { ...settings, image: 'c:1' })).toMatchObject({ image: 'c:1', engine: 'podman', pull: 'if-missing', network: 'bridge' });
  });

  it('checks stored values again: nothing reaches the CLI as an option', () => {
    expect(() => containerPlanFor(details({ executor_image: '--privileged' }), settings)).toThrow(/not an image reference/);
    expect(() => containerPlanFor(details({ executor_image: 'a:1', executor_user: '--privileged' }), settings)).toThrow(/executor_user/);
    expect(() => containerPlanFor(details({ executor_image: 'a:1', executor_memory: '1g --privileged' }), settings)).toThrow(/executor_memory/);
    expect(() => containerPlanFor(details({ executor_image: 'a:1', executor_network: 'container:other' }), settings)).toThrow(/network/);
    expect(containerPlanFor(details({ executor_image: 'a:1', executor_cpus: '0.5', executor_pull: 'never' }), settings)).toMatchObject({ cpus: '0.5', pull: 'never' });
  });

  it('hands the files to a numeric container user only', () => {
    expect(fileOwnerOf('1000:1001')).toEqual({ uid: 1000, gid: 1001 });
    expect(fileOwnerOf('1000')).toEqual({ uid: 1000, gid: 1000 });
    expect(fileOwnerOf('ansible')).toBeNull();
    expect(fileOwnerOf(null)).toBeNull();
  });
});

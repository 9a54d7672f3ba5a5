import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, hasStatus, type EngineServer } from '../../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { IMAGE_MARKER, imageExists, podman, podmanAvailable, testImage } from '../../support/container-images.ts';
import { containerNameOf, containerState, hostCommandLines, waitUntil } from '../../support/task-containers.ts';
import { startFakeRegistry } from '../../support/fake-registry.ts';

const runWithPodman = podmanAvailable() ? describe : describe.skip;

/** Waits for `go` in the task's HOME (its own folder, which the test can reach from the host). */
const WAIT_FOR_GO = 'while [ ! -f "$HOME/go" ]; do sleep 0.2; done';
const VAULT_PASSWORD = 'vault-pass-5e7c';

const SCRIPTS: Record<string, string> = {
  'probe.sh': [
    `cat ${IMAGE_MARKER.path}`,
    'echo "HOME=$HOME"',
    'echo "PATH=$PATH"',
    'echo "GROUP_ENV=$GROUP_ENV"',
    'echo "SECRET_ENV=$SECRET_ENV"',
    'echo "ENV_NAMES=$(env | cut -d= -f1 | sort | tr "\\n" " ")"',
    'processes="$(ps -eo comm=)"',
    'echo "PROCESSES=$(echo "$processes" | sort -u | tr "\\n" " ")"',
    'echo "PARENT=$(ls "$(dirname "$HOME")" | tr "\\n" " ")"',
  ].join('\n'),
  'hold.sh': `echo "MINE=$HOME"\necho "secret $SECRET_ENV" > "$HOME/mine.txt"\necho ready\n${WAIT_FOR_GO}\necho "got $SECRET_ENV and $api_token"\n`,
  'peek.sh': [
    'for a in "$@"; do case "$a" in other=*) other="${a#other=}" ;; esac; done',
    'ls "$other" >/dev/null 2>&1 && echo "SAW-OTHER-DIR" || echo "no other dir"',
    'cat "$other/mine.txt" 2>/dev/null && echo "READ-OTHER-FILE" || echo "no other file"',
    'echo "ARGS=$(ps -eo args= | tr "\\n" "|")"',
  ].join('\n'),
  'term.sh': `trap 'echo "got TERM"; exit 143' TERM\necho waiting\nwhile :; do sleep 0.2; done\n`,
  'stubborn.sh': `trap 'echo "ignoring TERM"' TERM\necho stubborn\nwhile :; do sleep 0.2; done\n`,
  'fail.sh': 'echo "about to fail"\nexit 3\n',
  'limits.sh': [
    'echo "MEM=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes)"',
    'echo "CPU=$(cat /sys/fs/cgroup/cpu.max 2>/dev/null || echo "$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us) $(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)")"',
    'echo "IDS=$(id -u):$(id -g)"',
    'echo "IFACES=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " " | sort | tr "\\n" " ")"',
    'echo mine > "$HOME/written" && echo "WROTE-HOME"',
    'cat limits.sh > /dev/null && echo "READ-CHECKOUT"',
  ].join('\n'),
  'outputs.sh': [
    `printf '%s' '{"image_tag": "7.1.0"}' > "$SEMAPHORE_OUTPUTS_FILE"`,
    'echo "JWT_PARTS=$(printf "%s\\n" "$SEMAPHORE_JWT" | awk -F. "{ print NF }")"',
  ].join('\n'),
  'vaulted.yml': `- hosts: all
  gather_facts: false
  vars_files: [vault-vars.yml]
  tasks:
    - name: a value the vault password opens
      debug:
        msg: "opened={{ vaulted_word }}"
`,
  'site.yml': `- hosts: all
  gather_facts: false
  tasks:
    - name: version
      debug:
        msg: "ansible-core {{ ansible_version.full }}"
    - name: read the image's marker
      command: cat ${IMAGE_MARKER.path}
      register: marker
      changed_when: false
    - name: show it
      debug:
        msg: "marker={{ marker.stdout }}"
    - name: the collection installed for this task
      include_role:
        name: signalbox.hello.greet
`,
  'collections/requirements.yml': 'collections:\n  - name: vendor/signalbox-hello-1.0.0.tar.gz\n    type: file\n',
  'infra/main.tf': '# nothing\n',
};

runWithPodman('tasks in containers (podman, sqlite)', () => {
  let e: EngineServer;
  let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let base: string;
  let ansibleImage: string;
  let baseImage: string;
  let repoPath: string;
  const hostOnly = 'server-only-value-5c1e';

  const run = async (templateId: number, body: Record<string, unknown> = {}) => {
    const res = await e.s.call('POST', `/api/project/${fx.project.id}/tasks`, { template_id: templateId, ...body }, e.admin);
    expect(res.status, res.text).toBe(201);
    return (res.body as { id: number }).id;
  };
  const template = (name: string, playbook: string, fields: Record<string, unknown> = {}) => insertTemplate(e.s.deps.db, fx.project.id, {
    name, playbook, repository_id: fx.repository.id, environment_id: fx.environment.id, executor_image: baseImage, executor_network: 'none', ...fields,
  });
  const plain = (lines: string[]) => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
  const lineOf = (lines: string[], prefix: string) => plain(lines).find((l) => l.startsWith(prefix))?.slice(prefix.length) ?? '';
  const waitForLine = (id: number, line: string) => waitUntil(`task ${id} prints ${line}`, async () => plain(await taskLog(e.s.deps.db, id)).includes(line), 120_000);
  const taskDirOf = (id: number) => join(e.s.config.tmp_path, `task_${id}`);

  beforeAll(async () => {
    [baseImage, ansibleImage] = [await testImage('base'), await testImage('ansible')];
    process.env.SIGNALBOX_TEST_SERVER_ONLY = hostOnly;
    e = await startEngineServer('sqlite', { SEMAPHORE_JWT_ENABLED: 'true' });
    repoPath = join(e.s.tmp, 'repo');
    mkdirSync(join(repoPath, 'vendor'), { recursive: true });
    buildCollection(join(e.s.tmp, 'collection'), join(repoPath, 'vendor'));
    mkdirSync(join(repoPath, 'bin'));
    copyFileSync(join(import.meta.dirname, '../../fakes/terraform'), join(repoPath, 'bin/terraform'));
    chmodSync(join(repoPath, 'bin/terraform'), 0o755);
    createGitRepo(repoPath, { ...SCRIPTS, 'vault-vars.yml': vaultedVars('vaulted_word', 'open-sesame', VAULT_PASSWORD) }, 'scripts, playbooks and a collection');
    fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repoPath}`, playbook: 'probe.sh' });
    base = `/api/project/${fx.project.id}`;
    await e.s.deps.db.updateTable('environment').set({ env: JSON.stringify({ GROUP_ENV: 'group-value' }) }).where('id', '=', fx.environment.id).execute();
    await insertEnvironmentSecret(e.s.deps.db, e.s.deps.secrets, fx.environment.id, fx.project.id, 'env', 'SECRET_ENV', 'env-secret-7d2a');
  }, 30 * 60_000);
  afterAll(async () => {
    delete process.env.SIGNALBOX_TEST_SERVER_ONLY;
    await e?.close();
  });

  it('runs a bash task inside the image: its files, the task environment only, its processes only, then the container goes', async () => {
    const tpl = await template('Probe', 'probe.sh');
    const id = await run(tpl.id);
    const done = await waitForTask(e.s.deps.db, id, undefined, 120_000);
    const log = await taskLog(e.s.deps.db, id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(existsSync(IMAGE_MARKER.path)).toBe(false);
    expect(log).toContain(IMAGE_MARKER.text);
    expect(log).toContain(`Running in a container of ${baseImage} (podman, network none)`);
    expect(lineOf(log, 'HOME=')).toBe(taskDirOf(id));
    // the image's PATH, not the server's (which holds the test's own tools)
    expect(lineOf(log, 'PATH=')).toBe('/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    expect(log).toContain('GROUP_ENV=group-value');
    expect(log).toContain('SECRET_ENV=********');
    const names = lineOf(log, 'ENV_NAMES=').split(' ').filter(Boolean);
    expect(names).toEqual(expect.arrayContaining(['GROUP_ENV', 'SECRET_ENV', 'SEMAPHORE_TASK_DETAILS_ID', 'HOME']));
    for (const serverName of ['SIGNALBOX_TEST_SERVER_ONLY', 'CONTAINERS_CONF', 'NODE_OPTIONS', 'VITEST', 'TMPDIR']) expect(names).not.toContain(serverName);
    expect(log.join('\n')).not.toContain(hostOnly);
    // sleep is the container's idle PID 1; bash runs the script; ps is ps
    expect(lineOf(log, 'PROCESSES=').split(' ').filter(Boolean).sort()).toEqual(['bash', 'ps', 'sleep']);
    const parent = lineOf(log, 'PARENT=').split(' ').filter(Boolean);
    expect(parent).toContain(`task_${id}`);
    expect(parent.filter((name) => name.startsWith('task_'))).toEqual([`task_${id}`]);
    expect(done.executor_image).toBe(baseImage);
    const shown = await e.s.call('GET', `${base}/tasks/${id}`, undefined, e.admin);
    expect(shown.body.executor_image).toBe(baseImage);
    expect(containerState(containerNameOf(e.s.config.tmp_path, id))).toBeNull();
  }, 180_000);

  it("runs ansible-playbook of the image's ansible-core against localhost inside, with the recap, and installs the galaxy collection into the task's own galaxy folder", async () => {
    const hostVersion = /core ([\d.]+)/.exec(execFileSync('ansible-playbook', ['--version'], { encoding: 'utf8' }))![1];
    const imageVersion = /core ([\d.]+)/.exec(podman('run', '--rm', ansibleImage, 'ansible-playbook', '--version'))![1];
    expect(imageVersion, 'the test image must carry another ansible-core than the machine').not.toBe(hostVersion);
    const tpl = await insertTemplate(e.s.deps.db, fx.project.id, {
      name: 'Playbook', app: 'ansible', playbook: 'site.yml', repository_id: fx.repository.id, inventory_id: fx.inventory.id, executor_image: ansibleImage,
    });
    for (const attempt of [1, 2]) {
      const id = await run(tpl.id);
      const done = await waitForTask(e.s.deps.db, id, undefined, 240_000);
      const log = plain(await taskLog(e.s.deps.db, id)).join('\n');
      expect(done.status, log).toBe('success');
      expect(log).toContain(`"msg": "ansible-core ${imageVersion}"`);
      expect(log).not.toContain(`ansible-core ${hostVersion}`);
      expect(log).toContain(`"msg": "marker=${IMAGE_MARKER.text}"`);
      expect(log).toContain('"msg": "hello from a collection"');
      // every run installs into its own galaxy folder: nothing is shared, nothing skipped because of an earlier run
      expect(log, `run ${attempt}`).toMatch(/signalbox\.hello:1\.0\.0 was installed successfully/);
      expect(log).not.toContain('has not changed');
      const hosts = (await e.s.call('GET', `${base}/tasks/${id}/ansible/hosts`, undefined, e.admin)).body as { host: string; ok: number; failed: number }[];
      expect(hosts).toEqual([expect.objectContaining({ host: 'localhost', ok: 5, failed: 0 })]);
    }
    expect(existsSync(join(repoPath, 'collections/requirements.yml.collection.md5'))).toBe(false);
  }, 600_000);

  it('keeps secrets out of the container configuration and out of every command line on the machine', async () => {
    const tpl = await template('Hold', 'hold.sh', { survey_vars: JSON.stringify([{ name: 'api_token', title: 'Token', type: 'secret', required: true }]) });
    const id = await run(tpl.id, { secret: JSON.stringify({ api_token: 'survey-secret-41b9' }) });
    await waitForLine(id, 'ready');
    const name = containerNameOf(e.s.config.tmp_path, id);
    const inspected = podman('container', 'inspect', name);
    expect(JSON.parse(inspected)[0].Config.Labels).toMatchObject({ 'io.signalbox.task': String(id), 'io.signalbox.project': String(fx.project.id), 'io.signalbox.template': String(tpl.id) });
    const commandLines = hostCommandLines();
    expect(commandLines).toContain(name);
    for (const secret of ['env-secret-7d2a', 'survey-secret-41b9']) {
      expect(inspected).not.toContain(secret);
      expect(commandLines).not.toContain(secret);
    }
    writeFileSync(join(taskDirOf(id), 'go'), '');
    const done = await waitForTask(e.s.deps.db, id, undefined, 120_000);
    expect(done.status).toBe('success');
    expect(await taskLog(e.s.deps.db, id)).toContain('got ******** and ********');
  }, 180_000);

  it("runs two tasks at once, neither seeing the other's files or processes", async () => {
    const holder = await template('Holder', 'hold.sh', { survey_vars: JSON.stringify([{ name: 'api_token', type: 'secret' }]) });
    const peeker = await template('Peeker', 'peek.sh');
    const first = await run(holder.id);
    await waitForLine(first, 'ready');
    const second = await run(peeker.id, { environment: JSON.stringify({ other: taskDirOf(first) }) });
    const done = await waitForTask(e.s.deps.db, second, undefined, 120_000);
    const log = await taskLog(e.s.deps.db, second);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log).toContain('no other dir');
    expect(log).toContain('no other file');
    expect(log.join('\n')).not.toContain('env-secret');
    const processes = lineOf(log, 'ARGS=').split('|').filter(Boolean);
    expect(processes.some((p) => p.includes('peek.sh'))).toBe(true);
    expect(processes.some((p) => p.includes('hold.sh'))).toBe(false);
    expect((await e.s.deps.db.selectFrom('task').select('status').where('id', '=', first).executeTakeFirstOrThrow()).status).toBe('running');
    writeFileSync(join(taskDirOf(first), 'go'), '');
    expect((await waitForTask(e.s.deps.db, first, undefined, 120_000)).status).toBe('success');
  }, 240_000);

  it('stops a task: SIGTERM reaches its processes inside, then the container is gone', async () => {
    const tpl = await template('Term', 'term.sh');
    const id = await run(tpl.id);
    await waitForLine(id, 'waiting');
    const name = containerNameOf(e.s.config.tmp_path, id);
    expect(containerState(name)).toBe('running');
    expect((await e.s.call('POST', `${base}/tasks/${id}/stop`, {}, e.admin)).status).toBe(204);
    const done = await waitForTask(e.s.deps.db, id, undefined, 60_000);
    expect(done.status).toBe('stopped');
    expect(await taskLog(e.s.deps.db, id)).toContain('got TERM');
    expect(containerState(name)).toBeNull();
  }, 180_000);

  it('kills a task that ignores SIGTERM after the grace period, and at once on a force stop', async () => {
    const tpl = await template('Stubborn', 'stubborn.sh');
    for (const force of [false, true]) {
      const id = await run(tpl.id);
      await waitForLine(id, 'stubborn');
      const name = containerNameOf(e.s.config.tmp_path, id);
      expect((await e.s.call('POST', `${base}/tasks/${id}/stop`, { force }, e.admin)).status).toBe(204);
      const done = await waitForTask(e.s.deps.db, id, undefined, 60_000);
      expect(done.status).toBe('stopped');
      const log = await taskLog(e.s.deps.db, id);
      expect(log.includes('ignoring TERM'), `force ${force}`).toBe(!force);
      // a force stop marks the task stopped at once; the job then kills and removes its container
      await waitUntil(`the container of task ${id} gone`, () => containerState(name) === null);
    }
  }, 180_000);

  it("ends a failing script as error with its exit code, as on the host", async () => {
    const tpl = await template('Fails', 'fail.sh');
    const id = await run(tpl.id);
    const done = await waitForTask(e.s.deps.db, id, undefined, 120_000);
    const log = await taskLog(e.s.deps.db, id);
    expect(done.status).toBe('error');
    expect(log).toContain('about to fail');
    expect(log.join('\n')).toMatch(/Running app failed: bash exited with code 3/);
  }, 180_000);

  it('runs terraform plan, waits for confirmation, then applies, all inside', async () => {
    const tpl = await template('Infra', 'infra', { app: 'terraform', environment_id: null });
    // terraform runs in infra/ of the run's own working copy, whose path has the task's id: the
    // fake is named relative to it (inside the image, apps.<id>.path names the command)
    const apps = e.s.config.apps;
    e.s.config.apps = { ...apps, terraform: { path: '../bin/terraform' } };
    onTestFinished(() => { e.s.config.apps = apps; });
    const id = await run(tpl.id);
    await waitForTask(e.s.deps.db, id, hasStatus('waiting_confirmation'), 120_000);
    expect(containerState(containerNameOf(e.s.config.tmp_path, id))).toBe('running');
    const clone = join(e.s.config.tmp_path, `repository_${fx.repository.id}_task_${id}`);
    expect(readdirSync(join(clone, 'infra'))).toContain('fake-tf.log');
    expect((await e.s.call('POST', `${base}/tasks/${id}/confirm`, {}, e.admin)).status).toBe(204);
    const done = await waitForTask(e.s.deps.db, id, undefined, 120_000);
    const log = await taskLog(e.s.deps.db, id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(log).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect(log).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(existsSync(clone)).toBe(false);
  }, 240_000);

  it('follows the pull policy: "always" pulls even a local image (no registry here), "never" uses only what is on the machine', async () => {
    const always = await template('Always', 'probe.sh', { executor_pull: 'always' });
    const pulled = await run(always.id);
    expect((await waitForTask(e.s.deps.db, pulled, undefined, 120_000)).status).toBe('error');
    const pullLog = await taskLog(e.s.deps.db, pulled);
    expect(pullLog).toContain(`Pulling image ${baseImage}`);
    expect(pullLog.join('\n')).toMatch(new RegExp(`Running app failed: cannot pull image ${baseImage.replace(/[.]/g, '\\.')}: `));

    const never = await template('Never', 'probe.sh', { executor_pull: 'never', executor_image: 'localhost/signalbox-test-absent:1' });
    const missing = await run(never.id);
    expect((await waitForTask(e.s.deps.db, missing, undefined, 120_000)).status).toBe('error');
    const missingLog = (await taskLog(e.s.deps.db, missing)).join('\n');
    expect(missingLog).not.toContain('Pulling image');
    expect(missingLog).toMatch(/Running app failed: cannot start a container of localhost\/signalbox-test-absent:1: /);
  }, 180_000);

  it("applies the template's limits, user and network to the container, and the user gets the task's files", async () => {
    const limited = await template('Limited', 'limits.sh', { executor_cpus: '1.5', executor_memory: '512m', executor_user: '1000:1000', executor_network: 'none' });
    const id = await run(limited.id);
    const done = await waitForTask(e.s.deps.db, id, undefined, 120_000);
    const log = await taskLog(e.s.deps.db, id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(lineOf(log, 'MEM=')).toBe(String(512 * 1024 * 1024));
    expect(lineOf(log, 'CPU=')).toBe('150000 100000');
    expect(lineOf(log, 'IDS=')).toBe('1000:1000');
    expect(lineOf(log, 'IFACES=').trim()).toBe('lo');
    expect(log).toEqual(expect.arrayContaining(['WROTE-HOME', 'READ-CHECKOUT']));
    // the run's working copy went with it
    expect(existsSync(join(e.s.config.tmp_path, `repository_${fx.repository.id}_task_${id}`))).toBe(false);

    const hostInterfaces = readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2).map((l) => l.split(':')[0]!.trim()).filter(Boolean).sort();
    for (const [network, expected] of [['host', hostInterfaces], ['bridge', ['eth0', 'lo']]] as const) {
      const tpl = await template(`Network ${network}`, 'limits.sh', { executor_network: network === 'bridge' ? null : network });
      const taskId = await run(tpl.id);
      expect((await waitForTask(e.s.deps.db, taskId, undefined, 120_000)).status).toBe('success');
      expect(lineOf(await taskLog(e.s.deps.db, taskId), 'IFACES=').split(' ').filter(Boolean), network).toEqual([...expected]);
    }
  }, 300_000);

  it("hands a workflow its task's outputs, the task its SEMAPHORE_JWT and Ansible its vault password, inside", async () => {
    const outputs = await template('Outputs', 'outputs.sh', { jwt_enabled: 1 });
    const wf = await e.s.call('POST', `${base}/workflows`, { name: 'In a container', nodes: [{ id: 1, kind: 'task', template_id: outputs.id }], edges: [] }, e.admin);
    expect(wf.status, wf.text).toBe(201);
    expect((await e.s.call('POST', `${base}/workflows/${wf.body.id}/run`, {}, e.admin)).status).toBe(201);
    const task = await waitUntil('the workflow task', async () => Boolean(await e.s.deps.db.selectFrom('task').select('id').where('template_id', '=', outputs.id).executeTakeFirst()))
      .then(() => e.s.deps.db.selectFrom('task').select('id').where('template_id', '=', outputs.id).executeTakeFirstOrThrow());
    const done = await waitForTask(e.s.deps.db, task.id, undefined, 120_000);
    const log = await taskLog(e.s.deps.db, task.id);
    expect(done.status, log.join('\n')).toBe('success');
    expect(lineOf(log, 'JWT_PARTS=')).toBe('3');
    expect((await e.s.call('GET', `${base}/tasks/${task.id}/outputs`, undefined, e.admin)).body.outputs).toEqual({ image_tag: '7.1.0' });

    const key = await e.s.call('POST', `${base}/keys`, { name: 'Vault', type: 'login_password', login_password: { login: '', password: VAULT_PASSWORD } }, e.admin);
    const vaulted = await insertTemplate(e.s.deps.db, fx.project.id, {
      name: 'Vaulted', app: 'ansible', playbook: 'vaulted.yml', repository_id: fx.repository.id, inventory_id: fx.inventory.id, executor_image: ansibleImage,
    });
    await e.s.deps.db.insertInto('template_vault').values({ project_id: fx.project.id, template_id: vaulted.id, vault_key_id: key.body.id, name: null, type: 'password', script: null }).execute();
    const opened = await run(vaulted.id);
    const openedDone = await waitForTask(e.s.deps.db, opened, undefined, 240_000);
    const openedLog = plain(await taskLog(e.s.deps.db, opened)).join('\n');
    expect(openedDone.status, openedLog).toBe('success');
    expect(openedLog).toContain('"msg": "opened=open-sesame"');
    expect(openedLog).not.toContain(VAULT_PASSWORD);
  }, 400_000);

  it("signs in to the image's registry with the template's key, pulls the image and runs in it; the password stays out of logs and command lines", async () => {
    const layout = join(e.s.tmp, 'oci-layout');
    podman('save', '--format=oci-dir', '--output', layout, baseImage);
    const password = 'registry-pass-93f1';
    const registry = await startFakeRegistry(layout, { login: 'robot', password });
    const registriesConf = join(e.s.tmp, 'registries.conf');
    writeFileSync(registriesConf, `[[registry]]\nlocation = "${registry.host}"\ninsecure = true\n`);
    process.env.CONTAINERS_REGISTRIES_CONF = registriesConf;
    const image = `${registry.host}/team/base:1`;
    const key = async (name: string, secret: string) => (await e.s.call('POST', `${base}/keys`, { name, type: 'login_password', login_password: { login: 'robot', password: secret } }, e.admin)).body.id as number;
    let leaked = false;
    const watching = setInterval(() => { if (hostCommandLines().includes(password)) leaked = true; }, 50);
    try {
      const tpl = await template('From a registry', 'probe.sh', { executor_image: image, executor_pull: 'always', executor_registry_key_id: await key('Robot', password) });
      const id = await run(tpl.id);
      const done = await waitForTask(e.s.deps.db, id, undefined, 240_000);
      const log = await taskLog(e.s.deps.db, id);
      expect(done.status, log.join('\n')).toBe('success');
      expect(log).toContain(`Pulling image ${image}`);
      expect(log).toContain(IMAGE_MARKER.text);
      expect(log.join('\n')).not.toContain(password);
      expect(registry.requests.some((r) => r.login === 'robot' && r.path === '/v2/team/base/manifests/1')).toBe(true);
      expect(imageExists(image)).toBe(true);
      // the credentials lived in the task's own folder, gone with it
      expect(existsSync(join(e.s.config.tmp_path, `container_${id}`))).toBe(false);

      const wrong = await template('Wrong password', 'probe.sh', { executor_image: image, executor_pull: 'always', executor_registry_key_id: await key('Wrong', 'not-the-password') });
      const refused = await run(wrong.id);
      expect((await waitForTask(e.s.deps.db, refused, undefined, 120_000)).status).toBe('error');
      expect((await taskLog(e.s.deps.db, refused)).join('\n')).toContain(`Running app failed: cannot sign in to ${registry.host}: `);
      expect(leaked).toBe(false);
    } finally {
      clearInterval(watching);
      delete process.env.CONTAINERS_REGISTRIES_CONF;
      await registry.stop();
      if (imageExists(image)) podman('rmi', image);
    }
  }, 300_000);
});

/** `name: <value>` encrypted with the machine's ansible-vault, as a vars file holds it. */
function vaultedVars(name: string, value: string, password: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-vault-'));
  try {
    writeFileSync(join(dir, 'password'), password);
    return execFileSync('ansible-vault', ['encrypt_string', '--vault-password-file', join(dir, 'password'), '--name', name, value], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A collection with one role, built with the machine's ansible-galaxy into `out`. */
function buildCollection(dir: string, out: string): void {
  mkdirSync(join(dir, 'roles/greet/tasks'), { recursive: true });
  writeFileSync(join(dir, 'galaxy.yml'), 'namespace: signalbox\nname: hello\nversion: 1.0.0\nreadme: README.md\nauthors: [Signalbox]\n');
  writeFileSync(join(dir, 'README.md'), 'A collection for the executor tests.\n');
  writeFileSync(join(dir, 'roles/greet/tasks/main.yml'), '- name: greet\n  debug:\n    msg: hello from a collection\n');
  execFileSync('ansible-galaxy', ['collection', 'build', '--output-path', out, dir], { stdio: 'ignore' });
}

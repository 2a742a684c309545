import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { relevantEnvironment, resolveExecutable, SessionService } from '../../main/sessions/session-service';
import { deleteSession, digestSession, listSessions, openSession, scanSession, searchSessions } from '../../main/sessions/session-store';
import { exportSession } from '../../main/sessions/session-export';
import { EventBus } from '../../main/platform/event-bus';
import { profileResolver } from '../../main/sessions/profile-launch';
import { diffSessions } from '../../shared/sessions/session-diff';
import type { CaptureRecord, LineRecord, MessageRecord } from '../../shared/sessions/session-records';
import { makeTempHome } from '../helpers/temp-home';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * Launches under the real loader (Debian 1.3.239), lavapipe and the real Khronos validation layer:
 * what the application, the loader and the layer said must all be in the session, structured and
 * in order. Every test runs in its own temporary HOME.
 */
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const VALIDATION = 'VK_LAYER_KHRONOS_validation';
const work = mkdtempSync(join(tmpdir(), 'strata-session-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

function build(name: string, extra: string[] = []): string {
  const out = join(work, name);
  if (!existsSync(out))
    execFileSync('gcc', ['-O2', '-Wall', '-Werror', '-o', out, join(APP_ROOT, 'tests', 'fixtures', 'apps', `${name}.c`), ...extra], { stdio: 'pipe' });
  return out;
}

function service(extraEnv: NodeJS.ProcessEnv = {}, bus: EventBus | null = null) {
  const home = makeTempHome({ SECRET_TOKEN: 'must-not-be-saved', ...extraEnv });
  after(home.cleanup);
  const profiles = profileResolver({ loaderVersion: async () => '1.3.239' });
  return { home, sessions: new SessionService({ env: home.env, version: '0.0.0-test', bus, graceMs: 300, drainMs: 500, profiles }) };
}

const lines = (records: CaptureRecord[], stream: LineRecord['stream']) => records.filter((r): r is LineRecord => r.kind === 'line' && r.stream === stream);
const messages = (records: CaptureRecord[]) => records.filter((r): r is MessageRecord => r.kind === 'message');

const APP_STDOUT = [
  'app: start',
  'app: instance created',
  'app: device created',
  'app: zero-size buffer -> 0',
  'app: leaving a buffer behind',
  'app: unicode ünïcödé ✓',
  'app: done',
];

test('the validation app under the real layer: exactly its VUIDs with severity and objects, every stdout line in order, the loader debug lines', async () => {
  const app = build('validation-app', ['-lvulkan']);
  const bus = new EventBus();
  const live: CaptureRecord[] = [];
  const events: string[] = [];
  bus.subscribe((e) => {
    events.push(e.name);
    if (e.name === 'session.lines') live.push(...e.payload.records);
  });
  const { sessions, home } = service({}, bus);
  const s = await sessions.start({
    command: app,
    args: ['4'],
    loaderDebug: 'error,warn,info',
    env: { VK_INSTANCE_LAYERS: VALIDATION, VK_DRIVER_FILES: LAVAPIPE },
  });
  const footer = await s.ended;
  assert.deepEqual(footer.exit, { reason: 'exited', code: 4, signal: null, error: null });

  const open = await openSession(sessions.store, s.id, { limit: 50_000 });
  const records = open.records;
  assert.equal(open.summary.status, 'ended');
  assert.equal(open.header.validationRouting.mode, 'fifo');
  assert.deepEqual(
    lines(records, 'stdout').map((l) => l.text),
    APP_STDOUT,
  );
  assert.ok(lines(records, 'stderr').some((l) => l.text === 'app: a line on stderr' && l.src === undefined));

  const found = messages(records);
  assert.deepEqual(
    found.map((m) => [m.vuid, m.severity, m.types.join(), m.stream, m.complete]),
    [
      ['VUID-VkBufferCreateInfo-size-00912', 'error', 'SPEC', 'validation', true],
      ['VUID-vkDestroyDevice-device-00378', 'error', 'SPEC', 'validation', true],
    ],
  );
  const [size0, leak] = found as [MessageRecord, MessageRecord];
  assert.equal(size0.messageId, 2085897310);
  assert.deepEqual(
    size0.objects.map((o) => [o.typeName, o.type, o.name]),
    [['VK_OBJECT_TYPE_DEVICE', 3, 'strata-test-device']],
  );
  assert.deepEqual(
    leak.objects.map((o) => [o.typeName, o.type, o.name]),
    [
      ['VK_OBJECT_TYPE_DEVICE', 3, 'strata-test-device'],
      ['VK_OBJECT_TYPE_BUFFER', 9, 'leaked-buffer'],
    ],
  );
  assert.equal(leak.objects[0]!.handle, size0.objects[0]!.handle);
  assert.match(size0.text, /^Validation Error: \[ VUID-VkBufferCreateInfo-size-00912 \].*size must be greater than 0/);
  assert.equal(size0.specUrl, 'https://registry.khronos.org/vulkan/specs/1.3-extensions/html/vkspec.html#VUID-VkBufferCreateInfo-size-00912');
  assert.equal(size0.specText, 'size must be greater than 0');
  // The message comes after the lines it was read from, which carry its severity.
  const [first, last] = size0.lines;
  assert.ok(
    records
      .filter((r) => r.kind === 'line' && r.seq >= first && r.seq <= last)
      .every((r) => r.kind === 'line' && r.src === 'validation' && r.level === 'error'),
  );
  assert.ok(size0.seq > last);

  const loader = lines(records, 'stderr').filter((l) => l.src === 'loader');
  assert.ok(loader.some((l) => l.level === 'info' && /Vulkan Loader Version 1\.3\.239/.test(l.text)));
  assert.ok(loader.some((l) => /Insert instance layer "VK_LAYER_KHRONOS_validation"/.test(l.text)));
  assert.equal(open.counts.messages.error, 2);
  assert.equal(open.counts.loader.info, loader.filter((l) => l.level === 'info').length);

  // Sequence numbers: one sequence, in file order, without gaps.
  assert.deepEqual(
    records.map((r) => r.seq),
    records.map((_, i) => i + 1),
  );

  // The header: the predicted chain, the launch's own variables, no secrets from the parent.
  assert.ok(open.header.chain?.chain.some((e) => e.name === VALIDATION));
  assert.equal(open.header.environment.set['VK_LOADER_DEBUG'], 'error,warn,info');
  assert.equal(open.header.environment.set['VK_INSTANCE_LAYERS'], VALIDATION);
  assert.ok(open.header.environment.set['VK_LAYER_SETTINGS_PATH']);
  assert.equal(open.header.environment.inherited['HOME'], home.dir);
  assert.doesNotMatch(readFileSync(s.file, 'utf8'), /must-not-be-saved/);
  // The launch's FIFO and settings file are gone.
  assert.equal(existsSync(open.header.environment.set['VK_LAYER_SETTINGS_PATH']!), false);

  // Live: started, batches holding every record in order, ended.
  assert.equal(events[0], 'session.started');
  assert.equal(events.at(-1), 'session.ended');
  assert.deepEqual(
    live.map((r) => r.seq),
    records.map((r) => r.seq),
  );
});

test('without the validation layer: the diff shows both VUIDs gone and the layer out of the chain; search, export and delete', async () => {
  const app = build('validation-app', ['-lvulkan']);
  const { sessions } = service();
  const withLayer = await sessions.start({ command: app, env: { VK_INSTANCE_LAYERS: VALIDATION, VK_DRIVER_FILES: LAVAPIPE } });
  await withLayer.ended;
  const without = await sessions.start({ command: app, env: { VK_DRIVER_FILES: LAVAPIPE } });
  await without.ended;

  const d = diffSessions(await digestSession(sessions.store, withLayer.id), await digestSession(sessions.store, without.id));
  assert.deepEqual(
    d.messages.disappeared.map((m) => m.vuid),
    ['VUID-VkBufferCreateInfo-size-00912', 'VUID-vkDestroyDevice-device-00378'],
  );
  assert.deepEqual(d.messages.appeared, []);
  assert.deepEqual(d.chain.removed, [VALIDATION]);
  assert.equal(d.counts.b.messages.error, 0);
  assert.equal(d.counts.a.lines.stdout, d.counts.b.lines.stdout);

  const list = listSessions(sessions.store);
  assert.deepEqual(new Set(list.sessions.map((x) => x.id)), new Set([withLayer.id, without.id]));
  assert.ok(list.sessions.every((x) => x.status === 'ended' && x.counts !== null));

  const hits = await searchSessions(sessions.store, { vuid: 'VUID-vkDestroyDevice-*' }, undefined);
  assert.deepEqual(
    hits.results.map((r) => [r.summary.id, r.matches]),
    [[withLayer.id, 1]],
  );
  const text = await searchSessions(sessions.store, { text: 'ZERO-SIZE' }, undefined);
  assert.equal(text.results.length, 2);

  const html = await exportSession(sessions.store, withLayer.id, 'html');
  assert.match(html.text, /VUID-VkBufferCreateInfo-size-00912/);
  assert.match(html.text, /href="https:\/\/registry\.khronos\.org\/vulkan\/specs\/1\.3-extensions\/html\/vkspec\.html#VUID-vkDestroyDevice-device-00378"/);
  const json = JSON.parse((await exportSession(sessions.store, withLayer.id, 'json')).text) as { records: CaptureRecord[]; footer: unknown };
  assert.equal(messages(json.records).length, 2);
  assert.ok(json.footer);

  assert.deepEqual(deleteSession(sessions.store, without.id), { id: without.id, deleted: true });
  assert.deepEqual(
    listSessions(sessions.store).sessions.map((x) => x.id),
    [withLayer.id],
  );
});

test('a profile applies to the launch only, through its environment: the built-in standard validation preset finds the same VUIDs', async () => {
  const app = build('validation-app', ['-lvulkan']);
  const { sessions, home } = service();
  const s = await sessions.start({ command: app, profile: 'validation-standard', env: { VK_DRIVER_FILES: LAVAPIPE } });
  await s.ended;
  const open = await openSession(sessions.store, s.id, {});
  assert.deepEqual(
    messages(open.records).map((m) => m.vuid),
    ['VUID-VkBufferCreateInfo-size-00912', 'VUID-vkDestroyDevice-device-00378'],
  );
  assert.equal(open.header.profile?.name, 'Validation — standard');
  assert.deepEqual((open.header.profile?.copy as { layers: unknown }).layers, [{ name: VALIDATION, state: 'on' }]);
  assert.equal(open.header.environment.set['VK_INSTANCE_LAYERS'], VALIDATION);
  assert.ok(open.header.chain?.chain.some((e) => e.name === VALIDATION));
  // Nothing global was written: no override layer, no settings file under the temporary HOME.
  assert.equal(existsSync(join(home.env['XDG_DATA_HOME']!, 'vulkan')), false);
  await assert.rejects(sessions.start({ command: app, profile: 'no such profile' }), /No profile|no such profile/i);
});

test("with vkconfig's settings file present Strata cannot route the layer, and reads its messages from stdout instead", async () => {
  const app = build('validation-app', ['-lvulkan']);
  const { sessions, home } = service();
  const settingsDir = join(home.env['XDG_DATA_HOME']!, 'vulkan', 'settings.d');
  mkdirSync(settingsDir, { recursive: true });
  writeFileSync(join(settingsDir, 'vk_layer_settings.txt'), 'khronos_validation.report_flags = error\n');
  const s = await sessions.start({ command: app, env: { VK_INSTANCE_LAYERS: VALIDATION, VK_DRIVER_FILES: LAVAPIPE } });
  await s.ended;
  const open = await openSession(sessions.store, s.id, {});
  assert.equal(open.header.validationRouting.mode, 'stdout');
  assert.match(open.header.validationRouting.note ?? '', /settings\.d\/vk_layer_settings\.txt takes precedence/);
  assert.deepEqual(
    messages(open.records).map((m) => [m.vuid, m.stream]),
    [
      ['VUID-VkBufferCreateInfo-size-00912', 'stdout'],
      ['VUID-vkDestroyDevice-device-00378', 'stdout'],
    ],
  );
  // The application's own lines are still all there, in order, between the layer's.
  assert.deepEqual(
    lines(open.records, 'stdout')
      .filter((l) => l.src === undefined)
      .map((l) => l.text),
    APP_STDOUT,
  );
});

function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

test('volume: 50 MB of mixed stdout and stderr, every byte captured in order per stream (checksums)', async () => {
  const writer = build('volume-writer');
  const total = 50_000_000;
  // The reference: the same bytes straight into files.
  const outFile = join(work, 'volume.out');
  const errFile = join(work, 'volume.err');
  const fdOut = openSync(outFile, 'w');
  const fdErr = openSync(errFile, 'w');
  const direct = spawnSync(writer, [String(total), '7'], { stdio: ['ignore', fdOut, fdErr] });
  closeSync(fdOut);
  closeSync(fdErr);
  assert.equal(direct.status, 0);

  const { sessions } = service();
  const s = await sessions.start({ command: writer, args: [String(total), '7'], routeValidation: false });
  const footer = await s.ended;
  assert.equal(footer.exit.code, 0);
  const texts = { stdout: [] as string[], stderr: [] as string[] };
  let lastSeq = 0;
  const lastT = { stdout: 0, stderr: 0 };
  let partials = 0;
  const scan = await scanSession(s.file, (r) => {
    assert.ok(r.seq > lastSeq);
    lastSeq = r.seq;
    if (r.kind !== 'line' || r.stream === 'validation') return;
    assert.ok(r.t >= lastT[r.stream]);
    lastT[r.stream] = r.t;
    if (r.partial) partials++;
    texts[r.stream].push(r.text + (r.partial ? '' : r.cr ? '\r\n' : '\n'));
  });
  assert.equal(scan.torn, false);
  assert.ok(partials > 2, 'long lines were cut into pieces');
  const expectedOut = readFileSync(outFile);
  const expectedErr = readFileSync(errFile);
  assert.equal(sha256(texts.stdout.join('')), sha256(expectedOut));
  assert.equal(sha256(texts.stderr.join('')), sha256(expectedErr));
  assert.equal(footer.counts.bytes.stdout, expectedOut.length);
  assert.equal(footer.counts.bytes.stderr, expectedErr.length);
  rmSync(s.file);
});

test('stop: SIGTERM first, SIGKILL after the grace period for an application that ignores it; timeout; a command that cannot start', async () => {
  const { sessions } = service();
  // The shell ignores SIGTERM; `exec` would not, so the loop stays in the shell.
  const stubborn = await sessions.start({ command: '/bin/sh', args: ['-c', 'trap "" TERM; echo ready; while :; do sleep 0.05; done'], routeValidation: false });
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (readFileSync(stubborn.file, 'utf8').includes('"text":"ready"')) {
        clearInterval(poll);
        resolve();
      }
    }, 20);
  });
  assert.equal(sessions.stop(stubborn.id), true);
  const killed = await stubborn.ended;
  assert.equal(killed.exit.reason, 'stopped');
  assert.equal(killed.exit.signal, 'SIGKILL');
  assert.equal(sessions.stop(stubborn.id), false);

  const slow = await sessions.start({ command: 'sleep', args: ['30'], timeoutS: 0.3, routeValidation: false });
  const timedOut = await slow.ended;
  assert.deepEqual([timedOut.exit.reason, timedOut.exit.signal], ['timeout', 'SIGTERM']);

  const missing = await sessions.start({ command: join(work, 'no-such-app'), routeValidation: false });
  const failed = await missing.ended;
  assert.equal(failed.exit.reason, 'failed-to-start');
  assert.match(failed.exit.error ?? '', /ENOENT/);
  assert.equal(listSessions(sessions.store).sessions.length, 3);
});

test('the environment kept with a session: what steers the loader, layers and drivers, never anything else', () => {
  const kept = relevantEnvironment({
    VK_DRIVER_FILES: '/icd.json',
    XDG_DATA_HOME: '/d',
    MESA_VK_DEVICE_SELECT: '1',
    HOME: '/h',
    PATH: '/bin',
    LD_PRELOAD: 'x.so',
    SECRET_TOKEN: 'no',
    AWS_SECRET_ACCESS_KEY: 'no',
    HOMEPAGE: 'no',
    MY_VK_THING: 'no',
    UNSET: undefined,
  });
  assert.deepEqual(Object.keys(kept), ['HOME', 'LD_PRELOAD', 'MESA_VK_DEVICE_SELECT', 'PATH', 'VK_DRIVER_FILES', 'XDG_DATA_HOME']);
});

test('the executable a command runs: a path against the working folder, else the first executable file of that name on PATH', () => {
  const dir = mkdtempSync(join(work, 'exe-'));
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  mkdirSync(join(dir, 'c', 'tool'), { recursive: true });
  writeFileSync(join(dir, 'a', 'tool'), 'not executable', { mode: 0o644 });
  writeFileSync(join(dir, 'b', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  const path = [join(dir, 'c'), join(dir, 'a'), '', 'b'].join(':');
  assert.equal(
    resolveExecutable('tool', path, dir),
    join(dir, 'b', 'tool'),
    'a folder and a file without x are passed over; a relative PATH entry is from cwd',
  );
  assert.equal(resolveExecutable('./b/tool', undefined, dir), join(dir, 'b', 'tool'));
  assert.equal(resolveExecutable('a/tool', path, dir), null);
  assert.equal(resolveExecutable('missing', path, dir), null);
  assert.equal(resolveExecutable('tool', undefined, dir), null);
});

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SessionDiff } from '../../shared/sessions/session-diff';
import type { SessionList, SessionOpen } from '../../shared/sessions/session-ipc';
import { countsLabel } from '../../shared/sessions/session-counts-label';
import { makeTempHome } from '../helpers/temp-home';
import { APP_ROOT, runStrata, STRATA_BIN } from '../helpers/strata-cli';

/**
 * `strata launch` and `strata session …` as a user runs them (the built bin/strata; run
 * `node scripts/build.mjs` after changing main/). One temporary HOME for the file.
 */
const LAVAPIPE = '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json';
const work = mkdtempSync(join(tmpdir(), 'strata-session-cli-'));
const home = makeTempHome();
after(() => {
  home.cleanup();
  rmSync(work, { recursive: true, force: true });
});
const sessionsDir = join(home.env['XDG_STATE_HOME']!, 'strata', 'sessions');

const app = join(work, 'validation-app');
execFileSync('gcc', ['-O1', '-Wall', '-o', app, join(APP_ROOT, 'tests', 'fixtures', 'apps', 'validation-app.c'), '-lvulkan'], { stdio: 'pipe' });

function savedId(stderr: string): string {
  const m = stderr.match(/^strata: session (\S+) saved \(/m);
  assert.ok(m, `no "session … saved" line in:\n${stderr}`);
  return m[1]!;
}

const json = <T>(args: string[]) => {
  const r = runStrata(args, home.env);
  return { status: r.status, value: JSON.parse(r.stdout) as T, stderr: r.stderr };
};

test("launch: the application's output passes through, the exit code is the application's, the session is saved; sessions list/show/diff/export/rm", () => {
  const withLayer = runStrata(
    [
      'launch',
      '--loader-debug',
      'error,warn,info',
      '--env',
      'VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation',
      '--env',
      `VK_DRIVER_FILES=${LAVAPIPE}`,
      '--',
      app,
      '3',
    ],
    home.env,
  );
  assert.equal(withLayer.status, 3, withLayer.stderr);
  assert.equal(
    withLayer.stdout,
    'app: start\napp: instance created\napp: device created\napp: zero-size buffer -> 0\napp: leaving a buffer behind\napp: unicode ünïcödé ✓\napp: done\n',
  );
  // The layer's messages and the loader's lines are shown on stderr, as they arrive.
  assert.match(withLayer.stderr, /^VUID-VkBufferCreateInfo-size-00912\(ERROR \/ SPEC\)/m);
  assert.match(withLayer.stderr, /^INFO: +Vulkan Loader Version 1\.3\.239$/m);
  assert.match(withLayer.stderr, /2 errors, 0 warnings, 0 info \(validation\).*; exit 3$/m);
  const a = savedId(withLayer.stderr);

  const without = runStrata(['launch', '-q', '--env', `VK_DRIVER_FILES=${LAVAPIPE}`, '--', app], home.env);
  assert.equal(without.status, 0, without.stderr);
  assert.equal(without.stdout, '');
  const b = savedId(without.stderr);

  const list = json<SessionList>(['session', 'list', '--json']);
  assert.equal(list.status, 0);
  assert.deepEqual(
    list.value.sessions.map((s) => [s.id, s.status, s.exit?.code, s.counts?.messages.error]),
    [
      [b, 'ended', 0, 0],
      [a, 'ended', 3, 2],
    ],
  );
  // The last line counts the loader's warnings as the session header does (one counting function): not "0 warnings".
  const countsA = list.value.sessions.find((s) => s.id === a)!.counts!;
  assert.ok(countsA.loader.warning > 0, 'the loader warned during this launch (VK_LOADER_DEBUG=warn)');
  assert.ok(withLayer.stderr.includes(`saved (${join(sessionsDir, `${a}.jsonl`)}): `), withLayer.stderr);
  assert.match(withLayer.stderr, new RegExp(`: \\d+ lines, ${countsLabel(countsA).replace(/[()]/g, '\\$&')}; exit 3$`, 'm'));
  assert.match(countsLabel(countsA), / · loader: \d+ errors?, [1-9]\d* warnings?$/);

  const show = json<SessionOpen>(['session', 'show', a, '--json', '--vuid', 'VUID-*']);
  assert.equal(show.status, 1, 'show exits 1 for a session with validation errors');
  assert.deepEqual(
    show.value.records.map((r) => r.kind === 'message' && r.vuid),
    ['VUID-VkBufferCreateInfo-size-00912', 'VUID-vkDestroyDevice-device-00378'],
  );
  const human = runStrata(['session', 'show', 'latest'], home.env);
  assert.equal(human.status, 0);
  assert.match(human.stdout, new RegExp(`^session +${b}$`, 'm'));

  const diff = json<SessionDiff>(['session', 'diff', a, b, '--json']);
  assert.equal(diff.status, 1, 'diff exits 1 when the sessions differ');
  assert.deepEqual(
    diff.value.messages.disappeared.map((m) => m.vuid),
    ['VUID-VkBufferCreateInfo-size-00912', 'VUID-vkDestroyDevice-device-00378'],
  );
  assert.deepEqual(diff.value.chain.removed, ['VK_LAYER_KHRONOS_validation']);
  assert.match(
    runStrata(['session', 'diff', a, b], home.env).stdout,
    /Messages only in a \(disappeared\):\n {2}error {3}VUID-VkBufferCreateInfo-size-00912 {2}a 1, b 0/,
  );

  const report = join(work, 'report.html');
  const exported = runStrata(['session', 'export', a, '--format', 'html', '-o', report], home.env);
  assert.equal(exported.status, 0, exported.stderr);
  const html = readFileSync(report, 'utf8');
  assert.match(html, /VUID-vkDestroyDevice-device-00378/);
  assert.doesNotMatch(html, /<script|<link/);

  assert.equal(runStrata(['session', 'delete', b], home.env).status, 0);
  assert.deepEqual(
    json<SessionList>(['session', 'list', '--json']).value.sessions.map((s) => s.id),
    [a],
  );
  const gone = runStrata(['session', 'show', b], home.env);
  assert.equal(gone.status, 1);
  assert.match(gone.stderr, /^strata: No session "[^"]+" \(.*\)\. Fix: list the sessions with `strata session list`\n$/);
});

test('launch: a signal is reported as 128+N; a bad level is a usage error on one line', () => {
  const killed = runStrata(['launch', '-q', '--', '/bin/sh', '-c', 'kill -TERM $$'], home.env);
  assert.equal(killed.status, 128 + 15, killed.stderr);
  assert.match(killed.stderr, /; SIGTERM$/m);
  const bad = runStrata(['launch', '--loader-debug', 'loud', '--', '/bin/true'], home.env);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^strata: VK_LOADER_DEBUG does not know "loud" \(loader debug level\)\. Fix: use one or more of error, warn, .*\n$/);
});

test('crash safety: `strata launch` killed with SIGKILL mid-session leaves a readable file, complete up to its last line', async () => {
  const pidFile = join(work, 'app.pid');
  const script = `echo $$ > ${pidFile}; i=0; while :; do i=$((i+1)); echo "line $i"; sleep 0.002; done`;
  const strata = spawn(process.execPath, [STRATA_BIN, 'launch', '-q', '--', '/bin/sh', '-c', script], { cwd: APP_ROOT, env: home.env, stdio: 'ignore' });
  const before = new Set(existsSync(sessionsDir) ? readdirSync(sessionsDir) : []);
  let file = '';
  try {
    // Wait until the session holds a hundred lines, then kill Strata without warning.
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        const fresh = existsSync(sessionsDir) ? readdirSync(sessionsDir).filter((n) => !before.has(n)) : [];
        if (fresh.length === 1) {
          file = join(sessionsDir, fresh[0]!);
          // Count line records, not file lines: the header and other records must not make the wait end early.
          if ((readFileSync(file, 'utf8').match(/"kind":"line"/g)?.length ?? 0) > 100) {
            clearInterval(poll);
            resolve();
          }
        }
      }, 20);
      strata.once('exit', () => reject(new Error('strata launch ended on its own')));
    });
    strata.kill('SIGKILL');
    await new Promise((r) => strata.once('exit', r));
  } finally {
    // The application dies of SIGPIPE at its next line; make sure of it.
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const text = readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'), 'the file ends at a record boundary');
  const records = text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; text?: string; seq?: number });
  assert.equal(records[0]!.kind, 'header');
  assert.ok(records.every((r) => r.kind !== 'footer'));
  const lines = records.filter((r) => r.kind === 'line').map((r) => r.text);
  assert.ok(lines.length > 100);
  assert.deepEqual(
    lines,
    lines.map((_, i) => `line ${i + 1}`),
  );

  const header = records[0] as unknown as { id: string; environment: { set: Record<string, string> } };
  const id = header.id;
  // The killed Strata could not remove its FIFO folder; the next launch sweeps it (its pid is gone).
  const launchDir = dirname(header.environment.set['VK_LAYER_SETTINGS_PATH']!);
  assert.ok(existsSync(launchDir));
  assert.equal(runStrata(['launch', '-q', '--', '/bin/true'], home.env).status, 0);
  assert.equal(existsSync(launchDir), false);
  const show = json<SessionOpen>(['session', 'show', id, '--json', '--limit', '5']);
  assert.equal(show.status, 0, show.stderr);
  assert.equal(show.value.summary.status, 'incomplete');
  assert.equal(show.value.footer, null);
  assert.equal(show.value.torn, false);
  assert.equal(show.value.total, records.length - 1);
  assert.equal(show.value.counts.lines.stdout, lines.length);
  const list = json<SessionList>(['session', 'list', '--json']);
  assert.equal(list.value.sessions.find((s) => s.id === id)?.status, 'incomplete');
});

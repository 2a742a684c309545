import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnvironmentLines, splitCommandLine } from '../../renderer/src/sessions/command-line';
import { appendLive, emptyLiveLog } from '../../renderer/src/sessions/live-log';
import { commandLabel, exitLabel } from '../../renderer/src/sessions/session-labels';
import { launchRequest, type LaunchForm } from '../../renderer/src/sessions/launch-request';
import type { LineRecord } from '../../shared/sessions/session-records';

test('command lines split like a shell, without expansion', () => {
  assert.deepEqual(splitCommandLine(`vkcube --c 100`), { ok: true, words: ['vkcube', '--c', '100'] });
  assert.deepEqual(splitCommandLine(`"/opt/my app/run" 'a b' c\\ d "q\\"x" $HOME *`), {
    ok: true,
    words: ['/opt/my app/run', 'a b', 'c d', 'q"x', '$HOME', '*'],
  });
  assert.deepEqual(splitCommandLine(`  `), { ok: true, words: [] });
  assert.deepEqual(splitCommandLine(`''`), { ok: true, words: [''] });
  assert.equal(splitCommandLine(`"open`).ok, false);
  assert.equal(commandLabel({ command: '/opt/my app/run', args: ['x', "it's"] }), `'/opt/my app/run' x 'it'\\''s'`);
});

test('environment lines: NAME=VALUE, comments and blank lines skipped, bad names refused', () => {
  assert.deepEqual(parseEnvironmentLines('# for lavapipe\nVK_DRIVER_FILES=/a.json\n\nEMPTY=\nX=a=b'), {
    ok: true,
    env: { VK_DRIVER_FILES: '/a.json', EMPTY: '', X: 'a=b' },
  });
  assert.deepEqual(parseEnvironmentLines('=x'), { ok: false, error: 'line 1: expected NAME=VALUE' });
  assert.equal(parseEnvironmentLines('1X=y').ok, false);
});

test('the Launcher form as a launch.start request, or what is wrong with it', () => {
  const form: LaunchForm = {
    commandLine: 'vkcube --c 5',
    cwd: ' /tmp ',
    profile: 'Validation — standard',
    loaderDebug: 'error,warn',
    timeout: '2.5',
    env: 'A=1',
  };
  assert.deepEqual(launchRequest(form), {
    ok: true,
    request: {
      command: 'vkcube',
      args: ['--c', '5'],
      cwd: '/tmp',
      env: { A: '1' },
      profile: 'Validation — standard',
      loaderDebug: 'error,warn',
      timeoutS: 2.5,
    },
  });
  assert.deepEqual(launchRequest({ ...form, cwd: '', profile: '', loaderDebug: '', timeout: '', env: '' }), {
    ok: true,
    request: { command: 'vkcube', args: ['--c', '5'] },
  });
  const bad = (patch: Partial<LaunchForm>) => {
    const r = launchRequest({ ...form, ...patch });
    return r.ok ? null : r.error.code;
  };
  assert.equal(bad({ commandLine: '' }), 'ui/bad-command');
  assert.equal(bad({ commandLine: '"x' }), 'ui/bad-command');
  assert.equal(bad({ timeout: 'soon' }), 'ui/bad-timeout');
  assert.equal(bad({ env: 'nope' }), 'ui/bad-environment');
});

test('the live log keeps the newest records and counts what it no longer holds', () => {
  const line = (seq: number): LineRecord => ({ kind: 'line', seq, stream: 'stdout', t: seq, wall: 0, text: `l${seq}` });
  let log = appendLive(emptyLiveLog(), [line(1), line(2)], 0, 3);
  log = appendLive(log, [line(3), line(4)], 10, 3);
  assert.deepEqual(
    log.records.map((r) => r.seq),
    [2, 3, 4],
  );
  assert.equal(log.received, 4);
  assert.equal(log.dropped, 11);
  assert.equal(exitLabel({ reason: 'timeout', code: null, signal: 'SIGTERM', error: null }), 'SIGTERM (timed out)');
  assert.equal(exitLabel(null, 'incomplete'), 'no record of the end');
});

test('repeated loader lines are folded (first place, with their count); application lines and messages never are', async () => {
  const { foldRepeatedLoaderLines, countsLabel } = await import('../../renderer/src/sessions/session-labels');
  const line = (seq: number, text: string, src?: 'loader') => ({
    kind: 'line' as const,
    seq,
    stream: 'stderr' as const,
    t: seq,
    wall: seq,
    text,
    ...(src ? { src, level: 'warning' as const } : {}),
  });
  const warn = "WARNING | LAYER:  Meta-layer VK_LAYER_LUNARG_override can't find component layer VK_LAYER_x at index 0.  Skipping this layer.";
  const folded = foldRepeatedLoaderLines([
    line(1, warn, 'loader'),
    line(2, 'frame 1'),
    line(3, warn, 'loader'),
    line(4, 'frame 1'),
    line(5, warn, 'loader'),
  ] as never[]);
  assert.deepEqual(
    folded.map((f: { record: { seq: number }; repeats: number }) => [f.record.seq, f.repeats]),
    [
      [1, 3],
      [2, 1],
      [4, 1],
    ],
  );
  const counts = { messages: { error: 0, warning: 0, info: 0 }, loader: { error: 0, warning: 61 } };
  assert.equal(countsLabel(counts), '0 errors, 0 warnings, 0 info (validation) · loader: 0 errors, 61 warnings');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEnvironmentLines, splitCommandLine } from '../../renderer/src/sessions/command-line';
import { appendLive, emptyLiveLog } from '../../renderer/src/sessions/live-log';
import { commandLabel, exitLabel } from '../../renderer/src/sessions/session-labels';
import { launchRequest, type LaunchForm } from '../../renderer/src/sessions/launch-request';
import type { LineRecord } from '../../shared/sessions/session-records';

test('command lines split like a shell, without expansion', () => {
  assert.deepEqual(splitCommandLine(`vkcube --c 100`), { ok: true, words: ['vkcube', '--c', '100'] });
  assert.deepEqual(splitCommandLine(`"/opt/my app/run" 'a b' c\\ d "q\\"x" $HOME *`), { ok: true, words: ['/opt/my app/run', 'a b', 'c d', 'q"x', '$HOME', '*'] });
  assert.deepEqual(splitCommandLine(`  `), { ok: true, words: [] });
  assert.deepEqual(splitCommandLine(`''`), { ok: true, words: [''] });
  assert.equal(splitCommandLine(`"open`).ok, false);
  assert.equal(commandLabel({ command: '/opt/my app/run', args: ['x', "it's"] }), `'/opt/my app/run' x 'it'\\''s'`);
});

test('environment lines: NAME=VALUE, comments and blank lines skipped, bad names refused', () => {
  assert.deepEqual(parseEnvironmentLines('# for lavapipe\nVK_DRIVER_FILES=/a.json\n\nEMPTY=\nX=a=b'), { ok: true, env: { VK_DRIVER_FILES: '/a.json', EMPTY: '', X: 'a=b' } });
  assert.deepEqual(parseEnvironmentLines('=x'), { ok: false, error: 'line 1: expected NAME=VALUE' });
  assert.equal(parseEnvironmentLines('1X=y').ok, false);
});

test('the Launcher form as a launch.start request, or what is wrong with it', () => {
  const form: LaunchForm = { commandLine: 'vkcube --c 5', cwd: ' /tmp ', profile: 'Validation — standard', loaderDebug: 'error,warn', timeout: '2.5', env: 'A=1' };
  assert.deepEqual(launchRequest(form), {
    ok: true,
    request: { command: 'vkcube', args: ['--c', '5'], cwd: '/tmp', env: { A: '1' }, profile: 'Validation — standard', loaderDebug: 'error,warn', timeoutS: 2.5 },
  });
  assert.deepEqual(launchRequest({ ...form, cwd: '', profile: '', loaderDebug: '', timeout: '', env: '' }), { ok: true, request: { command: 'vkcube', args: ['--c', '5'] } });
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
  assert.deepEqual(log.records.map((r) => r.seq), [2, 3, 4]);
  assert.equal(log.received, 4);
  assert.equal(log.dropped, 11);
  assert.equal(exitLabel({ reason: 'timeout', code: null, signal: 'SIGTERM', error: null }), 'SIGTERM (timed out)');
  assert.equal(exitLabel(null, 'incomplete'), 'no record of the end');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRouter, type Router } from '../../main/router/router';
import { sessionHandlers } from '../../main/sessions/session-handlers';
import { SessionService } from '../../main/sessions/session-service';
import type { IpcResult } from '../../shared/ipc/result';
import type { LaunchStartResult, SessionList, SessionOpen, SessionSearch } from '../../shared/sessions/session-ipc';
import type { SessionDiff } from '../../shared/sessions/session-diff';
import type { SessionExport } from '../../shared/sessions/session-ipc';
import { countingHandlers } from '../helpers/counting-handlers';
import { makeTempHome, type TempHome } from '../helpers/temp-home';

/**
 * main/sessions/session-handlers.ts: the `launch.*` and `sessions.*` channels over one
 * SessionService, called through the real router (so every request and answer is checked against
 * the contract): a launch of /bin/sh recorded and then listed, opened, searched, exported, diffed,
 * stopped and deleted. The service's own behaviour is tests/integration/session-service.test.ts.
 */
async function call<T>(router: Router, channel: string, payload: unknown): Promise<T> {
  const result = (await router.call(channel, payload, { host: 'cli' })) as IpcResult<T>;
  if (!result.ok) assert.fail(`${channel}: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function setup(home: TempHome) {
  const service = new SessionService({ env: home.env, version: '0.0.0-test', predictChain: false, drainMs: 300, graceMs: 500 });
  const { handlers } = countingHandlers(sessionHandlers(service));
  return { service, router: createRouter(handlers) };
}

test('launch.start records a session that every sessions.* channel then reads', async () => {
  const home = makeTempHome();
  try {
    const { service, router } = setup(home);
    const started = await call<LaunchStartResult>(router, 'launch.start', {
      command: '/bin/sh',
      args: ['-c', 'echo "hello $WHO"; echo oops >&2'],
      env: { WHO: 'strata' },
      cwd: home.dir,
    });
    assert.equal(started.header.application.command, '/bin/sh');
    assert.ok(started.pid && started.pid > 0);
    assert.ok(started.file.startsWith(service.dir));
    await service.runningSessions().find((s) => s.id === started.id)?.ended;
    const second = await call<LaunchStartResult>(router, 'launch.start', { command: '/bin/sh', args: ['-c', 'echo bye'], cwd: home.dir });
    await service.runningSessions().find((s) => s.id === second.id)?.ended;

    const list = await call<SessionList>(router, 'sessions.list', {});
    assert.deepEqual(list.sessions.map((s) => s.id).sort(), [started.id, second.id].sort());
    assert.ok(list.sessions.every((s) => s.status === 'ended' && s.exit?.code === 0));

    const open = await call<SessionOpen>(router, 'sessions.open', { id: started.id, query: { stream: ['stdout'] } });
    assert.deepEqual(
      open.records.map((r) => (r.kind === 'line' ? r.text : r.vuid)),
      ['hello strata'],
    );
    assert.deepEqual(open.counts.lines, { stdout: 1, stderr: 1, validation: 0 });

    const search = await call<SessionSearch>(router, 'sessions.search', { query: { text: 'OOPS' } });
    assert.deepEqual(
      search.results.map((r) => [r.summary.id, r.matches]),
      [[started.id, 1]],
    );

    const exported = await call<SessionExport>(router, 'sessions.export', { id: started.id, format: 'json' });
    assert.equal(exported.fileName, `${started.id}.json`);
    assert.match(exported.text, /hello strata/);

    const diff = await call<SessionDiff>(router, 'sessions.diff', { a: started.id, b: second.id });
    assert.equal(diff.a.id, started.id);
    assert.equal(diff.b.id, second.id);

    assert.deepEqual(await call(router, 'sessions.delete', { id: second.id }), { id: second.id, deleted: true });
    const after = await call<SessionList>(router, 'sessions.list', {});
    assert.deepEqual(
      after.sessions.map((s) => s.id),
      [started.id],
    );
    const missing = await router.call('sessions.open', { id: second.id }, { host: 'cli' });
    assert.equal(!missing.ok && missing.error.code, 'sessions/not-found');
  } finally {
    home.cleanup();
  }
});

test('launch.stop stops a running launch (and says whether it knew the id); a running session cannot be deleted', async () => {
  const home = makeTempHome();
  try {
    const { service, router } = setup(home);
    const started = await call<LaunchStartResult>(router, 'launch.start', { command: '/bin/sh', args: ['-c', 'echo up; sleep 30'], cwd: home.dir });
    const deleting = await router.call('sessions.delete', { id: started.id }, { host: 'cli' });
    assert.equal(!deleting.ok && deleting.error.code, 'sessions/running');
    assert.deepEqual(await call(router, 'launch.stop', { id: 'no-such-session' }), { id: 'no-such-session', stopping: false });
    assert.deepEqual(await call(router, 'launch.stop', { id: started.id }), { id: started.id, stopping: true });
    const footer = await service.runningSessions().find((s) => s.id === started.id)?.ended;
    assert.equal(footer?.exit.reason, 'stopped');
    const list = await call<SessionList>(router, 'sessions.list', {});
    assert.equal(list.sessions[0]?.exit?.reason, 'stopped');
  } finally {
    home.cleanup();
  }
});

test('a bad request is refused by the contract before the service runs: nothing is launched', async () => {
  const home = makeTempHome();
  try {
    const { service, router } = setup(home);
    const bad = await router.call('launch.start', { command: '' }, { host: 'cli' });
    assert.equal(bad.ok, false);
    const cwd = await router.call('launch.start', { command: '/bin/true', cwd: '/nonexistent/dir' }, { host: 'cli' });
    assert.equal(!cwd.ok && cwd.error.code, 'launch/bad-cwd');
    assert.equal(service.runningSessions().length, 0);
    assert.deepEqual((await call<SessionList>(router, 'sessions.list', {})).sessions, []);
  } finally {
    home.cleanup();
  }
});

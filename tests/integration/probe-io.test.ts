/**
 * The built probe's own reading and writing (native-bridge/probe.ts, issue #19: `strata loader show`):
 * on Linux it reads its requests from descriptor 0 and writes its answers to descriptor 1 without
 * Node's socket streams (node:net, readline), and when descriptor 0 would block it goes back to them.
 * Either way every request is answered, in the order it came.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ROOT } from '../helpers/strata-cli';
import { makeTempHome } from '../helpers/temp-home';

/** The probe as users run it: the built bundle (a test's own probeCommand would be the TypeScript source through tsx). */
const PROBE = join(APP_ROOT, 'out', 'native-bridge', 'probe.cjs');

const REQUESTS = ['{"id":1,"method":"ping"}', '{"id":2,"method":"no.such.method"}', '{"id":3,"method":"loader.version"}'];

/** A script Node runs before the probe: at exit, the built-in modules that were loaded, on stderr. */
function loadedModulesHook(dir: string): string {
  const hook = join(dir, 'loaded-modules.cjs');
  // Written to descriptor 2 directly: process.stderr on a pipe would load node:net itself.
  writeFileSync(hook, "process.on('exit', () => require('node:fs').writeSync(2, `\\nLOADED ${JSON.stringify(process.moduleLoadList)}\\n`));\n");
  return hook;
}

const loadedModules = (stderr: string) => JSON.parse(/LOADED (.*)/.exec(stderr)?.[1] ?? '[]') as string[];

function answersOf(stdout: string): { id: unknown; ok: boolean }[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: unknown; ok: boolean });
}

test('good: requests on a pipe are answered in order, and neither node:net nor readline is loaded for them', { skip: process.platform === 'win32' }, () => {
  const home = makeTempHome();
  const dir = mkdtempSync(join(tmpdir(), 'strata-probe-io-'));
  try {
    // Without the test runner's variable, which makes a Node child set up its own reporting streams.
    const { NODE_TEST_CONTEXT: _runner, ...env } = home.env;
    const r = spawnSync(process.execPath, ['--require', loadedModulesHook(dir), PROBE], {
      input: `${REQUESTS.join('\n')}\n`,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const answers = answersOf(r.stdout);
    assert.deepEqual(
      answers.map((a) => [a.id, a.ok]),
      [
        [1, true],
        [2, false],
        [3, true],
      ],
    );
    const loaded = loadedModules(r.stderr);
    assert.ok(loaded.length > 0, 'the hook reported the loaded modules');
    for (const m of ['NativeModule net', 'NativeModule readline'])
      assert.ok(!loaded.includes(m), `${m} was loaded: ${loaded.slice(Math.max(0, loaded.indexOf(m) - 8), loaded.indexOf(m) + 2).join(' ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    home.cleanup();
  }
});

test(
  'good: on a descriptor 0 that would block (made non-blocking before Node starts) the probe reads through Node streams, and answers in order',
  { skip: process.platform === 'win32' },
  async () => {
    const home = makeTempHome();
    const dir = mkdtempSync(join(tmpdir(), 'strata-probe-io-'));
    try {
      const { NODE_TEST_CONTEXT: _runner, ...env } = home.env;
      // libuv hands a child blocking standard streams; perl (part of every Debian) makes descriptor 0
      // non-blocking, then becomes the probe.
      const setNonBlocking =
        'use Fcntl; my $f = fcntl(STDIN, F_GETFL, 0); fcntl(STDIN, F_SETFL, $f | O_NONBLOCK) or die "fcntl: $!"; exec @ARGV or die "exec: $!"';
      const child = spawn('perl', ['-e', setNonBlocking, process.execPath, '--require', loadedModulesHook(dir), PROBE], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      // Sent once the probe has found nothing to read.
      await new Promise((r) => setTimeout(r, 1000));
      child.stdin.end(`${REQUESTS.join('\n')}\n`);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      assert.equal(code, 0, stderr);
      assert.deepEqual(
        answersOf(stdout).map((a) => [a.id, a.ok]),
        [
          [1, true],
          [2, false],
          [3, true],
        ],
      );
      assert.ok(loadedModules(stderr).includes('NativeModule readline'), 'descriptor 0 would block: the probe read it through readline');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      home.cleanup();
    }
  },
);

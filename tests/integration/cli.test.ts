import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome } from '../helpers/temp-home';
import { vulkaninfoInstanceVersion } from '../helpers/real-vulkan';
import { APP_ROOT, runStrata, startAndWaitForUrl, STRATA_BIN } from '../helpers/strata-cli';
import { AppInfoSchema } from '../../shared/app/app-info';
import { EnvSummarySchema } from '../../shared/loader/environment-summary';

/** One temporary home for the tests that only need *a* clean environment. */
const shared = makeTempHome();
after(() => shared.cleanup());

const version = (JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('strata info --json: valid JSON matching the contract, loader version from the real libvulkan', () => {
  const home = makeTempHome();
  try {
    const r = runStrata(['info', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const info = AppInfoSchema.parse(JSON.parse(r.stdout));
    assert.equal(info.host, 'cli');
    assert.equal(info.version, version);
    assert.ok(info.loader.found, JSON.stringify(info.loader));
    assert.equal(info.loader.found && info.loader.version, vulkaninfoInstanceVersion(home.env));
  } finally {
    home.cleanup();
  }
});

test('strata info: a human table naming the loader version', () => {
  const home = makeTempHome();
  try {
    const r = runStrata(['info'], home.env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Vulkan loader\\s+${vulkaninfoInstanceVersion(home.env).replace(/\./g, '\\.')} \\(/`));
  } finally {
    home.cleanup();
  }
});

test('strata env show --json: reports the Vulkan variables and XDG folders of the environment it runs in', () => {
  const home = makeTempHome({ VK_LAYER_PATH: '/opt/layers', VK_LOADER_DEBUG: 'all' });
  try {
    const r = runStrata(['env', 'show', '--json'], home.env);
    assert.equal(r.status, 0, r.stderr);
    const s = EnvSummarySchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      s.variables.map((v) => [v.name, v.value]),
      [
        ['VK_LAYER_PATH', '/opt/layers'],
        ['VK_LOADER_DEBUG', 'all'],
      ],
    );
    assert.deepEqual(s.xdg?.configHome, { value: home.env['XDG_CONFIG_HOME'], source: 'environment' });
    assert.equal(s.xdg?.home, home.dir);
  } finally {
    home.cleanup();
  }
});

test('strata --version prints the package version', () => {
  const r = runStrata(['--version'], shared.env);
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trim(), version);
});

test('--help works on every command, exit 0', () => {
  for (const args of [['--help'], ['info', '--help'], ['env', 'show', '--help'], ['serve', '--help']]) {
    const r = runStrata(args, shared.env);
    assert.equal(r.status, 0, args.join(' '));
    assert.match(r.stdout, /Usage: strata/);
  }
});

for (const [args, pattern] of [
  [['frobnicate'], /^strata: unknown command 'frobnicate'\. Fix: see `strata --help`\n$/],
  [['info', '--jsn'], /^strata: unknown option '--jsn' \(did you mean --json\?\)\. Fix: see `strata info --help`\n$/],
  [['serve', '--port', '70000'], /^strata: .*--port.*whole number from 0 to 65535.*Fix: see `strata serve --help`/],
] as const) {
  test(`usage error \`strata ${args.join(' ')}\` exits 2 with one line on stderr`, () => {
    const r = runStrata([...args], shared.env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.equal(r.stdout, '');
  });
}

test('strata serve on a port in use: exit 1, one line saying what to do', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const r = runStrata(['serve', '--port', String(port)], shared.env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^strata: Cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE\. Fix: choose another --port/);
  } finally {
    blocker.close();
  }
});

test('strata serve prints a tokened URL that serves the app, and stops cleanly on SIGTERM', async () => {
  const home = makeTempHome();
  const run = startAndWaitForUrl(process.execPath, [STRATA_BIN, 'serve', '--port', '0'], home.env);
  try {
    const url = await run.url;
    const index = await fetch(url);
    assert.equal(index.status, 200);
    assert.equal(index.headers.get('set-cookie'), null, 'no cookie: cookies are not scoped by port');
    assert.match(await index.text(), /strata-preload\.js/);
    const token = new URL(url).hash.replace(/^#token=/, '');
    const api = await fetch(new URL('/api/app.info', url), {
      method: 'POST',
      headers: { 'x-strata-token': token, 'content-type': 'application/json' },
      body: '{}',
    });
    const body = (await api.json()) as { ok: boolean; value: { host: string } };
    assert.equal(body.value.host, 'browser');
    const exited = new Promise<number | null>((resolve) => run.child.on('exit', (code) => resolve(code)));
    run.child.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    run.child.kill('SIGKILL');
    home.cleanup();
  }
});

test('a non-loopback --host prints a warning about exposure', async () => {
  const home = makeTempHome();
  const run = startAndWaitForUrl(process.execPath, [STRATA_BIN, 'serve', '--host', '0.0.0.0', '--port', '0'], home.env);
  try {
    await run.url;
    assert.match(run.output().stderr, /warning: listening on 0\.0\.0\.0, reachable from other machines/);
    assert.match(run.output().stderr, /can run any command as you on this machine, and plain HTTP sends it unencrypted/);
  } finally {
    run.child.kill('SIGKILL');
    home.cleanup();
  }
});

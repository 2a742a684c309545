import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, STRATA_BIN, startAndWaitForUrl } from '../helpers/strata-cli';
import { FileDiagnosticsSchema } from '../../shared/lint/diagnostic-schema';
import { DiscoveredManifestSchema } from '../../shared/discovery/manifest-inventory';

/**
 * Issue #15, hostile files: /dev/zero, a FIFO nobody writes to, a symlink to a device in a layer
 * folder, a 1 GiB sparse file and JSON nested 100,000 deep, through the real CLI (under
 * /usr/bin/time, for the peak RSS) and through the browser host's channels. Each must give a clear
 * error (or that file's diagnostic) in bounded time and memory, and the next request must work.
 * Every child has a timeout: a read that blocks on the FIFO fails the test instead of hanging it.
 */
const MEMORY_BOUND_KB = 768 * 1024;
const layerJson = (name: string) =>
  JSON.stringify({
    file_format_version: '1.1.0',
    layer: {
      name,
      type: 'GLOBAL',
      library_path: '/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so',
      api_version: '1.3.239',
      implementation_version: '1',
      description: 'ok',
    },
  });
const deep = (n: number) => '{"layers":' + '['.repeat(n) + ']'.repeat(n) + '}';

let home: TempHome;
let work: string;
let layerDir: string;
const hostile: Record<string, string> = {};

before(() => {
  home = makeTempHome();
  work = mkdtempSync(join(tmpdir(), 'strata-hostile-'));
  layerDir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(layerDir, { recursive: true });
  writeFileSync(join(layerDir, 'good.json'), layerJson('VK_LAYER_STRATA_hostile_good'));
  symlinkSync('/dev/zero', join(layerDir, 'zero.json'));
  execFileSync('mkfifo', [join(layerDir, 'fifo.json')]);
  writeFileSync(join(layerDir, 'deep.json'), `{"file_format_version":"1.1.0","layer":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
  writeFileSync(join(layerDir, 'huge.json'), '');
  truncateSync(join(layerDir, 'huge.json'), 1 << 30);
  // The same, outside any search path, for commands that take a file.
  hostile['/dev/zero'] = '/dev/zero';
  hostile['a FIFO'] = join(work, 'fifo');
  execFileSync('mkfifo', [hostile['a FIFO']]);
  hostile['a symlink to /dev/zero'] = join(work, 'zero-link.json');
  symlinkSync('/dev/zero', hostile['a symlink to /dev/zero']);
  hostile['a 1 GiB sparse file'] = join(work, 'huge.bin');
  writeFileSync(hostile['a 1 GiB sparse file'], '');
  truncateSync(hostile['a 1 GiB sparse file'], 1 << 30);
  hostile['JSON nested 100,000 deep'] = join(work, 'deep.json');
  writeFileSync(hostile['JSON nested 100,000 deep'], deep(100_000));
  // A FIFO among the profiles: `profiles.list` once hung on one.
  const profiles = join(home.env['XDG_CONFIG_HOME']!, 'strata', 'profiles');
  mkdirSync(profiles, { recursive: true });
  execFileSync('mkfifo', [join(profiles, 'trap.json')]);
});

after(() => {
  home.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** bin/strata under /usr/bin/time: exit status, output, and the peak RSS in KiB. */
function strata(args: string[]) {
  const r = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, STRATA_BIN, ...args], {
    cwd: APP_ROOT,
    env: home.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(r.error, undefined, `strata ${args.join(' ')} did not finish within 60 s`);
  const m = /maxrss_kb=(\d+)\s*$/.exec(r.stderr);
  assert.ok(m, r.stderr);
  const maxRssKb = Number(m[1]);
  assert.ok(maxRssKb < MEMORY_BOUND_KB, `strata ${args.join(' ')} peaked at ${maxRssKb} KiB`);
  // GNU time adds "Command exited with non-zero status N" before its own line.
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.slice(0, m.index).replace(/^Command exited with non-zero status \d+\n/m, '') };
}

test('discovery: each hostile file in a layer folder is its own diagnostic; the good layer is still found', () => {
  const r = strata(['lint', '--json']);
  assert.equal(r.status, 1, r.stderr);
  const results = FileDiagnosticsSchema.array().parse(JSON.parse(r.stdout));
  const of = (name: string) =>
    results
      .find((x) => x.uri === join(layerDir, name))
      ?.diagnostics.map((d) => `${d.code}: ${d.message}`)
      .join('\n') ?? '(not listed)';
  assert.match(of('zero.json'), /manifest\/unreadable: .*zero\.json is a device, FIFO or socket, not a regular file/);
  assert.match(of('fifo.json'), /manifest\/unreadable: .*fifo\.json is a device, FIFO or socket/);
  assert.match(of('huge.json'), /manifest\/unreadable: .*huge\.json is over 16777216 bytes, the most Strata reads of a manifest: the loader still reads it/);
  assert.match(of('deep.json'), /manifest\/invalid-json: JSON nested deeper than 1000 levels/);
  assert.equal(of('good.json'), '');

  const layers = DiscoveredManifestSchema.array().parse(JSON.parse(strata(['layers', 'list', '--json']).stdout));
  assert.ok(layers.some((m) => m.layers.some((l) => l.name === 'VK_LAYER_STRATA_hostile_good')));
  const explain = strata(['explain', '--enable-layers', 'VK_LAYER_STRATA_hostile_good', '--json']);
  assert.equal(explain.status, 0, explain.stderr);
  assert.match(explain.stdout, /VK_LAYER_STRATA_hostile_good/);
});

test('strata lint FOLDER and FILE: a folder lints the rest; a hostile file named on the command line is a clear error', () => {
  const folder = strata(['lint', layerDir, '--json']);
  assert.equal(folder.status, 1, folder.stderr);
  assert.ok(
    FileDiagnosticsSchema.array()
      .parse(JSON.parse(folder.stdout))
      .some((x) => x.uri.endsWith('good.json') && x.diagnostics.length === 0),
  );
  for (const [what, path] of Object.entries(hostile)) {
    const r = strata(['lint', path]);
    assert.notEqual(r.status, 0, what);
    // The deep file is a regular file: linted, with one diagnostic saying why it is not read further.
    if (what === 'JSON nested 100,000 deep') assert.match(r.stdout, /error \[manifest\/invalid-json\] JSON nested deeper than 1000 levels/);
    else
      assert.match(
        r.stderr,
        /is a (character device|FIFO \(named pipe\)), not a regular file|is 1073741824 bytes; Strata reads manifests up to 16777216 bytes/,
        `${what}: ${r.stderr}`,
      );
  }
});

const fileCommands: [string, (path: string) => string[]][] = [
  ['shader inspect', (p) => ['shader', 'inspect', p]],
  ['shader dis', (p) => ['shader', 'dis', p]],
  ['shader validate', (p) => ['shader', 'validate', p]],
  ['override apply --config', (p) => ['override', 'apply', '--config', p]],
  ['profile import', (p) => ['profile', 'import', p]],
];
for (const [label, args] of fileCommands) {
  test(`strata ${label}: each hostile file is one clear line on stderr, exit non-zero, bounded`, () => {
    for (const [what, path] of Object.entries(hostile)) {
      const r = strata(args(path));
      assert.notEqual(r.status, 0, `${what}: ${r.stdout}`);
      // A deep JSON file is not SPIR-V: the shader commands' own report of that (validate prints it as a diagnostic on stdout).
      if (what === 'JSON nested 100,000 deep' && label.startsWith('shader')) {
        assert.match(r.stdout + r.stderr, /SPIR-V|magic/i, `${label}: ${r.stdout}${r.stderr}`);
        continue;
      }
      assert.equal(r.stderr.trim().split('\n').length, 1, `${what}: one line\n${r.stderr}`);
      const expected =
        what === 'JSON nested 100,000 deep'
          ? /deeper than 1000 levels|NestingTooDeep/
          : what === 'a 1 GiB sparse file'
            ? /is 1073741824 bytes; Strata reads \w+ up to \d+ bytes/
            : /is a (character device|FIFO \(named pipe\)), not a regular file/;
      assert.match(r.stderr, expected, `${label} ${what}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /Maximum call stack|internal/i, `${label} ${what}: ${r.stderr}`);
    }
  });
}

test('profile list with a FIFO among the profiles: answers, naming the FIFO', () => {
  const r = strata(['profile', 'list', '--json']);
  assert.match(r.stdout + r.stderr, /trap\.json is a FIFO \(named pipe\), not a regular file/);
});

test('the browser host: hostile paths and requests through the channels, then the next request works', async () => {
  const run = startAndWaitForUrl(process.execPath, [STRATA_BIN, 'serve', '--port', '0'], home.env, 30_000);
  try {
    const url = await run.url;
    const token = new URL(url).hash.replace(/^#token=/, '');
    const call = async (channel: string, body: unknown) => {
      const res = await fetch(new URL(`/api/${channel}`, url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Strata-Token': token },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, body: (await res.json()) as { ok: boolean; error?: { code: string; message: string }; value?: unknown } };
    };
    for (const [what, path] of Object.entries(hostile)) {
      if (what === 'JSON nested 100,000 deep') {
        // A regular file: linted, and its one diagnostic says why it is not read further.
        const lint = await call('lint.files', { paths: [path] });
        assert.match(JSON.stringify(lint.body), /JSON nested deeper than 1000 levels/);
        continue;
      }
      const r = await call('shader.inspect', { path });
      assert.equal(r.body.ok, false, what);
      assert.match(r.body.error!.code, /^shader\/(unreadable|too-large)$/, `${what}: ${JSON.stringify(r.body.error)}`);
      const lint = await call('lint.files', { paths: [path] });
      assert.equal(lint.body.ok, false, what);
      assert.match(lint.body.error!.message, /not a regular file|is 1073741824 bytes/, what);
    }
    const tooDeep = await call('profiles.import', { text: deep(100_000), source: 'deep.json' });
    assert.equal(tooDeep.body.ok, false);
    assert.match(JSON.stringify(tooDeep.body.error), /NestingTooDeep/);
    const many = await call('chain.explain', { requestedLayers: Array.from({ length: 200_000 }, (_, i) => `VK_LAYER_${i}`) });
    assert.equal(many.status, 400);
    assert.match(many.body.error!.message, /at most 1024 requested layers/);
    const discovered = await call('discovery.manifests', {});
    assert.equal(discovered.body.ok, true, JSON.stringify(discovered.body.error));
    const listed = await call('profiles.list', {});
    assert.equal(listed.body.ok, true);
    assert.equal((await call('app.info', {})).body.ok, true, 'the server still answers');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${run.child.pid}/status`, 'utf8'));
    assert.ok(hwm && Number(hwm[1]) < MEMORY_BOUND_KB, `the server peaked at ${hwm?.[1]} kB`);
  } finally {
    run.child.kill('SIGTERM');
  }
});

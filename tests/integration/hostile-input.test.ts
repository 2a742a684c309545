import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, STRATA_BIN, startAndWaitForUrl } from '../helpers/strata-cli';
import { FileDiagnosticsSchema } from '../../shared/lint/diagnostic-schema';
import { DiscoveredManifestSchema } from '../../shared/discovery/manifest-inventory-schema';
import { SESSION_FORMAT } from '../../shared/sessions/session-records';

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
/** A session header line as the session writer makes it; `copy` is the one field of any shape (the profile applied). */
const sessionHeader = (id: string, copy: unknown = {}) =>
  JSON.stringify({
    kind: 'header',
    format: SESSION_FORMAT,
    id,
    application: { command: '/bin/true', args: [], cwd: '/tmp', resolvedPath: '/bin/true' },
    profile: { name: 'p', copy },
    chain: null,
    chainError: null,
    environment: { set: {}, unset: [], inherited: {} },
    loaderDebug: null,
    validationRouting: { mode: 'off', note: null },
    timeoutMs: null,
    startedAt: '2024-01-01T00:00:00.000Z',
    startWall: 1,
    strataVersion: '0.1.0',
    strataPid: 999999,
    notes: [],
  });

let home: TempHome;
let work: string;
let layerDir: string;
let sessionsDir: string;
const hostile: Record<string, string> = {};
/** Session ids in the sessions folder, and what `sessions list` must say about each file. */
const hostileSessions: Record<string, RegExp> = {
  fifo: /fifo\.jsonl is a FIFO \(named pipe\), not a regular file/,
  zero: /zero\.jsonl is a character device, not a regular file/,
  huge: /the first line is over 16777216 bytes: not a session header/,
  'deep-header': /the first line nests JSON deeper than 1000 levels/,
};

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
  // The sessions folder ($XDG_STATE_HOME/strata/sessions): Strata's own, but anything can be put there.
  // A FIFO once froze `strata serve` whole (a blocking open on its one thread).
  sessionsDir = join(home.env['XDG_STATE_HOME']!, 'strata', 'sessions');
  mkdirSync(sessionsDir, { recursive: true });
  execFileSync('mkfifo', [join(sessionsDir, 'fifo.jsonl')]);
  symlinkSync('/dev/zero', join(sessionsDir, 'zero.jsonl'));
  writeFileSync(join(sessionsDir, 'huge.jsonl'), '');
  truncateSync(join(sessionsDir, 'huge.jsonl'), 1 << 30);
  // (Spliced in as text: JSON.stringify itself overflows the stack on such a value.)
  writeFileSync(join(sessionsDir, 'deep-header.jsonl'), `${sessionHeader('deep-header', 'DEEP').replace('"DEEP"', deep(100_000))}\n`);
  // A good session whose records are hostile: a 64 MiB line without a line break, and one nested 100,000 deep.
  writeFileSync(
    join(sessionsDir, 'good.jsonl'),
    `${sessionHeader('good')}\n${JSON.stringify({ kind: 'line', stream: 'stdout', t: 1, wall: 1, text: 'before' })}\n${'x'.repeat(64 << 20)}\n${deep(100_000)}\n${JSON.stringify({ kind: 'line', stream: 'stdout', t: 2, wall: 2, text: 'after' })}\n`,
  );
});

after(() => {
  home.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** bin/strata under /usr/bin/time: exit status, output, and the peak RSS in KiB. */
function strata(args: string[], env: NodeJS.ProcessEnv = home.env) {
  const r = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, STRATA_BIN, ...args], {
    cwd: APP_ROOT,
    env,
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

  const layers = DiscoveredManifestSchema.array().parse(JSON.parse(strata(['layer', 'list', '--json']).stdout));
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

test("strata driver negotiate: a hostile file named as a driver manifest is that driver's clear error, before any probe reads it", () => {
  for (const [what, path] of Object.entries(hostile)) {
    const r = strata(['driver', 'negotiate', '--json', path]);
    assert.equal(r.status, 1, `${what}: ${r.stderr}`);
    const report = JSON.parse(r.stdout) as { drivers: { ok: boolean; error: { code: string; message: string } | null }[] };
    assert.equal(report.drivers.length, 1);
    const error = report.drivers[0]!.error;
    assert.equal(error?.code, 'driver/manifest-unreadable', `${what}: ${JSON.stringify(error)}`);
    // Not "the driver crashed the probe" or "hangs while loading": the file is what is wrong, and it says what.
    assert.match(
      error.message,
      what === 'JSON nested 100,000 deep'
        ? /deeper than 1000 levels/
        : what === 'a 1 GiB sparse file'
          ? /is 1073741824 bytes; Strata reads manifests up to/
          : /is a (character device|FIFO \(named pipe\)), not a regular file/,
      `${what}: ${error.message}`,
    );
  }
});

test('strata info: a device, FIFO or deeply nested manifest among the implicit layers is left to the probe; Strata itself neither hangs nor crashes', () => {
  // vkEnumerateInstanceVersion scans the implicit layers (trampoline.c), so `strata info` reads them to decide whether the
  // loader may answer in process (main/bridge/loader-version-in-process.ts). It once read /dev/zero to 3 GB, waited on a FIFO
  // forever, and ran 1.3.x's cJSON on a deep file in its own process (SIGSEGV). What the real loader then does with the
  // file, in the probe, is the loader's own (it hangs on the FIFO as an application would): the probe's error says so.
  for (const [what, make] of [
    ['a symlink to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)],
    ['a FIFO', (p: string) => execFileSync('mkfifo', [p])],
    ['JSON nested 100,000 deep', (p: string) => writeFileSync(p, `{"file_format_version":"1.1.0","layer":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)],
  ] as const) {
    const own = makeTempHome();
    try {
      const dir = join(own.env['XDG_CONFIG_HOME']!, 'vulkan', 'implicit_layer.d');
      mkdirSync(dir, { recursive: true });
      make(join(dir, 'hostile.json'));
      const r = strata(['info', '--json'], own.env);
      assert.notEqual(r.status, null, `${what}: strata info was killed by a signal`);
      assert.doesNotMatch(r.stderr, /Maximum call stack|Invalid string length|bad_alloc/, `${what}: ${r.stderr}`);
      const info = JSON.parse(r.stdout) as { loader?: unknown };
      assert.ok(info.loader !== undefined, `${what}: ${r.stdout}`);
    } finally {
      own.cleanup();
    }
  }
});

test("strata launch: a 1 GiB layer settings file (vkconfig's, or VK_LAYER_SETTINGS_PATH's) is named in the session, not read", () => {
  // Validation routing reads the user's settings file to keep it (main/sessions/validation-routing.ts); it once read 1 GiB.
  const own = makeTempHome();
  try {
    const vkconfig = join(own.env['XDG_DATA_HOME']!, 'vulkan', 'settings.d');
    const mine = join(own.dir, 'settings');
    for (const dir of [vkconfig, mine]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'vk_layer_settings.txt'), '');
      truncateSync(join(dir, 'vk_layer_settings.txt'), 1 << 30);
    }
    const r = strata(['launch', '--', '/bin/true'], own.env);
    assert.equal(r.status, 0, r.stderr);
    rmSync(join(vkconfig, 'vk_layer_settings.txt'));
    const r2 = strata(['launch', '--', '/bin/true'], { ...own.env, VK_LAYER_SETTINGS_PATH: mine });
    assert.equal(r2.status, 0, r2.stderr);
    const list = JSON.parse(strata(['session', 'list', '--json'], own.env).stdout) as { sessions: { id: string }[] };
    const notes = list.sessions.map((s) =>
      JSON.stringify(
        (JSON.parse(strata(['session', 'show', s.id, '--json'], own.env).stdout) as { header: { validationRouting: unknown; notes: unknown } }).header,
      ),
    );
    for (const file of [join(vkconfig, 'vk_layer_settings.txt'), join(mine, 'vk_layer_settings.txt')])
      assert.ok(
        notes.some((n) => n.includes(`${file} is 1073741824 bytes`)),
        `no session names ${file}: ${notes.join('\n')}`,
      );
  } finally {
    own.cleanup();
  }
});

test('profile list with a FIFO among the profiles: answers, naming the FIFO', () => {
  const r = strata(['profile', 'list', '--json']);
  assert.match(r.stdout + r.stderr, /trap\.json is a FIFO \(named pipe\), not a regular file/);
});

test('the sessions folder: each hostile file is listed as not read, with why; the good session lists, shows and exports', () => {
  const r = strata(['session', 'list', '--json']);
  const list = JSON.parse(r.stdout) as { sessions: { id: string }[]; unreadable: { file: string; reason: string }[] };
  assert.deepEqual(
    list.sessions.map((s) => s.id),
    ['good'],
  );
  for (const [id, reason] of Object.entries(hostileSessions)) {
    const entry = list.unreadable.find((u) => u.file === join(sessionsDir, `${id}.jsonl`));
    assert.ok(entry, `${id}.jsonl is not listed as unreadable: ${JSON.stringify(list.unreadable)}`);
    assert.match(entry.reason, reason);
  }
  // The human listing says so too, with exit 1 (files it could not read), like `strata profile list`.
  const text = strata(['session', 'list']);
  assert.equal(text.status, 1, text.stderr);
  for (const id of Object.keys(hostileSessions)) assert.match(text.stdout, new RegExp(`${id}\\.jsonl`), text.stdout);

  for (const id of Object.keys(hostileSessions)) {
    for (const args of [
      ['session', 'show', id],
      ['session', 'export', id, '--format', 'html', '-o', join(work, `${id}.html`)],
      ['session', 'search', '--id', id, '--grep', 'x'],
    ]) {
      const bad = strata(args);
      assert.notEqual(bad.status, 0, `${args.join(' ')}: ${bad.stdout}`);
      assert.equal(bad.stderr.trim().split('\n').length, 1, `${args.join(' ')}: one line\n${bad.stderr}`);
      assert.match(bad.stderr, new RegExp(`${id}\\.jsonl`), `${args.join(' ')}: names the file: ${bad.stderr}`);
      assert.doesNotMatch(bad.stderr, /Invalid string length|Maximum call stack|internal/i, `${args.join(' ')}: ${bad.stderr}`);
    }
  }
  // The over-long line and the deep record count as damaged; the records around them are kept.
  const shown = strata(['session', 'show', 'good', '--lines', '--json']);
  assert.equal(shown.status, 0, shown.stderr);
  const open = JSON.parse(shown.stdout) as { records: { text?: string }[] };
  assert.deepEqual(
    open.records.map((x) => x.text),
    ['before', 'after'],
  );
  const exported = strata(['session', 'export', 'good', '--format', 'html', '-o', join(work, 'good.html')]);
  assert.equal(exported.status, 0, exported.stderr);
  assert.match(readFileSync(join(work, 'good.html'), 'utf8'), /after/);
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
    // The same question through a profile once overflowed the stack; 200,000 manifests started a probe each.
    const names = Array.from({ length: 200_000 }, (_, i) => `VK_LAYER_${i}`);
    const viaProfile = await call('profiles.explain', { name: 'API dump', requestedLayers: names });
    assert.equal(viaProfile.status, 400, JSON.stringify(viaProfile.body.error));
    assert.match(viaProfile.body.error!.message, /at most 1024 requested layers/);
    const drivers = await call('drivers.negotiate', { manifests: names.map((n) => `/nowhere/${n}.json`) });
    assert.equal(drivers.status, 400, JSON.stringify(drivers.body.error));
    assert.match(drivers.body.error!.message, /at most 1024 driver manifests/);
    const discovered = await call('discovery.manifests', {});
    assert.equal(discovered.body.ok, true, JSON.stringify(discovered.body.error));
    const listed = await call('profiles.list', {});
    assert.equal(listed.body.ok, true);
    // The sessions folder holds a FIFO: the list answers (naming it), so does every call after it.
    const sessions = await call('sessions.list', {});
    assert.equal(sessions.body.ok, true, JSON.stringify(sessions.body.error));
    assert.match(JSON.stringify(sessions.body.value), /fifo\.jsonl is a FIFO/);
    for (const id of Object.keys(hostileSessions)) {
      const opened = await call('sessions.open', { id });
      assert.equal(opened.body.ok, false, id);
      assert.equal(opened.body.error!.code, 'sessions/unreadable', `${id}: ${JSON.stringify(opened.body.error)}`);
    }
    assert.equal((await call('app.info', {})).body.ok, true, 'the server still answers');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${run.child.pid}/status`, 'utf8'));
    assert.ok(hwm && Number(hwm[1]) < MEMORY_BOUND_KB, `the server peaked at ${hwm?.[1]} kB`);
  } finally {
    await run.stop();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempHome, type TempHome } from '../helpers/temp-home';
import { APP_ROOT, runStrata, strataCommand } from '../helpers/strata-cli';
import { buildLargeModule, spirvDis } from '../helpers/shader-corpus';

/**
 * The CLI writes its output to descriptors 1 and 2 itself (main/hosts/cli/standard-streams.ts), as
 * the real bin/strata runs it (from its startup snapshot for `layer list`): the whole text reaches a
 * slow reader, a reader that goes away ends the command quietly, and a descriptor another process
 * made non-blocking still gets every byte, in order, through Node's stream. Descriptors are set up
 * with Debian's perl and sh, as the suite runs there (Windows keeps Node's streams, and its lane
 * runs the CLI under Wine from the same suite).
 */

/** A home with enough layers that `strata layer list --json` prints several pipe-fulls (~64 KiB each). */
function homeWithManyLayers(count: number): TempHome {
  const home = makeTempHome();
  const dir = join(home.env['XDG_CONFIG_HOME']!, 'vulkan', 'explicit_layer.d');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const layer = {
      name: `VK_LAYER_STRATA_streams_${i}`,
      type: 'GLOBAL',
      library_path: `./libstreams_${i}.so`,
      api_version: '1.3.239',
      implementation_version: '1',
      description: `layer ${i}: ${'so that the listing is long '.repeat(8)}`,
    };
    writeFileSync(join(dir, `streams_${i}.json`), JSON.stringify({ file_format_version: '1.1.0', layer }, null, 2));
  }
  return home;
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs `command`; its stdout is read only after `holdMs` (a slow reader), or closed after `closeAfterBytes`. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, opts: { holdMs?: number; closeAfterBytes?: number } = {}): Promise<Finished> {
  const child = spawn(command, args, { cwd: APP_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  let read = 0;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  if (opts.holdMs) {
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), opts.holdMs);
  }
  child.stdout.on('data', (d: Buffer) => {
    chunks.push(d);
    read += d.length;
    if (opts.closeAfterBytes !== undefined && read >= opts.closeAfterBytes) child.stdout.destroy();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not end within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(chunks), stderr });
    });
  });
}

test('strata layer list --json: a slow reader gets every byte, the same as a reader that takes it at once', async () => {
  const home = homeWithManyLayers(150);
  try {
    const whole = runStrata(['layer', 'list', '--json'], home.env);
    assert.equal(whole.status, 0, whole.stderr);
    assert.ok(whole.stdout.length > 4 * 65536, `the listing is ${whole.stdout.length} bytes: several pipe-fulls`);
    const { command, args } = strataCommand(['layer', 'list', '--json']);
    const slow = await run(command, args, home.env, { holdMs: 500 });
    assert.equal(slow.code, 0, `${slow.signal} ${slow.stderr}`);
    assert.equal(slow.stdout.toString('utf8'), whole.stdout);
  } finally {
    home.cleanup();
  }
});

test('strata layer list --json | head: the reader goes away, and the command ends with exit 0 and nothing on stderr', async () => {
  const home = homeWithManyLayers(150);
  try {
    const { command, args } = strataCommand(['layer', 'list', '--json']);
    const cut = await run(command, args, home.env, { closeAfterBytes: 1000 });
    assert.equal(cut.signal, null);
    assert.equal(cut.code, 0);
    assert.equal(cut.stderr, '');
  } finally {
    home.cleanup();
  }
});

test('a non-blocking standard output (set so by another process): the whole text, in order, through Node’s stream', async () => {
  const home = homeWithManyLayers(150);
  try {
    const whole = runStrata(['layer', 'list', '--json'], home.env);
    assert.equal(whole.status, 0, whole.stderr);
    // libuv hands a child blocking standard streams; perl (part of every Debian) makes descriptor 1
    // non-blocking, then becomes bin/strata. The reader waits, so the pipe fills and write(2) says EAGAIN.
    const setNonBlocking =
      'use Fcntl; my $f = fcntl(STDOUT, F_GETFL, 0); fcntl(STDOUT, F_SETFL, $f | O_NONBLOCK) or die "fcntl: $!"; exec @ARGV or die "exec: $!"';
    const { command, args } = strataCommand(['layer', 'list', '--json']);
    const r = await run('perl', ['-e', setNonBlocking, command, ...args], home.env, { holdMs: 500 });
    assert.equal(r.code, 0, `${r.signal} ${r.stderr}`);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout.toString('utf8'), whole.stdout);
  } finally {
    home.cleanup();
  }
});

test('strata shader dis, whose text is written as bytes: a slow reader of a non-blocking output gets spirv-dis’s text, every byte in order', async () => {
  // ~600 KB of text: many pipe-fulls, so the write meets EAGAIN and goes on through Node's stream.
  const large = buildLargeModule(80);
  const home = makeTempHome();
  try {
    const expected = spirvDis(large.path);
    assert.ok(expected.length > 4 * 65536, `the text is ${expected.length} bytes: several pipe-fulls`);
    const setNonBlocking =
      'use Fcntl; my $f = fcntl(STDOUT, F_GETFL, 0); fcntl(STDOUT, F_SETFL, $f | O_NONBLOCK) or die "fcntl: $!"; exec @ARGV or die "exec: $!"';
    const { command, args } = strataCommand(['shader', 'dis', '--raw-id', large.path]);
    for (const r of [
      await run(command, args, home.env, { holdMs: 300 }),
      await run('perl', ['-e', setNonBlocking, command, ...args], home.env, { holdMs: 300 }),
    ]) {
      assert.equal(r.code, 0, `${r.signal} ${r.stderr}`);
      assert.equal(r.stderr, '');
      assert.ok(r.stdout.equals(expected), `${r.stdout.length} bytes against spirv-dis's ${expected.length}`);
    }
  } finally {
    home.cleanup();
    large.cleanup();
  }
});

test('strata explain with standard output closed (>&-): nothing is written and the command still succeeds, as with Node’s own stream', async () => {
  const home = makeTempHome();
  try {
    const { command, args } = strataCommand(['explain', '--json']);
    const child = spawn('sh', ['-c', '"$0" "$@" >&-', command, ...args], { cwd: APP_ROOT, env: home.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '');
  } finally {
    home.cleanup();
  }
});

/**
 * The CLI's startup snapshots (bin/cli-snapshot.cjs, written by scripts/build.mjs) and bin/strata's
 * shell part, which starts Node from one (issue #19). What is checked:
 * - the build wrote one snapshot per group, each with the checkout and the Node it is for, and
 *   bin/strata's `case` names the same groups;
 * - the shell part's choice, with a stand-in `node` that prints how it was started: the snapshot only
 *   for its commands, only for this checkout and this Node, never for a help page or `--version`,
 *   through a symlink and a relative path too; anything else runs the file as Node's script;
 * - commands started from the snapshots answer byte for byte as the script does, in a HOME unlike the
 *   warm-up's (nothing of the warm-up's manifests shows), and really come from the snapshot (`sh -x`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { APP_ROOT, STRATA_BIN } from '../helpers/strata-cli';
import { makeTempHome, withTempHome, type TempHome } from '../helpers/temp-home';
import { buildShaderCorpus } from '../helpers/shader-corpus';
import { SHELL_TUNABLES } from '../../main/hosts/cli/node-environment';

const POSIX = process.platform !== 'win32';
const SNAPSHOTS = join(APP_ROOT, 'out', 'main', 'snapshots');
const { SNAPSHOT_GROUPS, SNAPSHOT_NODE_FLAGS } = createRequire(import.meta.url)(join(APP_ROOT, 'bin', 'cli-snapshot.cjs')) as {
  SNAPSHOT_GROUPS: string[];
  SNAPSHOT_NODE_FLAGS: string[];
};

/**
 * The `--v8-pool-size` the shell part gives a snapshot process: one fewer background thread than
 * the machine's cores (at least one) up to four cores, Node's default (no flag) above that or where
 * Linux's sysfs does not say.
 */
function expectedPoolFlag(): string[] {
  let cores = 0;
  try {
    cores = readdirSync('/sys/devices/system/cpu').filter((n) => /^cpu\d/.test(n)).length;
  } catch {
    // Not Linux: no count, no flag.
  }
  return cores > 0 && cores <= 4 ? [`--v8-pool-size=${Math.max(1, cores - 1)}`] : [];
}

test('the build wrote a snapshot per group, for this checkout and this Node; bin/strata names the same groups', { skip: !POSIX && 'POSIX only' }, () => {
  assert.deepEqual(SNAPSHOT_GROUPS, ['explain', 'discovery', 'shader']);
  for (const group of SNAPSHOT_GROUPS) {
    assert.ok(existsSync(join(SNAPSHOTS, `${group}.blob`)), `${group}.blob`);
    const [root, node] = readFileSync(join(SNAPSHOTS, `${group}.blob.for`), 'utf8').split('\n');
    assert.equal(root, APP_ROOT.replace(/\/$/, ''));
    assert.equal(node, process.execPath);
  }
  const script = readFileSync(STRATA_BIN, 'utf8');
  const named = [...script.matchAll(/\) group=(\w+) ;;/g)].map((m) => m[1]);
  assert.deepEqual([...new Set(named)].sort(), [...SNAPSHOT_GROUPS].sort());
});

/** A copy of bin/strata in a checkout of its own, with stand-in snapshots and a stand-in `node` on PATH that prints its arguments. */
function fakeCheckout(home: TempHome) {
  const app = join(home.dir, 'app');
  const bin = join(home.dir, 'fake-node-bin');
  mkdirSync(join(app, 'bin'), { recursive: true });
  mkdirSync(join(app, 'out', 'main', 'snapshots'), { recursive: true });
  mkdirSync(bin);
  copyFileSync(STRATA_BIN, join(app, 'bin', 'strata'));
  const node = join(bin, 'node');
  writeFileSync(node, '#!/bin/sh\nprintf "%s\\n" "$0" "$@"\n');
  chmodSync(node, 0o755);
  const forFile = (group: string) => join(app, 'out', 'main', 'snapshots', `${group}.blob.for`);
  for (const group of SNAPSHOT_GROUPS) {
    writeFileSync(join(app, 'out', 'main', 'snapshots', `${group}.blob`), '');
    writeFileSync(forFile(group), `${app}\n${node}\n`);
  }
  // Without NODE_OPTIONS, which the shell part also reads (below), whatever the test runner's is.
  const { NODE_OPTIONS: _ignored, ...base } = home.env;
  const env = { ...base, PATH: `${bin}:${home.env['PATH'] ?? '/usr/bin:/bin'}` };
  /** The stand-in node's arguments, one per line, for `strata ARGS` run as `program` from `cwd`. */
  const run = (args: string[], program = join(app, 'bin', 'strata'), cwd = home.dir, extra: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(program, args, { cwd, env: { ...env, ...extra }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', 'the shell part says nothing');
    return r.stdout.trimEnd().split('\n');
  };
  return { app, node, forFile, run };
}

test(
  "bin/strata's shell part starts Node from a snapshot only for its commands, this checkout and this Node",
  { skip: !POSIX && 'POSIX only' },
  withTempHome((home) => {
    const { app, node, forFile, run } = fakeCheckout(home);
    const strata = join(app, 'bin', 'strata');
    // Under the flags the snapshots were built with (one list: cli-snapshot.cjs's).
    const snapshot = (group: string, args: string[]) => [
      node,
      ...SNAPSHOT_NODE_FLAGS,
      ...expectedPoolFlag(),
      '--snapshot-blob',
      join(app, 'out', 'main', 'snapshots', `${group}.blob`),
      '--',
      ...args,
    ];
    const script = (args: string[], file = strata) => [node, file, ...args];

    assert.deepEqual(run(['explain', '--json']), snapshot('explain', ['explain', '--json']));
    for (const args of [
      ['layer', 'list'],
      ['layers', 'list', '--json'],
      ['driver', 'list'],
      ['lint', 'x.json'],
      ['path', 'list'],
      ['env', 'show'],
    ])
      assert.deepEqual(run(args), snapshot('discovery', args), args.join(' '));
    assert.deepEqual(run(['shader', 'dis', '--raw-id', 'a b.spv']), snapshot('shader', ['shader', 'dis', '--raw-id', 'a b.spv']), 'arguments pass as they are');
    // Other commands, help pages and --version: the script (it answers those at Node's start alone).
    for (const args of [[], ['--version'], ['info', '--json'], ['loader', 'show'], ['explain', '--help'], ['layer', 'list', '-h'], ['serve']])
      assert.deepEqual(run(args), script(args), args.join(' ') || '(no arguments)');
    // NODE_OPTIONS may hold a V8 flag (--max-old-space-size), with which Node refuses any snapshot: the script.
    assert.deepEqual(run(['explain'], strata, home.dir, { NODE_OPTIONS: '--max-old-space-size=4096' }), script(['explain']), 'NODE_OPTIONS');
    assert.deepEqual(run(['explain'], strata, home.dir, { NODE_OPTIONS: '' }), snapshot('explain', ['explain']), 'an empty NODE_OPTIONS');
    // Through a symlink (npm's bin folder) and a relative path: the same snapshot.
    const link = join(home.dir, 'strata-link');
    symlinkSync(strata, link);
    assert.deepEqual(run(['explain'], link), snapshot('explain', ['explain']));
    const relative = run(['explain'], './bin/strata', app);
    const blobAt = 2 + SNAPSHOT_NODE_FLAGS.length + expectedPoolFlag().length;
    assert.equal(relative[blobAt - 1], '--snapshot-blob');
    assert.ok(relative[blobAt]!.endsWith('/out/main/snapshots/explain.blob'), relative[blobAt]);

    // A Node changed since the snapshot was built (updated in place): the script.
    utimesSync(node, new Date(), new Date(Date.now() + 60_000));
    assert.deepEqual(run(['explain']), script(['explain']), 'a Node newer than the snapshot');
    utimesSync(node, new Date(), new Date(Date.now() - 60_000));
    assert.deepEqual(run(['explain']), snapshot('explain', ['explain']));
    // Built by another Node, or for another checkout (one moved since): the script.
    writeFileSync(forFile('explain'), `${app}\n${process.execPath === node ? '/bin/sh' : process.execPath}\n`);
    assert.deepEqual(run(['explain']), script(['explain']), 'another Node');
    writeFileSync(forFile('explain'), `${home.dir}\n${node}\n`);
    assert.deepEqual(run(['explain']), script(['explain']), 'another checkout');
    // No note beside the snapshot, or no snapshot (a build that could not make it): the script, quietly.
    rmSync(forFile('explain'));
    assert.deepEqual(run(['explain']), script(['explain']), 'no .for');
    rmSync(join(app, 'out', 'main', 'snapshots', 'discovery.blob'));
    assert.deepEqual(run(['layer', 'list']), script(['layer', 'list']), 'no snapshot');
  }),
);

test(
  "glibc's huge pages: the shell part adds GLIBC_TUNABLES only for a snapshot and only when the user set none, and says so",
  { skip: !POSIX && 'POSIX only' },
  withTempHome((home) => {
    const { node, run } = fakeCheckout(home);
    // This stand-in prints what the shell part exported instead of its arguments.
    writeFileSync(node, '#!/bin/sh\nprintf "%s\\n" "${GLIBC_TUNABLES-unset}" "${STRATA_GLIBC_TUNABLES_ADDED-unset}"\n');
    // Not newer than the snapshots (a Node changed since they were built goes to the script).
    utimesSync(node, new Date(), new Date(Date.now() - 60_000));
    const clean = { GLIBC_TUNABLES: undefined, STRATA_GLIBC_TUNABLES_ADDED: undefined };
    assert.deepEqual(run(['explain'], undefined, undefined, clean), [SHELL_TUNABLES, '1'], 'a snapshot command, no tunables of the user');
    assert.deepEqual(run(['shader', 'dis', 'x.spv'], undefined, undefined, clean), [SHELL_TUNABLES, '1']);
    assert.deepEqual(
      run(['explain'], undefined, undefined, { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }),
      ['glibc.malloc.arena_max=2', 'unset'],
      "the user's own",
    );
    assert.deepEqual(run(['explain'], undefined, undefined, { GLIBC_TUNABLES: '' }), ['', 'unset'], 'set, if empty, is the user’s');
    assert.deepEqual(run(['info'], undefined, undefined, clean), ['unset', 'unset'], 'the script (no snapshot): nothing added');
    // The CLI removes exactly what the shell part wrote (main/hosts/cli/node-environment.ts).
    assert.ok(readFileSync(STRATA_BIN, 'utf8').includes(`GLIBC_TUNABLES=${SHELL_TUNABLES}\n`));
  }),
);

/** Manifests unlike the warm-up's: an explicit and an implicit layer, a driver, a broken file. */
function writeManifests(home: TempHome) {
  const data = join(home.env['XDG_DATA_HOME']!, 'vulkan');
  const write = (file: string, value: unknown) => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const layer = (name: string, extra: object = {}) => ({
    file_format_version: '1.2.0',
    layer: {
      name,
      type: 'GLOBAL',
      library_path: `/nonexistent/lib${name}.so`,
      api_version: '1.3.250',
      implementation_version: '2',
      description: `${name} (snapshot test)`,
      ...extra,
    },
  });
  write(join(data, 'explicit_layer.d', 'one.json'), layer('VK_LAYER_TEST_snapshot_explicit'));
  write(join(data, 'implicit_layer.d', 'two.json'), layer('VK_LAYER_TEST_snapshot_implicit', { disable_environment: { TEST_SNAPSHOT_OFF: '1' } }));
  write(join(data, 'icd.d', 'icd.json'), { file_format_version: '1.0.1', ICD: { library_path: '/nonexistent/libtest_icd.so', api_version: '1.3.250' } });
  write(join(home.dir, 'broken.json'), '{ "file_format_version": "1.2.0", "layer": [ }');
}

test(
  'commands started from the snapshots answer as the script does, and nothing of the warm-up shows',
  { skip: !POSIX && 'POSIX only' },
  withTempHome((home) => {
    delete home.env['NODE_OPTIONS']; // (a V8 flag there would send every command to the script)
    writeManifests(home);
    const corpus = buildShaderCorpus();
    try {
      const spv = corpus.modules.find((m) => m.name === 'compute-ssbo.comp')!.path;
      const vert = corpus.modules.find((m) => m.name === 'vertex-attributes.vert')!.path;
      const vbc = join(home.dir, 'packed.vbc');
      // Every command of each group, for every service a group's bundle holds (main/router/handlers.ts).
      const commands = [
        ['explain', '--json'],
        ['explain', '--enable-layers', 'VK_LAYER_TEST_snapshot_explicit'],
        ['explain', '--env', 'TEST_SNAPSHOT_OFF=1', '--json'],
        ['explain', '--compare', '1.4.309'],
        ['explain', '--profile', 'validation-standard'],
        ['explain', '--loader-version', '1.3.275', '--json'],
        ['layer', 'list', '--json'],
        ['layer', 'list'],
        ['layer', 'inspect', 'VK_LAYER_TEST_snapshot_explicit'],
        ['driver', 'list'],
        ['driver', 'negotiate', join(home.env['XDG_DATA_HOME']!, 'vulkan', 'icd.d', 'icd.json')],
        ['lint', '--json'],
        ['lint', join(home.dir, 'broken.json')],
        ['path', 'list', '--json'],
        ['env', 'show', '--json'],
        ['shader', 'dis', spv],
        ['shader', 'dis', '--raw-id', spv],
        ['shader', 'inspect', spv],
        ['shader', 'validate', spv],
        ['shader', 'pack', '--vert', vert, '-o', vbc],
        ['shader', 'dis', vbc],
      ];
      // What differs from run to run: how long a library took to load.
      const steady = (text: string) => text.replace(/\b\d+ ms\b/g, 'N ms');
      for (const args of commands) {
        const what = args.join(' ');
        // As bin/strata runs it, traced: the command that the shell part ran is the last line it traced.
        const traced = spawnSync('sh', ['-x', STRATA_BIN, ...args], { cwd: home.dir, env: home.env, encoding: 'utf8', timeout: 60_000 });
        const ran =
          traced.stderr
            .split('\n')
            .filter((l) => l.startsWith('+ exec '))
            .pop() ?? '';
        assert.match(ran, /--snapshot-blob \S+\/out\/main\/snapshots\/\w+\.blob -- /, `${what}: ${ran}`);
        const script = spawnSync(process.execPath, [STRATA_BIN, ...args], { cwd: home.dir, env: home.env, encoding: 'utf8', timeout: 60_000 });
        const stderr = traced.stderr
          .split('\n')
          .filter((l) => !l.startsWith('+ '))
          .join('\n');
        assert.equal(steady(traced.stdout), steady(script.stdout), `${what}: stdout`);
        assert.equal(steady(stderr), steady(script.stderr), `${what}: stderr`);
        assert.equal(traced.status, script.status, `${what}: exit status`);
        assert.doesNotMatch(traced.stdout, /STRATA_warm_up|warm_up_icd|warm-up\.spv/, `${what}: the warm-up's files`);
      }
      // With a V8 flag in NODE_OPTIONS (which the snapshots were not built with) the command still answers.
      const flagged = spawnSync(STRATA_BIN, ['explain', '--json'], {
        cwd: home.dir,
        env: { ...home.env, NODE_OPTIONS: '--max-old-space-size=4096' },
        encoding: 'utf8',
      });
      assert.equal(flagged.status, 0, flagged.stderr);
      assert.equal(flagged.stdout, spawnSync(process.execPath, [STRATA_BIN, 'explain', '--json'], { cwd: home.dir, env: home.env, encoding: 'utf8' }).stdout);
    } finally {
      corpus.cleanup();
    }
  }),
);

test('a snapshot is built only by its builder: required, the file names the groups and their flags, and runs nothing', () => {
  const r = spawnSync(process.execPath, ['-e', `console.log(JSON.stringify(require(${JSON.stringify(join(APP_ROOT, 'bin', 'cli-snapshot.cjs'))})))`], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { SNAPSHOT_GROUPS, SNAPSHOT_NODE_FLAGS });
  const home = makeTempHome();
  try {
    const bad = spawnSync(
      process.execPath,
      ['--snapshot-blob', join(home.dir, 'x.blob'), '--build-snapshot', join(APP_ROOT, 'bin', 'cli-snapshot.cjs'), 'nonsense'],
      { encoding: 'utf8', env: home.env },
    );
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /no snapshot group "nonsense" \(explain, discovery, shader\)/);
    assert.equal(existsSync(join(home.dir, 'x.blob')), false);
  } finally {
    home.cleanup();
  }
});

test(
  'NODE_EXTRA_CA_CERTS: Node does not read it as the command starts, and what Strata launches sees it as set',
  { skip: !POSIX && 'POSIX only (bin/strata is a shell script there)' },
  withTempHome((home) => {
    // A file that does not exist: Node warns as it starts when it reads the variable.
    const env = { ...home.env, NODE_EXTRA_CA_CERTS: join(home.dir, 'no-such-bundle.pem') };
    for (const args of [
      ['explain', '--json'],
      ['path', 'list'],
    ]) {
      const r = spawnSync(STRATA_BIN, args, { cwd: home.dir, env, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /extra certs/i, `strata ${args.join(' ')}`);
    }
    const launched = spawnSync(
      STRATA_BIN,
      ['launch', '--', 'sh', '-c', 'printf "ca=%s aside=%s\\n" "$NODE_EXTRA_CA_CERTS" "${STRATA_NODE_EXTRA_CA_CERTS-unset}"'],
      {
        cwd: home.dir,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.equal(launched.status, 0, launched.stderr);
    assert.ok(launched.stdout.includes(`ca=${env.NODE_EXTRA_CA_CERTS} aside=unset`), launched.stdout);
    // Without the shell part (Node runs the file), Node reads it as it always does.
    const script = spawnSync(process.execPath, [STRATA_BIN, 'path', 'list'], { cwd: home.dir, env, encoding: 'utf8', timeout: 60_000 });
    assert.match(script.stderr, /extra certs/i, 'the check above can fail: Node warns when it reads the variable');
  }),
);

// The CLI's V8 startup snapshots (issue #19: start-up). Built by scripts/build.mjs, used by bin/strata.
//
// Through the code cache (bin/code-cache.cjs) a command still initializes the bundle's modules (zod's
// classes, the schemas) and Node's built-ins every time it starts: ~30 of the ~110 ms of `strata
// explain`. A startup snapshot is a heap written after that work was done: Node starts from it instead
// of its own (`node --snapshot-blob FILE -- ARGS`), with the bundle loaded and, because V8 keeps the
// bytecode of every function that ran, compiled as far as the warm-up commands below reached.
//
// scripts/build.mjs runs `node SNAPSHOT_NODE_FLAGS --snapshot-blob out/main/snapshots/GROUP.blob --build-snapshot
// bin/cli-snapshot.cjs GROUP` for each group: this file loads out/main/cli-GROUP.cjs (the CLI with
// that group's commands alone) as Node loads a CommonJS file, runs the group's warm-up commands in an
// environment of its own (a temporary HOME and XDG folders holding a few manifests and a SPIR-V
// module: never the builder's own configuration), forgets every fact about the build machine
// (shared/app/machine-facts.ts), and names the function a snapshot process runs. The build writes
// `GROUP.blob.for` beside the blob: the checkout and the Node binary it is for, which bin/strata
// checks (another Node refuses a snapshot it did not write).
//
// In a snapshot process the bundle's `require` is Node's, made for the bundle's path at start: a
// snapshot's builder may only require built-in modules (so nothing here requires bin/code-cache.cjs),
// and koffi is required at run time.
'use strict';
const { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { startupSnapshot } = require('node:v8');
const { Script } = require('node:vm');

/** The snapshots, one per group of commands (see warmUpCommands); bin/strata's `case` names the same. */
const SNAPSHOT_GROUPS = ['explain', 'discovery', 'shader'];

/**
 * Node's flags for building and running every snapshot (V8 refuses a snapshot run under other V8
 * flags): bin/strata's `exec` line names the same (tests/integration/cli-snapshot.test.ts checks).
 * - A young generation of 4 MB semi-spaces instead of 16: `strata layer list --json` on 10,000
 *   manifests peaks ~20 MB lower (~138 MB against ~158), in the same time; `explain` and `shader dis`
 *   are unchanged (issue #19, peak RSS).
 * - At most 150 bytes of bytecode inlined into one optimized function instead of V8's 920: a
 *   one-shot command's optimizing compiles (~0.6 s of a core in `layer list` on 10,000 manifests,
 *   started from code that has run for milliseconds) end sooner, and take less of the core that a
 *   reader of the output shares (issue #19, paired on 2 cores: layer list 0.92–0.94, shader dis
 *   0.92–0.93, explain 0.99; 80 and 230 gained less, and so did capping each inlined function).
 */
const SNAPSHOT_NODE_FLAGS = ['--max-semi-space-size=4', '--max-inlined-bytecode-size-cumulative=150'];

if (!startupSnapshot.isBuildingSnapshot()) {
  // Required, not built: scripts/build.mjs asks which snapshots to build, and with which flags.
  module.exports = { SNAPSHOT_GROUPS, SNAPSHOT_NODE_FLAGS };
  return;
}

// `--build-snapshot bin/cli-snapshot.cjs GROUP`.
const group = process.argv[2];
if (!SNAPSHOT_GROUPS.includes(group)) {
  process.stderr.write(`bin/cli-snapshot.cjs: no snapshot group ${JSON.stringify(group)} (${SNAPSHOT_GROUPS.join(', ')})\n`);
  process.exit(2);
}

const root = dirname(__dirname);
// The group's bundle: the CLI with that group's commands alone (scripts/build.mjs buildCliGroupBundle).
const cliPath = join(root, 'out', 'main', `cli-${group}.cjs`);

/** What the bundle's `require` calls: the builder's (built-ins only) while building, Node's own afterwards. */
let requireNow = require;
const bundleRequire = (id) => requireNow(id);

// As bin/code-cache.cjs compiles it: the same wrapper, file name and text, so stacks read the same.
const bytes = readFileSync(cliPath);
const source = bytes.toString(require('node:buffer').isAscii(bytes) ? 'latin1' : 'utf8');
const cli = { exports: {}, filename: cliPath, id: cliPath, loaded: false };
new Script(Module.wrap(source), { filename: cliPath }).runInThisContext()(cli.exports, bundleRequire, cli, cliPath, dirname(cliPath));
cli.loaded = true;

/**
 * A compute shader as glslangValidator 11 compiles `layout(local_size_x = 1) in; void main() {}`, for
 * `shader dis` to compile its decoder and printer: 32-bit words, written little-endian.
 */
const WARM_UP_SPIRV = [
  0x07230203, 0x00010000, 0x0008000b, 0x0000000a, 0x00000000, 0x00020011, 0x00000001, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000,
  0x0003000e, 0x00000000, 0x00000001, 0x0005000f, 0x00000005, 0x00000004, 0x6e69616d, 0x00000000, 0x00060010, 0x00000004, 0x00000011, 0x00000001, 0x00000001,
  0x00000001, 0x00030003, 0x00000002, 0x000001c2, 0x00040005, 0x00000004, 0x6e69616d, 0x00000000, 0x00040047, 0x00000009, 0x0000000b, 0x00000019, 0x00020013,
  0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00040015, 0x00000006, 0x00000020, 0x00000000, 0x00040017, 0x00000007, 0x00000006, 0x00000003, 0x0004002b,
  0x00000006, 0x00000008, 0x00000001, 0x0006002c, 0x00000007, 0x00000009, 0x00000008, 0x00000008, 0x00000008, 0x00050036, 0x00000002, 0x00000004, 0x00000000,
  0x00000003, 0x000200f8, 0x00000005, 0x000100fd, 0x00010038,
];

/** A few manifests of each kind the warm-up commands read, in XDG folders of their own. */
function warmUpTree(dir) {
  const write = (file, value) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value, null, 2));
  };
  const layer = (name, extra) => ({
    file_format_version: '1.2.0',
    layer: { name, type: 'GLOBAL', library_path: `./lib${name}.so`, api_version: '1.3.250', implementation_version: '1', description: name, ...extra },
  });
  const data = join(dir, 'data', 'vulkan');
  write(
    join(data, 'explicit_layer.d', 'warm_up_explicit.json'),
    layer('VK_LAYER_STRATA_warm_up', { instance_extensions: [{ name: 'VK_EXT_debug_utils', spec_version: '2' }] }),
  );
  write(
    join(data, 'implicit_layer.d', 'warm_up_implicit.json'),
    layer('VK_LAYER_STRATA_warm_up_implicit', { enable_environment: { STRATA_WARM_UP_ENABLE: '1' }, disable_environment: { STRATA_WARM_UP_DISABLE: '1' } }),
  );
  write(join(data, 'implicit_layer.d', 'warm_up_meta.json'), {
    file_format_version: '1.1.2',
    layer: {
      name: 'VK_LAYER_STRATA_warm_up_meta',
      type: 'GLOBAL',
      api_version: '1.3.250',
      implementation_version: '1',
      description: 'meta',
      component_layers: ['VK_LAYER_STRATA_warm_up'],
      disable_environment: { STRATA_WARM_UP_DISABLE: '1' },
    },
  });
  write(join(data, 'icd.d', 'warm_up_icd.json'), { file_format_version: '1.0.1', ICD: { library_path: './libwarm_up_icd.so', api_version: '1.3.250' } });
  write(join(dir, 'broken', 'broken.json'), '{ "file_format_version": "1.2.0", "layer": { "name": 3, }');
  const spirv = Buffer.alloc(WARM_UP_SPIRV.length * 4);
  WARM_UP_SPIRV.forEach((w, i) => spirv.writeUInt32LE(w >>> 0, i * 4));
  write(join(dir, 'warm-up.spv'), spirv);
}

/**
 * A group's warm-up commands, in the forms people run them. One snapshot per group: a snapshot holds
 * what its warm-up compiled and built (the SPIR-V grammar's tables, say), and every process started
 * from it deserializes all of that, so one snapshot for everything made `strata explain` ~10 ms
 * slower than one of its own. bin/strata picks the group by the command's first word.
 */
function warmUpCommands(group, dir) {
  const spv = join(dir, 'warm-up.spv');
  switch (group) {
    case 'explain':
      return [['explain', '--json'], ['explain']];
    case 'discovery':
      return [
        ['layer', 'list', '--json'],
        ['layer', 'list'],
        ['driver', 'list', '--json'],
        ['driver', 'list'],
        ['lint', '--json', join(dir, 'broken', 'broken.json'), join(dir, 'data', 'vulkan', 'explicit_layer.d')],
        ['lint', join(dir, 'broken', 'broken.json')],
        ['path', 'list'],
        ['env', 'show'],
      ];
    case 'shader':
      return [
        ['shader', 'dis', '--raw-id', spv],
        ['shader', 'dis', spv],
        ['shader', 'inspect', '--json', spv],
      ];
    default:
      return null;
  }
}

async function warmUp(group) {
  const dir = mkdtempSync(join(tmpdir(), 'strata-snapshot-'));
  const saved = { ...process.env };
  try {
    warmUpTree(dir);
    for (const key of Object.keys(process.env)) if (key !== 'PATH') delete process.env[key];
    Object.assign(process.env, {
      HOME: join(dir, 'home'),
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_CACHE_HOME: join(dir, 'cache'),
      XDG_CONFIG_DIRS: join(dir, 'etc'),
      XDG_DATA_DIRS: join(dir, 'share'),
      STRATA_WARM_UP_ENABLE: '1',
    });
    for (const args of warmUpCommands(group, dir)) {
      await cli.exports.main(args, { earlyProbe: null });
      // A command that finds problems sets the exit code (lint does, on the broken manifest): a snapshot
      // process starts with the code of none, and a builder that ends with one writes no snapshot.
      process.exitCode = undefined;
    }
    // The program the snapshot process parses its arguments with, built now (cli.ts prepareProgram),
    // before the facts it read (Strata's package.json) are forgotten.
    await cli.exports.prepareProgram();
  } finally {
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, saved);
    rmSync(dir, { recursive: true, force: true });
    cli.exports.forgetMachineFacts();
    cli.exports.forgetStandardStreams();
  }
}

/**
 * What a snapshot process runs: bin/strata's work after Node's start, the bundle being loaded already.
 * No early probe: no group's command asks the probe (bin/strata starts `loader` and `device` from
 * the script, whose probe starts before the CLI loads).
 */
async function runFromSnapshot() {
  requireNow = Module.createRequire(cliPath);
  // `node --snapshot-blob FILE -- ARGS`: Node keeps its own path and the arguments.
  process.exitCode = await cli.exports.main(process.argv.slice(1), { earlyProbe: null });
  // Ends once the output is written, not when Node's loop does: at the loop's end Node waits for V8's
  // queued background work, optimizing compiles of functions that will never run again (~15-20 ms
  // of a cold `shader dis` spent idle; issue #19). Everything the command started it has awaited; a
  // probe it leaves ends with its input. What Node's streams still hold (where the CLI had to use them:
  // main/hosts/cli/standard-streams.ts) is written first.
  await cli.exports.streamsFlushed();
  process.exit();
}

warmUp(group).then(
  () => startupSnapshot.setDeserializeMainFunction(runFromSnapshot),
  (e) => {
    process.stderr.write(`strata: the startup snapshot's warm-up failed: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  },
);

import { envOption, unsetOption } from './env-option';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { findAppRoot, rendererDir } from '../../platform/app-paths';
import { strataError } from '../../../shared/errors/strata-error';
import type { ChannelName, RequestOf, ResponseOf } from '../../../shared/ipc/contract';
import { EXIT, jsonOption, printError, printJson, printJsonArray, timeoutMsOption } from './cli-output';
import { currentSpelling } from './cli-grammar';
import { formatAppInfo, formatEnvSummary } from './info-command';
import { PROBE_ENV_WHAT, formatDevices, formatLoaderInfo, probeRequest } from './vulkan-commands';
import { addLayersInspectCommand } from './layers-inspect-command';
import { driversNegotiateAction } from './drivers-command';
import { formatDiscoveryPaths } from './paths-command';
import { join } from 'node:path';
import { shaderDisAction, shaderInspectAction, shaderValidateAction } from './shader-command';
import { shaderPackAction } from './vbc-command';
import { adoptEarlyProbe, callChannel, CliFailure, releaseEarlyProbe } from './cli-channel';
import { restoreNodeEnvironment } from './node-environment';
import { keepLinkerFactsIn } from '../../../native-bridge/library-resolver';
import { linkerFactsFile } from '../../discovery/linker-facts-file';
import type { PrelaunchedProbe } from '../../bridge/probe-prelaunch';
import type { LayerFilter } from './discovery-commands';
import { addOverrideCommands } from './override-command';
import { addSettingsCommands } from './settings-command';
import { addExplainCommand } from './chain-command';
import { addSessionCommands } from './session-commands';
import { addProfileCommands } from './profile-command';
import { isTerminal, writeErr, writeOut } from './standard-streams';

interface LayersListOptions {
  json?: boolean;
  implicit?: boolean;
  explicit?: boolean;
  elevated?: boolean;
}

const ELEVATED_HELP = 'as an elevated (setuid/setgid) application sees it: VK_* paths, XDG_* and HOME ignored';
const discoveryRequest = (o: { json?: boolean; elevated?: boolean }) => (o.elevated ? { elevated: true } : {});

function layerFilter(o: LayersListOptions): LayerFilter {
  if (o.implicit && o.explicit) return 'all';
  return o.implicit ? 'implicit' : o.explicit ? 'explicit' : 'all';
}

interface ReadOptions<C extends ChannelName, O> {
  /** The human form (a promise when its formatter is loaded on first use). */
  format: (value: ResponseOf<C>, opts: O) => string | Promise<string>;
  /** What `--json` prints, when not the whole answer. */
  json?: (value: ResponseOf<C>, opts: O) => unknown;
  /** Exit 1 when the answer shows a problem. */
  problems?: (value: ResponseOf<C>, opts: O) => boolean;
  /** The request, from the options; `{}` when not given. */
  request?: (opts: O) => RequestOf<C>;
}

/** The action of a read command: JSON with `--json`, the human form otherwise. */
function readCommand<C extends ChannelName, O extends { json?: boolean } = { json?: boolean }>(channel: C, read: ReadOptions<C, O>) {
  return async (opts: O) => {
    const value = await callChannel(channel, read.request ? read.request(opts) : ({} as RequestOf<C>));
    if (opts.json) {
      const json = read.json ? read.json(value, opts) : value;
      // `layers list` / `drivers list`: thousands of entries on a large tree, written as they are made.
      if (Array.isArray(json)) await printJsonArray(json);
      else printJson(json);
    } else writeOut(`${await read.format(value, opts)}\n`);
    if (read.problems?.(value, opts)) process.exitCode = EXIT.problems;
  };
}

/**
 * What a command needs beyond parsing its arguments is loaded when it runs, so that `--help` and
 * argument errors load commander and this file's light neighbours only (issue #19: start-up).
 * The discovery formatters bring the LSP types (vscode-languageserver-types).
 */
const discoveryFormats = () => import('./discovery-commands');

function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a whole number from 0 to 65535 (0 picks a free port)');
  return n;
}

/** How long a link printed for a person stays usable (once). */
const PRINTED_LINK_TTL_MS = 60 * 60_000;

async function serve(options: { port: number; host?: string; open?: boolean; printToken?: boolean }) {
  const [{ createAppContext }, { startBrowserHost, isLoopback, openInBrowser }] = await Promise.all([import('../app-context'), import('../serve/entry')]);
  const root = findAppRoot();
  const host = options.host ?? '127.0.0.1';
  const ctx = createAppContext({ root });
  let running;
  try {
    running = await startBrowserHost({
      router: ctx.router,
      bus: ctx.bus,
      rendererDir: rendererDir(root),
      browserPreloadFile: join(root, 'out', 'preload', 'browser.js'),
      firstRequestFile: join(root, 'out', 'preload', 'browser-first-request.js'),
      host,
      port: options.port,
      attachClient: () => ctx.attachUiClient(),
    });
  } catch (e) {
    ctx.dispose();
    const err = e as NodeJS.ErrnoException;
    const fix =
      err.code === 'EADDRINUSE'
        ? 'choose another --port, or --port 0 for any free one'
        : err.code === 'EADDRNOTAVAIL'
          ? 'use an address of this machine with --host'
          : undefined;
    throw new CliFailure(
      strataError('serve/listen-failed', `Cannot listen on ${host}:${options.port}: ${err.code ?? err.message}`, fix ? { fix } : {}),
      EXIT.problems,
    );
  }
  if (!isLoopback(host)) {
    writeErr(
      `strata: warning: listening on ${host}, reachable from other machines. Anyone with the URL's token can run any command as you on this machine, and plain HTTP sends it unencrypted: use this only on a network you trust, or tunnel (ssh -L) to a loopback server instead.\n`,
    );
  }
  // A person at a terminal gets a one-time link (a code the page trades for the token once), so the
  // browser's history never holds the token; scripts (stdout not a terminal, or --print-token) get the
  // token URL they can reuse. Enter prints another link, for another tab or browser.
  const person = isTerminal('stdout') && !options.printToken;
  if (person) {
    const link = () => running.oneTimeUrl(undefined, PRINTED_LINK_TTL_MS);
    writeOut(
      `Strata is running at ${link()}\nThe link opens Strata once (it holds a one-time code, not the token). Press Enter for another link, Ctrl+C to stop.\n`,
    );
    process.stdin.on('data', () => writeOut(`Another one-time link: ${link()}\n`));
  } else writeOut(`Strata is running at ${running.url}\nPress Ctrl+C to stop.\n`);
  const removeLaunchFile = options.open ? openInBrowser(running) : () => {};
  void ctx
    .warmUp('browser')
    .then(() => running.prepareFirstView())
    .catch(() => undefined);
  await new Promise<void>((resolve) => {
    const stop = () => {
      ctx.bus.emit('host.notice', { level: 'warning', message: 'The Strata server has stopped. Start `strata serve` again and open its new URL.' });
      removeLaunchFile();
      if (person) process.stdin.pause();
      void running.close().then(() => resolve());
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  ctx.dispose();
}

/** Commander's message as our one line: "unknown option '--jsn' (did you mean --json?). Fix: …". */
export function reshapeUsageError(text: string, command: string | null): string {
  const message = text
    .replace(/^error:\s*/, '')
    .replace(/\s*\n\s*\(Did you mean (.*)\)\s*$/s, ' (did you mean $1)')
    .replace(/\s+/g, ' ')
    .trim();
  return `strata: ${message}. Fix: see \`strata ${command ? `${command} ` : ''}--help\`\n`;
}

/** `strata info`. */
function addInfoCommand(program: Command): void {
  program
    .command('info')
    .description('Strata version, platform, and the Vulkan loader found on this machine')
    .option(...jsonOption())
    .action(readCommand('app.info', { format: formatAppInfo, problems: (info) => !info.loader.found }));
}

/** `strata env show`, `strata path list`. */
function addEnvAndPathCommands(program: Command): void {
  program
    .command('env')
    .description('the environment the loader reads')
    .command('show')
    .description('the Vulkan-related environment variables that are set, and the XDG folders the loader uses')
    .option(...jsonOption())
    .action(readCommand('env.summary', { format: formatEnvSummary }));

  program
    .command('path')
    .description("the loader's search folders")
    .command('list')
    .description('where the Vulkan loader looks for layers and drivers, in its order, with where each folder comes from and whether it exists')
    .option(...jsonOption())
    .option('--elevated', ELEVATED_HELP)
    .action(readCommand('discovery.paths', { format: formatDiscoveryPaths, request: discoveryRequest }));
}

/** `strata loader show`, `strata device list`: the real loader's answers, through the probe. */
function addLoaderAndDeviceCommands(program: Command): void {
  program
    .command('loader')
    .description('the Vulkan loader installed here')
    .command('show')
    .description('what the real Vulkan loader reports: its version, instance layers and instance extensions')
    .option(...jsonOption())
    .option(...envOption(PROBE_ENV_WHAT))
    .option(...unsetOption(PROBE_ENV_WHAT))
    .action(readCommand('loader.info', { format: formatLoaderInfo, request: probeRequest }));

  program
    .command('device')
    .description('Vulkan physical devices')
    .command('list')
    .description(
      'the physical devices the real Vulkan loader enumerates, with their drivers and the driver manifest each came from (exit 1 when there are none)',
    )
    .option(...jsonOption())
    .option(...envOption(PROBE_ENV_WHAT))
    .option(...unsetOption(PROBE_ENV_WHAT))
    .action(readCommand('devices.list', { format: formatDevices, problems: (r) => r.devices.length === 0, request: probeRequest }));
}

/** `strata layer list`, `strata driver list`, `strata lint`, `strata driver negotiate`. */
function addListAndLintCommands(program: Command): void {
  program
    .command('layer')
    .description('Vulkan layers')
    .command('list')
    .description('every layer the loader would find, in its order, with type, versions, origin and problems')
    .option(...jsonOption())
    .option('--implicit', 'implicit layers only')
    .option('--explicit', 'explicit layers only')
    .option('--elevated', ELEVATED_HELP)
    .action(
      readCommand('discovery.manifests', {
        request: discoveryRequest,
        format: async (inv, o: LayersListOptions) => (await discoveryFormats()).formatLayers(inv, layerFilter(o)),
        json: (inv, o: LayersListOptions) => [
          ...(layerFilter(o) !== 'explicit' ? inv.manifests.implicit_layer : []),
          ...(layerFilter(o) !== 'implicit' ? inv.manifests.explicit_layer : []),
        ],
      }),
    );

  const drivers = program.command('driver').description('Vulkan drivers (ICDs)');
  drivers
    .command('list')
    .description('every driver manifest the loader would find, in its order, with library, API version, origin and problems')
    .option(...jsonOption())
    .option('--elevated', ELEVATED_HELP)
    .action(
      readCommand('discovery.manifests', {
        format: async (inv) => (await discoveryFormats()).formatDrivers(inv),
        json: (inv) => inv.manifests.driver,
        request: discoveryRequest,
      }),
    );

  program
    .command('lint')
    .description(
      'diagnose layer and driver manifests and vk_loader_settings.json as the loader reads them (no argument: everything discovered, and the settings file); exit 1 on any error',
    )
    .argument('[paths...]', 'manifest files or folders of them')
    .option(...jsonOption('[{uri, diagnostics}]'))
    .action(async (paths: string[], opts: { json?: boolean }) => {
      const { formatLint, inventoryAsLint, lintHasErrors } = await discoveryFormats();
      // No argument: everything discovered, and the loader settings file the installed loader reads.
      const results = paths.length
        ? await callChannel('lint.files', { paths })
        : [...inventoryAsLint(await callChannel('discovery.manifests', {})), ...(await callChannel('lint.files', { paths: [], settingsFile: true }))];
      if (opts.json) printJson(results);
      else writeOut(`${formatLint(results)}\n`);
      if (lintHasErrors(results)) process.exitCode = EXIT.problems;
    });

  drivers
    .command('negotiate')
    .description('load each driver on its own and negotiate the loader–driver interface, as the loader does (exit 1 when any driver fails)')
    .argument('[manifest...]', 'driver manifests (default: those the loader finds)')
    .option(...jsonOption())
    .option(...timeoutMsOption('driver'))
    .option(...envOption(PROBE_ENV_WHAT))
    .option(...unsetOption(PROBE_ENV_WHAT))
    .action(driversNegotiateAction);
}

/** `strata shader disassemble|inspect|pack|validate`. */
function addShaderCommands(program: Command): void {
  const shader = program.command('shader').description('SPIR-V modules and VBC files: disassemble, inspect (reflection), validate, pack');
  shader
    .command('disassemble')
    // The name spirv-dis users type; a short form kept on purpose, not a deprecated spelling.
    .alias('dis')
    .description(
      'disassemble a SPIR-V module, text identical to `spirv-dis` (friendly names from OpName, types and constants) or `spirv-dis --raw-id` (exit 1 when the module is corrupt)',
    )
    .argument('<file>', 'a SPIR-V binary (.spv), either byte order, or a VBC file (each stage in turn)')
    .option('--raw-id', 'number ids as %N, like `spirv-dis --raw-id`')
    .option(...jsonOption('text, ok, diagnostics'))
    .action(shaderDisAction);
  shader
    .command('inspect')
    .description(
      'summary and reflection of a SPIR-V module: entry points, interface, descriptor bindings, push constants, specialization constants; of a VBC file: header, sections, its reflection cross-checked against each stage (exit 1 when the file has errors)',
    )
    .argument('<file>', 'a SPIR-V binary (.spv), either byte order, or a VBC file (.vbc, told by its magic)')
    .option(...jsonOption('summary, reflection, diagnostics'))
    .action(shaderInspectAction);
  shader
    .command('pack')
    .description(
      'pack SPIR-V stages into a VBC ("Vega ByteCode") file with reflection derived from them (exit 1 when a stage does not validate, the stages do not link, or VBC cannot describe them)',
    )
    .option('--vert <file>', 'vertex stage SPIR-V')
    .option('--tesc <file>', 'tessellation control stage SPIR-V')
    .option('--tese <file>', 'tessellation evaluation stage SPIR-V')
    .option('--geom <file>', 'geometry stage SPIR-V')
    .option('--frag <file>', 'fragment stage SPIR-V')
    .requiredOption('-o, --output <file>', 'the VBC file to write')
    .option(...jsonOption('ok, output, byteLength, reflection, diagnostics'))
    .action(shaderPackAction);
  shader
    .command('validate')
    .description(
      "check a SPIR-V module's logical layout and ids (SPIR-V § 2.4), or a VBC file (header, sections, each stage, cross-check); exit 1 on any error",
    )
    .argument('<file>', 'a SPIR-V binary (.spv), either byte order, or a VBC file (.vbc, told by its magic)')
    .option(...jsonOption('ok, diagnostics'))
    .action(shaderValidateAction);
}

/** `strata serve`. */
function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run Strata in your browser: serves the UI on 127.0.0.1 with a one-time token')
    .option('--port <n>', 'port to listen on (0: any free port)', parsePort, 0)
    .option('--host <addr>', 'address to bind; anything but loopback exposes Strata to the network')
    .option('--open', 'open the URL in the default browser')
    .option('--print-token', 'print the reusable token URL even at a terminal (scripts get it whenever stdout is not a terminal)')
    .action(serve);
}

export function buildProgram(version: string): Command {
  let subcommand: string | null = null;
  const program = new Command('strata')
    .description('Strata: see and control which Vulkan layers and drivers an application gets, and why.')
    .version(version, '-V, --version', 'print the Strata version')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      // Help, --version and usage errors as every other byte the CLI prints (standard-streams.ts).
      writeOut,
      writeErr,
      // Commander's own usage errors, reshaped into our one-line form.
      outputError: (text, write) => write(reshapeUsageError(text, subcommand)),
    })
    .hook('preSubcommand', (_program, sub) => {
      subcommand = sub.name();
    });

  // The grammar (docs/cli.md): `strata <noun> <verb>`; the product's main actions (info, explain,
  // lint, launch, serve) are verbs of their own. In this order (the help pages').
  //
  // A startup snapshot's bundle holds its group's commands alone (scripts/build.mjs defines
  // __STRATA_CLI_GROUP__ for it; bin/cli-snapshot.cjs names the groups, bin/strata picks one by the
  // command's first word): esbuild drops the others, and the modules only they use, so that every
  // command started from the snapshot reads back less of it (issue #19). The test stays in each
  // condition as written, for esbuild to decide it: a constant it would not see through.
  if (typeof __STRATA_CLI_GROUP__ === 'undefined') addInfoCommand(program);
  if (typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery') addEnvAndPathCommands(program);
  if (typeof __STRATA_CLI_GROUP__ === 'undefined') addLoaderAndDeviceCommands(program);
  if (typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery') addListAndLintCommands(program);
  if (typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'shader') addShaderCommands(program);
  if (typeof __STRATA_CLI_GROUP__ === 'undefined') {
    addOverrideCommands(program);
    addSettingsCommands(program);
  }
  if (typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'explain') addExplainCommand(program);
  if (typeof __STRATA_CLI_GROUP__ === 'undefined') {
    addSessionCommands(program);
    addProfileCommands(program);
  }
  if (typeof __STRATA_CLI_GROUP__ === 'undefined' || __STRATA_CLI_GROUP__ === 'discovery') addLayersInspectCommand(program);
  if (typeof __STRATA_CLI_GROUP__ === 'undefined') addServeCommand(program);

  return program;
}

/** `earlyProbe`: the default probe bin/strata started before loading this bundle (early-probe.ts), for the command to take. */
export async function main(argv: readonly string[], options: { earlyProbe?: PrelaunchedProbe | null } = {}): Promise<number> {
  restoreNodeEnvironment(process.env);
  // The linker's facts are kept in the user's cache folder between commands (a process less for
  // every discovery on a machine with "$LIB" manifests). The CLI's environment is the user's own.
  keepLinkerFactsIn(linkerFactsFile);
  adoptEarlyProbe(options.earlyProbe ?? null);
  try {
    return await runProgram(argv);
  } finally {
    releaseEarlyProbe();
  }
}

async function appVersion(): Promise<string> {
  try {
    return (await import('../../platform/app-paths')).readAppVersion(findAppRoot());
  } catch {
    // Version is cosmetic here; a missing package.json surfaces again in the command itself.
    return '0.0.0';
  }
}

/** A program built before the command line is known, for the next run to take (one run parses it). */
let programAhead: { version: string; program: Command } | null = null;

/**
 * Builds the program the next `main` runs. bin/cli-snapshot.cjs calls this last in each startup
 * snapshot's warm-up, so a command started from the snapshot finds its program built (~3 ms of
 * commander's option objects; issue #19). Nothing in the program depends on the process it runs
 * in: actions read the environment, the terminal and the arguments when they run.
 */
export async function prepareProgram(): Promise<void> {
  const version = await appVersion();
  programAhead = { version, program: buildProgram(version) };
}

async function runProgram(argv: readonly string[]): Promise<number> {
  const version = await appVersion();
  // The program built ahead only for the same version (package.json read again: a checkout changed
  // since the snapshot was written would otherwise print the old one).
  const program = programAhead?.version === version ? programAhead.program : buildProgram(version);
  programAhead = null;
  // Spellings from before the one grammar: rewritten, with a line on stderr (cli-grammar.ts).
  const spelled = currentSpelling(argv);
  if (spelled.notice) writeErr(spelled.notice);
  try {
    await program.parseAsync(spelled.argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (e instanceof CliFailure) {
      printError(e.error);
      return e.exitCode;
    }
    printError(strataError('internal', e instanceof Error ? e.message : String(e), { fix: 'this is a bug in Strata; please report it' }));
    return EXIT.problems;
  }
}

// For bin/cli-snapshot.cjs, which runs this bundle in a startup snapshot (issue #19): what the
// snapshot's builder does after its warm-up commands.
export { forgetMachineFacts } from '../../../shared/app/machine-facts';
export { divertStandardStreams, forgetStandardStreams, streamsFlushed } from './standard-streams';

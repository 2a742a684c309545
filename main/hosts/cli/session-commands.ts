import { envOption, envOverrides, unsetOption } from './env-option';
import { InvalidArgumentError, type Command } from 'commander';
import { strataError, StrataRequestError } from '../../../shared/errors/strata-error';
import type { SessionDiff } from '../../../shared/sessions/session-diff';
import type { LaunchStartRequest, SessionOpen, SessionSummary } from '../../../shared/sessions/session-ipc';
import type { SessionQuery } from '../../../shared/sessions/session-query';
import type { CaptureRecord, MessageRecord, SessionCounts, SessionExit } from '../../../shared/sessions/session-records';
import { LINE_SOURCES, LOADER_DEBUG_WORDS, SEVERITIES } from '../../../shared/sessions/record-words';
import { countsLabel } from '../../../shared/sessions/session-counts-label';
import { findAppRoot } from '../../platform/app-paths';
import type { RunningSession } from '../../sessions/session-service';
import { callChannel, CliFailure } from './cli-channel';
import { EXIT, formatPairs, formatTable, jsonOption, outputOption, printError, printJson, writeOutputFile } from './cli-output';
import { nodeStream, writeErr, writeOut } from './standard-streams';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0 || n > 7 * 24 * 3600) throw new InvalidArgumentError('expected seconds, more than 0 (up to a week)');
  return n;
}

function parseList<T extends string>(allowed: readonly T[], what: string) {
  return (value: string): T[] => {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = items.filter((i) => !(allowed as readonly string[]).includes(i));
    if (bad.length || !items.length) throw new InvalidArgumentError(`${what}: one or more of ${allowed.join(', ')}, separated by commas`);
    return items as T[];
  };
}

export function exitText(exit: SessionExit | null): string {
  if (!exit) return '—';
  if (exit.reason === 'failed-to-start') return 'did not start';
  const how = exit.signal ? exit.signal : `exit ${exit.code}`;
  return exit.reason === 'exited' ? how : `${how} (${exit.reason === 'timeout' ? 'timeout' : 'stopped'})`;
}

function countsText(c: SessionCounts | null): [string, string] {
  return c ? [String(c.messages.error), String(c.messages.warning)] : ['?', '?'];
}

export function formatSessionList(sessions: readonly SessionSummary[], dir: string): string {
  if (sessions.length === 0) return `No sessions in ${dir}. Start one with \`strata launch -- COMMAND\`.`;
  const rows = sessions.map((s) => {
    const [errors, warnings] = countsText(s.counts);
    return [
      s.id,
      s.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      s.status,
      exitText(s.exit),
      errors,
      warnings,
      s.profile ?? '—',
      [s.command, ...s.args].join(' '),
    ];
  });
  return `${formatTable(['ID', 'STARTED', 'STATUS', 'EXIT', 'ERRORS', 'WARNINGS', 'PROFILE', 'COMMAND'], rows)}\n(${dir})`;
}

function messageLines(m: MessageRecord): string[] {
  const out = [`${m.severity.toUpperCase()}  ${m.vuid}  (id ${m.messageId})${m.complete ? '' : '  [cut short]'}`];
  for (const o of m.objects) out.push(`    object ${o.index}: ${o.typeName ?? `type ${o.type}`} ${o.handle}${o.name ? ` "${o.name}"` : ''}`);
  out.push(...m.text.split('\n').map((l) => `    ${l}`));
  if (m.specUrl) out.push(`    spec: ${m.specUrl}`);
  return out;
}

function lineText(r: CaptureRecord): string {
  if (r.kind === 'message') return messageLines(r).join('\n');
  const tag = r.src === 'loader' ? `loader${r.level ? ` ${r.level}` : ''}` : r.src === 'validation' ? 'validation' : r.stream;
  return `${(r.t / 1000).toFixed(3).padStart(9)}  ${tag.padEnd(14)} ${r.text}`;
}

export function formatSessionShow(open: SessionOpen, showLines: boolean): string {
  const { header, footer, counts, summary } = open;
  const rows: [string, string][] = [
    ['session', header.id],
    ['file', summary.file],
    ['command', [header.application.command, ...header.application.args].join(' ')],
    ['executable', header.application.resolvedPath ?? 'not found on PATH'],
    ['folder', header.application.cwd],
    ['profile', header.profile?.name ?? 'none'],
    ['started', header.startedAt],
    ['status', summary.status === 'incomplete' ? 'incomplete: no footer (Strata was killed); the records up to its last line are complete' : summary.status],
    ['exit', exitText(footer?.exit ?? null) + (footer?.exit.error ? `: ${footer.exit.error}` : '')],
    ['duration', footer ? `${(footer.durationMs / 1000).toFixed(3)} s` : '—'],
    ['loader debug', header.loaderDebug ?? 'off'],
    ['validation', header.validationRouting.mode + (header.validationRouting.note ? ` (${header.validationRouting.note})` : '')],
    ['lines', `${counts.lines.stdout} stdout, ${counts.lines.stderr} stderr, ${counts.lines.validation} validation`],
    ['messages', `${counts.messages.error} errors, ${counts.messages.warning} warnings, ${counts.messages.info} info, ${counts.messages.verbose} verbose`],
    ['loader', `${counts.loader.error} errors, ${counts.loader.warning} warnings`],
  ];
  if (open.torn) rows.push(['note', 'the last line was cut short by a crash and is left out']);
  const out = [formatPairs(rows)];
  if (header.chain) {
    out.push('', 'Predicted layer chain (application side first):');
    out.push(...(header.chain.chain.length ? header.chain.chain.map((e, i) => `  ${i + 1}. ${e.name} (${e.type})`) : ['  (no layers)']));
  } else if (header.chainError) out.push('', `Predicted layer chain: not available (${header.chainError})`);
  const messages = open.records.filter((r): r is MessageRecord => r.kind === 'message');
  out.push('', messages.length ? `Validation messages (${messages.length}${open.total > open.records.length ? ' shown' : ''}):` : 'Validation messages: none');
  for (const m of messages) out.push(...messageLines(m).map((l) => `  ${l}`));
  if (showLines) {
    const lines = open.records.filter((r) => r.kind === 'line');
    out.push('', `Output (${lines.length} lines${open.total > open.records.length ? `, ${open.total - open.records.length} more matching` : ''}):`);
    out.push(...lines.map(lineText));
  }
  return out.join('\n');
}

export function formatSessionDiff(d: SessionDiff): string {
  const out = [`a: ${d.a.id}  ${d.a.command}  ${exitText(d.a.exit)}`, `b: ${d.b.id}  ${d.b.command}  ${exitText(d.b.exit)}`, ''];
  if (d.chain.same) out.push(`Chain: the same (${(d.chain.a ?? []).join(' → ') || 'no layers'})`);
  else {
    out.push(
      'Chain:',
      `  a: ${d.chain.a ? d.chain.a.join(' → ') || '(no layers)' : '(not predicted)'}`,
      `  b: ${d.chain.b ? d.chain.b.join(' → ') || '(no layers)' : '(not predicted)'}`,
    );
    if (d.chain.added.length) out.push(`  added in b: ${d.chain.added.join(', ')}`);
    if (d.chain.removed.length) out.push(`  gone in b: ${d.chain.removed.join(', ')}`);
    if (d.chain.moved.length) out.push(`  moved: ${d.chain.moved.join(', ')}`);
  }
  const section = (title: string, items: SessionDiff['messages']['appeared']) => {
    if (!items.length) return;
    out.push('', `${title}:`);
    for (const m of items) out.push(`  ${m.severity.padEnd(7)} ${m.vuid}  a ${m.a}, b ${m.b}`);
  };
  section('Messages only in b (appeared)', d.messages.appeared);
  section('Messages only in a (disappeared)', d.messages.disappeared);
  section('Messages in both, a different number of times', d.messages.changed);
  const sev = ['error', 'warning', 'info', 'verbose'] as const;
  out.push(
    '',
    formatTable(
      ['', ...sev, 'stdout', 'stderr', 'validation lines'],
      [
        [
          'a',
          ...sev.map((s) => String(d.counts.a.messages[s])),
          String(d.counts.a.lines.stdout),
          String(d.counts.a.lines.stderr),
          String(d.counts.a.lines.validation),
        ],
        [
          'b',
          ...sev.map((s) => String(d.counts.b.messages[s])),
          String(d.counts.b.lines.stdout),
          String(d.counts.b.lines.stderr),
          String(d.counts.b.lines.validation),
        ],
      ],
    ),
  );
  return out.join('\n');
}

export function diffDiffers(d: SessionDiff): boolean {
  return !d.chain.same || d.messages.appeared.length > 0 || d.messages.disappeared.length > 0 || d.messages.changed.length > 0;
}

interface QueryOptions {
  grep?: string;
  vuid?: string;
  severity?: SessionQuery['severity'];
  source?: SessionQuery['source'];
}

function queryOf(o: QueryOptions): SessionQuery {
  return {
    ...(o.grep ? { text: o.grep } : {}),
    ...(o.vuid ? { vuid: o.vuid } : {}),
    ...(o.severity ? { severity: o.severity } : {}),
    ...(o.source ? { source: o.source } : {}),
  };
}

function addQueryOptions(cmd: Command): Command {
  return cmd
    .option('--grep <text>', 'only records whose text contains this (any case)')
    .option('--vuid <id>', 'only validation messages with this id (a trailing * matches a prefix)')
    .option('--severity <list>', `only these severities: ${SEVERITIES.join(', ')}`, parseList(SEVERITIES, '--severity'))
    .option('--source <list>', `only lines from: ${LINE_SOURCES.join(', ')}`, parseList(LINE_SOURCES, '--source'));
}

/** "latest" names the newest session, so `strata session show latest` follows `strata launch`. */
async function resolveId(id: string): Promise<string> {
  if (id !== 'latest') return id;
  const list = await callChannel('sessions.list', {});
  const newest = list.sessions[0];
  if (!newest)
    throw new CliFailure(
      strataError('sessions/not-found', 'There are no sessions yet', { where: list.dir, fix: 'start one with `strata launch -- COMMAND`' }),
      EXIT.problems,
    );
  return newest.id;
}

interface LaunchOptions {
  profile?: string;
  loaderDebug?: string;
  timeout?: number;
  env?: Record<string, string | null>;
  unset?: string[];
  cwd?: string;
  validationRouting?: boolean;
  quiet?: boolean;
}

async function launchAction(command: string, args: string[], o: LaunchOptions): Promise<void> {
  const env = envOverrides(o);
  const request: LaunchStartRequest = {
    command,
    args,
    ...(o.cwd ? { cwd: o.cwd } : {}),
    ...(Object.keys(env).length ? { env } : {}),
    ...(o.profile ? { profile: o.profile } : {}),
    ...(o.loaderDebug ? { loaderDebug: o.loaderDebug } : {}),
    ...(o.timeout ? { timeoutS: o.timeout } : {}),
    ...(o.validationRouting === false ? { routeValidation: false } : {}),
  };
  // The app context gives the launch what the UI's launches get: the profile store, and the real
  // loader's version for the predicted chain (from the probe).
  const [{ createAppContext }, { exitStatus }] = await Promise.all([import('../app-context'), import('../../sessions/launcher')]);
  const ctx = createAppContext({ root: findAppRoot() });
  const service = await ctx.sessions();
  let session: RunningSession | undefined;
  try {
    session = await service.start(request, {
      raw: (stream, chunk) => {
        if (o.quiet) return;
        // The application's bytes, unchanged. The validation layer's lines would be on stdout
        // without Strata; on stderr they keep the application's stdout clean for a pipe.
        // A slow terminal or pipe pauses the application instead of filling memory.
        const out = nodeStream(stream === 'stdout' ? 'stdout' : 'stderr');
        if (!out.write(chunk)) {
          session?.launch.pause();
          out.once('drain', () => session?.launch.resume());
        }
      },
    });
  } catch (e) {
    ctx.dispose();
    if (e instanceof StrataRequestError) throw new CliFailure(e.error, EXIT.usage);
    throw e;
  }
  const running = session;
  const stop = () => service.stop(running.id);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  let footer;
  try {
    footer = await running.ended;
  } catch (e) {
    if (e instanceof StrataRequestError) throw new CliFailure(e.error, EXIT.problems);
    throw e;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.off('SIGHUP', stop);
    ctx.dispose();
  }
  const c = footer.counts;
  if (footer.exit.reason === 'failed-to-start') {
    printError(
      strataError('launch/failed-to-start', `Cannot start ${command}: ${footer.exit.error}`, {
        where: session.header.application.cwd,
        fix: 'check the command name and that it is executable; the attempt is saved as session ' + session.id,
      }),
    );
    process.exitCode = EXIT.usage;
    return;
  }
  writeErr(
    `strata: session ${session.id} saved (${session.file}): ${c.lines.stdout + c.lines.stderr + c.lines.validation} lines, ` +
      `${countsLabel(c)}; ${exitText(footer.exit)}\n`,
  );
  process.exitCode = exitStatus(footer.exit);
}

export function addSessionCommands(program: Command): void {
  program
    .command('launch')
    .description(
      "start an application with loader logging and the validation layer's messages captured into a session; streams its output, prints the session id, exits with the application's code (128+N for signal N)",
    )
    .argument('<command>', 'the application (put `--` before it when it has options of its own)')
    .argument('[args...]', "the application's arguments")
    .option('--profile <name>', 'apply this profile to this launch only (through environment variables)')
    .option('--loader-debug <level>', `VK_LOADER_DEBUG for the launch: ${LOADER_DEBUG_WORDS.join(', ')} (comma-separated)`)
    .option('--timeout <seconds>', 'stop the application after this long (SIGTERM, then SIGKILL after 5 s)', parseSeconds)
    .option(...envOption('this launch'))
    .option(...unsetOption('this launch'))
    .option('--cwd <dir>', 'working folder for the application')
    .option('--no-validation-routing', "leave the validation layer's output where it is (its messages are still read from stdout)")
    .option('-q, --quiet', "do not echo the application's output (it is still saved)")
    .action(launchAction);

  const sessions = program.command('session').description('recorded launches: list, show, search, export, diff, delete');
  sessions
    .command('list')
    .description('every session, newest first: status, exit, validation errors and warnings')
    .option(...jsonOption())
    .action(async (o: { json?: boolean }) => {
      const list = await callChannel('sessions.list', {});
      if (o.json) printJson(list);
      else writeOut(`${formatSessionList(list.sessions, list.dir)}\n`);
      // Files in the folder that are not sessions Strata can read: named, with why, never silently left out.
      if (!o.json) for (const u of list.unreadable) writeOut(`  not read: ${u.reason.includes(u.file) ? u.reason : `${u.file}: ${u.reason}`}\n`);
      if (list.unreadable.length) process.exitCode = EXIT.problems;
    });

  addQueryOptions(
    sessions
      .command('show')
      .description('one session: application, profile, predicted chain, exit, counts and validation messages (exit 1 when it has validation errors)')
      .argument('<id>', 'a session id, or "latest"'),
  )
    .option('--lines', 'print the captured output lines as well')
    .option('--limit <n>', 'at most this many records', (v) => Number(v))
    .option(...jsonOption('header, footer, counts, records'))
    .action(async (id: string, o: QueryOptions & { json?: boolean; lines?: boolean; limit?: number }) => {
      const query = queryOf(o);
      const open = await callChannel('sessions.open', {
        id: await resolveId(id),
        ...(Object.keys(query).length ? { query } : o.lines || o.json ? {} : { query: { kind: ['message'] } }),
        limit: o.limit && o.limit > 0 ? Math.min(o.limit, 50_000) : 50_000,
      });
      if (o.json) printJson(open);
      else writeOut(`${formatSessionShow(open, o.lines === true || Object.keys(query).length > 0)}\n`);
      if (open.counts.messages.error > 0) process.exitCode = EXIT.problems;
    });

  addQueryOptions(sessions.command('search').description('records matching the filters in every session (or those given with --id)'))
    .option('--id <id>', 'search only this session (repeatable)', collect)
    .option(...jsonOption())
    .action(async (o: QueryOptions & { id?: string[]; json?: boolean }) => {
      const query = queryOf(o);
      if (Object.keys(query).length === 0)
        throw new CliFailure(
          strataError('usage', 'Nothing to search for', { where: 'strata session search', fix: 'give --grep, --vuid, --severity or --source' }),
          EXIT.usage,
        );
      const result = await callChannel('sessions.search', { query, ...(o.id ? { ids: o.id } : {}) });
      if (o.json) printJson(result);
      else if (result.results.length === 0) writeOut('No matches.\n');
      else
        for (const r of result.results) {
          writeOut(`${r.summary.id}  ${[r.summary.command, ...r.summary.args].join(' ')}: ${r.matches} match${r.matches === 1 ? '' : 'es'}\n`);
          for (const rec of r.records) writeOut(`${lineText(rec).replace(/^/gm, '  ')}\n`);
        }
    });

  sessions
    .command('export')
    .description('a session as JSON, or as an HTML report with no external resources, to a file or stdout')
    .argument('<id>', 'a session id, or "latest"')
    .option(
      '--format <format>',
      'json or html',
      (v) => {
        if (v !== 'json' && v !== 'html') throw new InvalidArgumentError('json or html');
        return v;
      },
      'json',
    )
    .option(...outputOption())
    .action(async (id: string, o: { format: 'json' | 'html'; output?: string }) => {
      const result = await callChannel('sessions.export', { id: await resolveId(id), format: o.format });
      if (o.output) {
        await writeOutputFile(o.output, result.text);
        writeErr(`strata: wrote ${o.output}\n`);
      } else writeOut(result.text);
    });

  sessions
    .command('diff')
    .description('compare two sessions: predicted chains, messages that appeared or disappeared by VUID, counts by severity (exit 1 when they differ)')
    .argument('<a>', 'the earlier session id')
    .argument('<b>', 'the later session id, or "latest"')
    .option(...jsonOption())
    .action(async (a: string, b: string, o: { json?: boolean }) => {
      const d = await callChannel('sessions.diff', { a: await resolveId(a), b: await resolveId(b) });
      if (o.json) printJson(d);
      else writeOut(`${formatSessionDiff(d)}\n`);
      if (diffDiffers(d)) process.exitCode = EXIT.problems;
    });

  sessions
    .command('delete')
    .description('delete sessions (not while they are running)')
    .argument('<ids...>', 'session ids')
    .option(...jsonOption())
    .action(async (ids: string[], o: { json?: boolean }) => {
      const results = [];
      for (const id of ids) results.push(await callChannel('sessions.delete', { id }));
      if (o.json) printJson(results);
      else for (const r of results) writeOut(`deleted ${r.id}\n`);
    });
}

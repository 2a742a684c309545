import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyCounts, SESSION_FORMAT, type SessionFooter, type SessionHeader } from '../../shared/sessions/session-records';

/**
 * Session files written by hand, record by record, for the tests of the session store, its export
 * and its channels: what a crash, a tamperer or an older Strata could leave in the sessions folder.
 */
export function sessionHeader(id: string, overrides: Partial<SessionHeader> = {}): SessionHeader {
  return {
    kind: 'header',
    format: SESSION_FORMAT,
    id,
    application: { command: '/bin/app', args: [], cwd: '/tmp', resolvedPath: '/bin/app' },
    profile: null,
    chain: null,
    chainError: null,
    environment: { set: {}, unset: [], inherited: {} },
    loaderDebug: null,
    validationRouting: { mode: 'off', note: null },
    timeoutMs: null,
    startedAt: '2024-01-01T00:00:00.000Z',
    startWall: 1,
    strataVersion: '0.1.0',
    // A pid no process has (above the kernel's pid_max): the writer is gone, so a session without footer is "incomplete".
    strataPid: 99_999_999,
    notes: [],
    ...overrides,
  } as SessionHeader;
}

export function sessionFooter(overrides: Partial<SessionFooter> = {}): SessionFooter {
  return {
    kind: 'footer',
    endedAt: '2024-01-01T00:00:01.000Z',
    endWall: 1001,
    durationMs: 1000,
    exit: { reason: 'exited', code: 0, signal: null, error: null },
    counts: { ...emptyCounts(), bytes: { stdout: 123, stderr: 0, validation: 0 } },
    ...overrides,
  };
}

export function lineRecord(text: string, stream: 'stdout' | 'stderr' | 'validation' = 'stdout', t = 1) {
  return { kind: 'line', stream, t, wall: 1000 + t, text };
}

export function messageRecord(vuid: string, severity: 'error' | 'warning' | 'info' = 'error', lines: [number, number] = [1, 1]) {
  return {
    kind: 'message',
    stream: 'validation',
    t: 2,
    wall: 1002,
    lines,
    severity,
    types: ['SPEC'],
    vuid,
    messageId: 1,
    objects: [],
    text: `${vuid} text`,
    specUrl: null,
    specText: null,
    complete: true,
  };
}

/** Writes `<dir>/<id>.jsonl` from records (objects are serialized, strings written as they are); returns its path. */
export function writeSession(dir: string, id: string, records: readonly (object | string)[], trailingNewline = true): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${id}.jsonl`);
  const text = records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');
  writeFileSync(file, trailingNewline ? `${text}\n` : text);
  return file;
}

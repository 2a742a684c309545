import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitStatus, Launch, type LaunchResult, type LaunchSpec } from '../../main/sessions/launcher';
import type { CaptureStream } from '../../shared/sessions/session-records';

/**
 * main/sessions/launcher.ts with real processes (/bin/sh): each stream's bytes in order, the exit
 * code or signal, a command that cannot start, stop (SIGTERM, SIGKILL after the grace period, to
 * the whole process group), the timeout, a descendant that keeps the pipes open after the
 * application exited (the drain gives up), and the validation FIFO read to the end marker.
 */
interface Captured {
  text: Record<CaptureStream, string>;
  ended: CaptureStream[];
  result: LaunchResult;
  launch: Launch;
}

function launch(script: string, options: Partial<LaunchSpec> = {}, during?: (l: Launch) => void): Promise<Captured> {
  const text: Record<CaptureStream, string> = { stdout: '', stderr: '', validation: '' };
  const ended: CaptureStream[] = [];
  const l = new Launch(
    { command: '/bin/sh', args: ['-c', script], cwd: tmpdir(), env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, ...options },
    {
      chunk: (stream, bytes, t) => {
        assert.ok(t >= 0);
        text[stream] += bytes.toString('utf8');
      },
      ended: (stream) => ended.push(stream),
    },
  );
  during?.(l);
  return l.done.then((result) => ({ text, ended, result, launch: l }));
}

test('stdout and stderr apart and in order, every stream ended once, the exit code kept', async () => {
  const { text, ended, result } = await launch('for i in 1 2 3; do echo out$i; echo err$i >&2; done; printf tail; exit 7', { drainMs: 200 });
  assert.equal(text.stdout, 'out1\nout2\nout3\ntail');
  assert.equal(text.stderr, 'err1\nerr2\nerr3\n');
  assert.deepEqual(ended.sort(), ['stderr', 'stdout']);
  assert.deepEqual([result.reason, result.code, result.signal, result.error], ['exited', 7, null, null]);
  assert.ok(result.endWall >= result.startWall);
  assert.equal(exitStatus(result), 7);
});

test('a command that cannot start is failed-to-start with the reason, not an exception', async () => {
  const l = new Launch({ command: '/nonexistent/app', args: [], cwd: tmpdir(), env: {} }, { chunk: () => undefined, ended: () => undefined });
  const result = await l.done;
  assert.equal(result.reason, 'failed-to-start');
  assert.match(result.error ?? '', /^ENOENT: /);
  assert.equal(l.pid, null);
  assert.equal(exitStatus(result), 1);
});

test('stop: SIGTERM reaches the whole process group; an application that ignores it is killed after the grace period', async () => {
  const polite = await launch('sleep 30 & echo $!; wait', { graceMs: 5000, drainMs: 5000 }, (l) => setTimeout(() => l.stop(), 300));
  assert.deepEqual([polite.result.reason, polite.result.signal], ['stopped', 'SIGTERM']);
  assert.equal(exitStatus(polite.result), 143);
  // The sleeping child got SIGTERM too, so its pipes closed at once (the drain would have waited 5 s for it).
  assert.ok(polite.result.durationMs < 4000, `capture took ${polite.result.durationMs} ms`);
  const sleeper = Number(polite.text.stdout.trim());
  assert.ok(gone(sleeper), "the application's child is gone");

  const stubborn = await launch("trap '' TERM; echo ready; while :; do sleep 0.05; done", { graceMs: 300, drainMs: 200 }, (l) =>
    setTimeout(() => l.stop(), 300),
  );
  assert.deepEqual([stubborn.result.reason, stubborn.result.signal], ['stopped', 'SIGKILL']);
  assert.equal(exitStatus(stubborn.result), 137);
  assert.equal(stubborn.text.stdout, 'ready\n');
});

test('timeout: the application is stopped with reason "timeout"; a second stop changes nothing', async () => {
  const { result } = await launch('sleep 30', { timeoutMs: 200, graceMs: 1000, drainMs: 200 }, (l) => {
    setTimeout(() => {
      l.stop('stopped');
    }, 1500);
  });
  assert.equal(result.reason, 'timeout');
  assert.equal(result.signal, 'SIGTERM');
});

test('a descendant that holds the pipes after the application exited: capture ends once nothing arrived for drainMs', async () => {
  const start = Date.now();
  const { result, text } = await launch('echo parent; (sleep 5; echo late) & exit 0', { drainMs: 300 });
  assert.equal(result.reason, 'exited');
  assert.equal(result.code, 0);
  assert.equal(text.stdout, 'parent\n');
  assert.ok(Date.now() - start < 4000, `capture waited ${Date.now() - start} ms for a descendant`);
});

test("the validation FIFO is read as its own stream up to Strata's end marker, which never shows", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-launcher-'));
  try {
    const fifo = join(dir, 'validation.fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    // Two writers one after another, as layer instances open and close the log: the reader never sees end-of-file between them.
    const { text, ended } = await launch(`echo first > ${fifo}; echo second > ${fifo}; echo out`, { validationFifo: fifo, drainMs: 500 });
    assert.equal(text.validation, 'first\nsecond\n');
    assert.doesNotMatch(text.validation, /strata-end/);
    assert.equal(text.stdout, 'out\n');
    assert.ok(ended.includes('validation'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pause holds the application in write() (back-pressure), resume lets it finish with nothing lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-launcher-'));
  try {
    const done = join(dir, 'done');
    const go = join(dir, 'go');
    let doneWhilePaused: boolean | null = null;
    // The application waits for "go", so it cannot finish before the pause however loaded the machine is.
    const script = `while [ ! -e ${go} ]; do sleep 0.01; done; head -c 4000000 /dev/zero | tr '\\0' x; touch ${done}`;
    const { text } = await launch(script, { drainMs: 2000 }, (l) => {
      // Once the pipes are being read (the readers exist after the spawn).
      setTimeout(() => {
        l.pause();
        writeFileSync(go, '');
        setTimeout(() => {
          doneWhilePaused = existsSync(done);
          l.resume();
        }, 600);
      }, 50);
    });
    assert.equal(doneWhilePaused, false, 'the application finished writing while Strata was not reading');
    assert.equal(text.stdout.length, 4_000_000);
    assert.match(text.stdout, /^x+$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** No such process, or a zombie (no init reaps orphans in some containers). */
function gone(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

test('exitStatus: the code, else 128 + the signal number, else 1', () => {
  assert.equal(exitStatus({ code: 0, signal: null }), 0);
  assert.equal(exitStatus({ code: null, signal: 'SIGSEGV' }), 139);
  assert.equal(exitStatus({ code: null, signal: 'SIGINT' }), 130);
  assert.equal(exitStatus({ code: null, signal: null }), 1);
});

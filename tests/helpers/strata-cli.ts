import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findAppRoot } from '../../main/platform/app-paths';

export const APP_ROOT = findAppRoot();
export const STRATA_BIN = join(APP_ROOT, 'bin', 'strata');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `strata ARGS` as a user runs it: `bin/strata` as a program, so that its shell part picks the
 * startup snapshot for the commands that have one (bin/cli-snapshot.cjs); on Windows, where it is
 * Node's script, under this Node.
 */
export function strataCommand(args: readonly string[]): { command: string; args: string[] } {
  return process.platform === 'win32' ? { command: process.execPath, args: [STRATA_BIN, ...args] } : { command: STRATA_BIN, args: [...args] };
}

/** Runs the real `bin/strata` (the built CLI) as a user would (strataCommand). */
export function runStrata(args: string[], env: NodeJS.ProcessEnv): CliRun {
  const { command, args: argv } = strataCommand(args);
  const r = spawnSync(command, argv, { cwd: APP_ROOT, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Starts a long-running command and resolves once its stdout shows the browser host's URL.
 * The caller stops it with `stop()` (or kills the returned child).
 */
export function startAndWaitForUrl(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000) {
  const child = spawn(command, args, { cwd: APP_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within ${timeoutMs} ms.\nstdout: ${stdout}\nstderr: ${stderr}`)), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const m = stdout.match(/http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing a URL.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  /**
   * SIGTERM, then the exit awaited (SIGKILL after 5 s): a server still ending writes into its HOME
   * (its code cache), so a test removes that HOME only after this.
   */
  const stop = (): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        });
  return { child, url, output: () => ({ stdout, stderr }), stop };
}

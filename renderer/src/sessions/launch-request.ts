import { strataError, type StrataError } from '../../../shared/errors/strata-error';
import type { LaunchStartRequest } from '../../../shared/sessions/session-ipc';
import { parseEnvironmentLines, splitCommandLine } from './command-line';

export interface LaunchForm {
  /** The command line: program and arguments, split like a shell (no expansion). */
  commandLine: string;
  cwd: string;
  /** A profile or preset name; '' for none. */
  profile: string;
  /** VK_LOADER_DEBUG words; '' for off. */
  loaderDebug: string;
  /** Seconds; '' for no limit. */
  timeout: string;
  /** NAME=VALUE lines. */
  env: string;
}

/** The form as a launch.start request, or what is wrong with it. */
export function launchRequest(form: LaunchForm): { ok: true; request: LaunchStartRequest } | { ok: false; error: StrataError } {
  const words = splitCommandLine(form.commandLine);
  if (!words.ok)
    return { ok: false, error: strataError('ui/bad-command', `The command line cannot be read: ${words.error}`, { where: 'Command', fix: 'close the quote' }) };
  const [command, ...args] = words.words;
  if (!command)
    return {
      ok: false,
      error: strataError('ui/bad-command', 'No application to launch', { where: 'Command', fix: 'type the program to run, e.g. vkcube --c 100' }),
    };
  const env = parseEnvironmentLines(form.env);
  if (!env.ok)
    return {
      ok: false,
      error: strataError('ui/bad-environment', `The environment cannot be read: ${env.error}`, { where: 'Environment', fix: 'one NAME=VALUE per line' }),
    };
  const timeout = form.timeout.trim();
  if (timeout && !(Number(timeout) > 0))
    return {
      ok: false,
      error: strataError('ui/bad-timeout', `"${timeout}" is not a number of seconds`, { where: 'Timeout', fix: 'give seconds, e.g. 30, or leave it empty' }),
    };
  const request: LaunchStartRequest = {
    command,
    args,
    ...(form.cwd.trim() ? { cwd: form.cwd.trim() } : {}),
    ...(Object.keys(env.env).length ? { env: env.env } : {}),
    ...(form.profile ? { profile: form.profile } : {}),
    ...(form.loaderDebug ? { loaderDebug: form.loaderDebug } : {}),
    ...(timeout ? { timeoutS: Number(timeout) } : {}),
  };
  return { ok: true, request };
}

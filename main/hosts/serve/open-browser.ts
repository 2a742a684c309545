import { spawn } from 'node:child_process';
import type { RunningBrowserHost } from './browser-host';
import { writeLaunchFile } from './launch-file';

/** How long the launch file waits for the browser before it is deleted (the one-time code lives as long). */
const LAUNCH_FILE_TTL_MS = 5 * 60_000;

/**
 * `strata serve --open`: the opener (xdg-open, open, start; or STRATA_OPEN_WITH, a program of the
 * user's choice, also how tests record the command line) gets the path of a private launch file,
 * never the token: argv is readable by every user in /proc. The file forwards to a one-time code,
 * and is deleted once the page has traded the code, after 5 minutes, or when the server stops.
 * Returns what deletes it.
 */
export function openInBrowser(host: RunningBrowserHost, env: NodeJS.ProcessEnv = process.env): () => void {
  let remove = () => {};
  const file = writeLaunchFile(host.oneTimeUrl(() => remove()));
  remove = () => {
    clearTimeout(timer);
    file.remove();
  };
  const timer = setTimeout(remove, LAUNCH_FILE_TTL_MS);
  timer.unref();
  const opener = env['STRATA_OPEN_WITH'];
  const [cmd, args]: [string, string[]] = opener
    ? [opener, [file.url]]
    : process.platform === 'darwin'
      ? ['open', [file.url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', file.url]]
        : ['xdg-open', [file.url]];
  const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => process.stderr.write(`strata: could not open a browser (${cmd} failed). Fix: open the URL above yourself\n`));
  child.unref();
  return remove;
}

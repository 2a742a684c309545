import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ROOT } from './strata-cli';

/**
 * Elevated programs for the suites that compare Strata's elevated mode with the real loader
 * (tests/integration/elevated-vs-loader.test.ts, elevated-settings-vs-loader.test.ts): a probe
 * copied setuid to `nobody` and setgid to `nogroup`, run as root, so real id != effective id and
 * glibc sets AT_SECURE (the loader's secure_getenv answers NULL).
 */

const NOBODY = 65534;
const NOGROUP = 65534;
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export type ElevatedProbes = { plain: string; setuid: string; setgid: string };

/** A temporary folder whose mount honours setuid bits (not `nosuid`): the system's, else /var/tmp, else out/. */
export function setuidCapableFolder(): string {
  const candidates = [tmpdir(), '/var/tmp', join(APP_ROOT, 'out')];
  for (const dir of candidates) {
    const options = spawnSync('findmnt', ['-no', 'OPTIONS', '-T', dir], { encoding: 'utf8' });
    if (
      options.status === 0 &&
      !options.stdout
        .split(',')
        .map((o) => o.trim())
        .includes('nosuid')
    )
      return dir;
  }
  throw new Error(`every candidate folder (${candidates.join(', ')}) is on a nosuid mount, so a setuid probe cannot run elevated`);
}

/**
 * tests/fixtures/discovery/elevated-probe.c built as `<dir>/elevated-probe-<label>` and its setuid
 * and setgid copies. `libDir`: the loader to link, through DT_RPATH (not RUNPATH) to an absolute
 * folder, which ld.so honours for a setuid program, unlike LD_LIBRARY_PATH; null: the system's.
 */
export function buildElevatedProbes(dir: string, label: string, libDir: string | null): ElevatedProbes {
  const probes: ElevatedProbes = {
    plain: join(dir, `elevated-probe-${label}`),
    setuid: join(dir, `elevated-probe-${label}-setuid`),
    setgid: join(dir, `elevated-probe-${label}-setgid`),
  };
  const rpath = libDir ? ['-Wl,--disable-new-dtags', `-Wl,-rpath,${libDir}`] : [];
  execFileSync(
    'gcc',
    ['-O1', '-Wall', '-Werror', join(APP_ROOT, 'tests', 'fixtures', 'discovery', 'elevated-probe.c'), '-o', probes.plain, ...rpath, '-lvulkan'],
    {
      stdio: 'pipe',
    },
  );
  copyFileSync(probes.plain, probes.setuid);
  chownSync(probes.setuid, NOBODY, 0);
  chmodSync(probes.setuid, 0o4755); // after chown: chown clears the setuid bit
  copyFileSync(probes.plain, probes.setgid);
  chownSync(probes.setgid, 0, NOGROUP);
  chmodSync(probes.setgid, 0o2755);
  return probes;
}

/** The system folders a namespace run replaces with copies the test writes into (the loader's fixed search places). */
export const NAMESPACE_FOLDERS = ['/etc/vulkan', '/etc/xdg', '/usr/local/share'] as const;

/**
 * Why an elevated run in a private mount namespace cannot happen here, or null: it needs root (to
 * make setuid copies and to mount) and `unshare --mount` (the system folders the elevated loader
 * reads are replaced there by copies, never written on the machine).
 */
export function namespaceUnavailable(): string | null {
  if (!isRoot) return 'needs root: it makes setuid/setgid copies of a probe and bind-mounts folders over /etc/vulkan, /etc/xdg and /usr/local/share';
  const r = spawnSync('unshare', ['--mount', '--', 'sh', '-c', `mount --bind ${tmpdir()} /etc/vulkan`], { encoding: 'utf8' });
  if (r.error) return `unshare (util-linux) cannot run: ${r.error.message}`;
  if (r.status !== 0) return `a private mount namespace is not allowed here (unshare --mount + mount --bind exited ${r.status}: ${r.stderr.trim()})`;
  return null;
}

/**
 * Runs tests/helpers/elevated-namespace-worker.ts with `job` in a private mount namespace where each
 * of NAMESPACE_FOLDERS is `copies[i]` (bind-mounted), and returns what it printed (JSON). The
 * worker runs both the real loader (the probes) and Strata's model there, so both see the same files.
 */
export function runInNamespace<T>(copies: readonly string[], job: unknown): T {
  const script = NAMESPACE_FOLDERS.map((f, i) => `mount --bind "$${i + 1}" ${f}`).join(' && ') + ` && shift ${NAMESPACE_FOLDERS.length} && exec "$@"`;
  const r = spawnSync(
    'unshare',
    [
      '--mount',
      '--',
      'sh',
      '-c',
      script,
      'sh',
      ...copies,
      process.execPath,
      '--import',
      'tsx',
      join(APP_ROOT, 'tests', 'helpers', 'elevated-namespace-worker.ts'),
      JSON.stringify(job),
    ],
    { cwd: APP_ROOT, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 << 20 },
  );
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`the namespace worker exited ${r.status}:\n${r.stderr.slice(-3000)}`);
  return JSON.parse(r.stdout) as T;
}

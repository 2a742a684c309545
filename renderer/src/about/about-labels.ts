import type { HostKind } from '../../../shared/app/app-info';

/** Words for the values app.info reports as identifiers. */
const HOSTS: Readonly<Record<HostKind, string>> = {
  electron: 'Desktop app (Electron)',
  browser: 'Browser (strata serve)',
  cli: 'Command line',
};

const PLATFORMS: Readonly<Record<string, string>> = {
  linux: 'Linux',
  win32: 'Windows',
  darwin: 'macOS',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  android: 'Android',
};

export function hostLabel(host: HostKind): string {
  return HOSTS[host];
}

/** Node's platform ids to names people use; an unknown id is shown as it is. */
export function platformLabel(platform: string, arch: string): string {
  return `${PLATFORMS[platform] ?? platform} (${arch})`;
}

/** Runtime versions that do not apply (no Electron under `strata serve`) still get a row, saying so. */
export function runtimeVersion(version: string | null): string {
  return version ?? 'not used by this host';
}

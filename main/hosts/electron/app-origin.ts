/**
 * Where the app's own pages live: a privileged custom scheme instead of file://, so the renderer has
 * a real origin (the CSP's 'self' means something, and file: grants no ambient access to the disk).
 * Pure: the IPC sender check, the navigation guard and the protocol handler all ask this module.
 */
export const APP_SCHEME = 'strata';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * True only for `strata://app/...`. Compared on parsed parts, never by prefix, so lookalikes
 * (`strata://app.evil/`, `strata://app@evil/`, `strata://app:1/`) fail. The host is compared exactly:
 * Chromium canonicalizes standard-scheme hosts to lower case, so a real frame never reports `APP`.
 */
export function isAppUrl(url: string): boolean {
  const u = parse(url);
  return (
    u !== null &&
    u.protocol === `${APP_SCHEME}:` &&
    u.hostname === APP_HOST &&
    u.port === '' &&
    u.username === '' &&
    u.password === '' &&
    (u.pathname === '' || u.pathname.startsWith('/'))
  );
}

/** Links we hand to the system browser: http(s) only, never file:, javascript:, custom schemes. */
export function isExternalWebUrl(url: string): boolean {
  const u = parse(url);
  return u !== null && (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
}

/**
 * What the window does with a navigation or a window.open: our own pages stay; web links go to the
 * system browser; everything else (file:, data:, javascript:, other schemes) is blocked.
 * Electron security checklist, "Limit navigation" and "Limit the creation of new windows".
 */
export type NavigationVerdict = 'stay' | 'open-external' | 'block';

export function navigationVerdict(url: string): NavigationVerdict {
  if (isAppUrl(url)) return 'stay';
  return isExternalWebUrl(url) ? 'open-external' : 'block';
}

/**
 * `will-frame-navigate`, for every frame: the main frame as navigationVerdict; a subframe (Strata
 * makes none, so one is injected content) may only show our own origin and never opens anything.
 */
export function frameNavigationVerdict(url: string, isMainFrame: boolean): NavigationVerdict {
  if (isMainFrame) return navigationVerdict(url);
  return isAppUrl(url) ? 'stay' : 'block';
}

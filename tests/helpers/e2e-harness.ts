import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { APP_ROOT, STRATA_BIN, startAndWaitForUrl } from './strata-cli';
import type { TempHome } from './temp-home';

/**
 * What every e2e file does the same way: `bin/strata serve` in a throwaway HOME, Debian's Chromium
 * through playwright-core, a page that records console errors, uncaught exceptions and CSP
 * violations, and screenshots under tests/e2e/artifacts/.
 */
/* The init script runs in Chromium; tsconfig.node.json has no DOM lib on purpose (main/ must not use it). */
declare const document: {
  addEventListener(
    type: 'securitypolicyviolation',
    listener: (e: { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number }) => void,
  ): void;
};

const ARTIFACTS = join(APP_ROOT, 'tests', 'e2e', 'artifacts');

/** Where a screenshot named `name` goes. */
export const artifact = (name: string) => join(ARTIFACTS, name);

/** Fails early when the renderer is not built, and makes the artifacts folder. */
export function prepareE2e(): void {
  if (!existsSync(join(APP_ROOT, 'out', 'renderer', 'index.html'))) {
    throw new Error('out/renderer/index.html is missing: build first with `node scripts/build.mjs` (`npm test` builds for you)');
  }
  mkdirSync(ARTIFACTS, { recursive: true });
}

export interface StrataServer {
  home: TempHome;
  child: ChildProcess;
  url: string;
}

/** `bin/strata serve --port 0` with `home`'s environment, once it has printed its URL. */
export async function startServer(home: TempHome, timeoutMs = 20_000): Promise<StrataServer> {
  const run = startAndWaitForUrl(process.execPath, [STRATA_BIN, 'serve', '--port', '0'], home.env, timeoutMs);
  try {
    return { home, child: run.child, url: await run.url };
  } catch (e) {
    run.child.kill('SIGKILL'); // a server that printed no URL is not left behind
    throw e;
  }
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the server has exited (at once if it already has). */
export function stopServer(server: StrataServer | null | undefined): Promise<void> {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Debian's Chromium as every test and bench starts it: headless, and without its own top-chrome
 * pages. Chromium 156 builds the omnibox's WebUI popup (the "AI mode" composebox, ~100 scripts) in a
 * renderer of its own a few seconds after it starts, and again for new windows, although a headless
 * browser never shows an omnibox. In a trace of a page of `strata serve` that renderer took
 * 280-630 ms of CPU while the page loaded (2 cores: the page's own renderer had ~470); the first
 * render then measured 560-860 ms against 390-470 ms without it, and the static reference page of the
 * bench shared the same noise in its own proportion (issue #19).
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
  '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
];

/**
 * A HOME of its own for Chromium: it writes ~/.config/chromium and dconf its cache, and a test never
 * touches the real home. `dispose` removes it (once the browser has gone).
 */
export function chromiumHome(): { env: NodeJS.ProcessEnv; dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'strata-chromium-'));
  return {
    dir,
    env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), XDG_CACHE_HOME: join(dir, '.cache'), XDG_DATA_HOME: join(dir, '.local/share') },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Debian's Chromium through playwright-core (CHROMIUM_ARGS, chromiumHome). */
export async function launchChromium(): Promise<Browser> {
  const home = chromiumHome();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], env: home.env });
  browser.on('disconnected', home.dispose);
  return browser;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Console errors, uncaught exceptions and CSP violations are pushed here. */
  problems: string[];
  /** While this returns false nothing is recorded (e.g. after the server is stopped on purpose). */
  watching?: () => boolean;
}

/** A page in a fresh context, recording problems, at `url`. */
export async function openPage(browser: Browser, url: string, options: PageOptions): Promise<Page> {
  const { viewport = { width: 1280, height: 960 }, colorScheme = 'light', problems, watching = () => true } = options;
  const context = await browser.newContext({ viewport, colorScheme });
  // Runs through the DevTools protocol, so the page's CSP does not apply to it; it only records.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} in ${e.sourceFile || '?'}:${e.lineNumber}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (watching() && (msg.type() === 'error' || /Content Security Policy/i.test(msg.text()))) problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => {
    if (watching()) problems.push(`uncaught: ${err.message}`);
  });
  await page.goto(url);
  return page;
}

export interface E2eApp {
  server: StrataServer;
  browser: Browser;
  page: Page;
}

/** `startServer`, `launchChromium` and `openPage` at the server's URL; what started is stopped again if a later step fails. */
export async function openApp(home: TempHome, options: PageOptions): Promise<E2eApp> {
  const server = await startServer(home);
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    return { server, browser, page: await openPage(browser, server.url, options) };
  } catch (e) {
    await closeApp({ server, browser });
    throw e;
  }
}

/** Closes the browser, then stops the server; either may be missing (a `before` that failed). */
export async function closeApp(app: { server?: StrataServer | null; browser?: Browser | null } | null | undefined): Promise<void> {
  await app?.browser?.close().catch(() => {});
  await stopServer(app?.server);
}

const HOME_VARS = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME'] as const;

/** Points this process's HOME and XDG folders at `home`'s (Chromium and child processes inherit them); returns what puts them back. */
export function useHomeEnv(home: TempHome): () => void {
  const saved = HOME_VARS.map((k) => [k, process.env[k]] as const);
  for (const k of HOME_VARS) process.env[k] = home.env[k];
  return () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/**
 * The Electron host, kept thin (docs/architecture.md, "The picture"): one hardened
 * window on the `strata://app` origin, the IPC bridge into the shared router, a menu, a
 * single-instance lock. Every decision that can be data lives in the pure modules beside this one.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, protocol, session, shell, type WebContents } from 'electron';
import { join } from 'node:path';
import { createAppContext, type AppContext } from '../app-context';
import { rendererDir } from '../../platform/app-paths';
import { appMenuTemplate } from './app-menu';
import { APP_ENTRY_URL, frameNavigationVerdict, isExternalWebUrl, navigationVerdict } from './app-origin';
import { APP_SCHEME_DEFINITION, serveAppRequest } from './app-protocol';
import { forwardEvents, registerIpc } from './ipc-bridge';
import { windowOptions } from './window-options';

// Both must happen before 'ready': privileges are fixed when the network service starts, and
// enableSandbox covers every renderer, including any we did not create ourselves.
protocol.registerSchemesAsPrivileged([APP_SCHEME_DEFINITION]);
app.enableSandbox();

let context: AppContext | null = null;
let mainWindow: BrowserWindow | null = null;

function openExternal(url: string): void {
  // Only web links reach the OS: shell.openExternal on a file: or custom-scheme URL can run programs.
  if (!isExternalWebUrl(url)) return;
  shell.openExternal(url).catch((e: unknown) => console.error(`strata: could not open ${url}: ${e instanceof Error ? e.message : String(e)}`));
}

function focusWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

/** Applied to every webContents: no new windows (links go to the browser), no <webview>. */
function hardenContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (navigationVerdict(url) === 'open-external') openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // Every frame's navigations (will-navigate covers the main frame only): our origin stays; a web
  // link in the main frame goes to the browser; anything else is blocked.
  contents.on('will-frame-navigate', (event) => {
    const verdict = frameNavigationVerdict(event.url, event.isMainFrame);
    if (verdict === 'stay') return;
    event.preventDefault();
    if (verdict === 'open-external') openExternal(event.url);
  });
}

/** A development run (electron . from the source tree), not a packaged release: only then DevTools. */
const devBuild = () => !app.isPackaged;

function createWindow(ctx: AppContext): BrowserWindow {
  const preloadPath = join(ctx.root, 'out', 'preload', 'electron-preload.cjs');
  const win = new BrowserWindow(windowOptions({ preloadPath, dark: nativeTheme.shouldUseDarkColors, devTools: devBuild() }));
  const stopEvents = forwardEvents(ctx.bus, win.webContents);
  // While a window is open, manifest changes on disk reach it as `discovery.changed`.
  const detachUi = ctx.attachUiClient();
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    stopEvents();
    detachUi();
    if (mainWindow === win) mainWindow = null;
  });
  // The window only ever shows our own origin; a web link followed in place opens in the browser
  // (hardenContents handles will-frame-navigate, which covers the main frame and every subframe).
  void win.loadURL(APP_ENTRY_URL);
  return win;
}

function start(): void {
  const root = app.getAppPath();
  const ctx = createAppContext({ root });
  context = ctx;

  const renderer = rendererDir(root);
  protocol.handle(APP_SCHEME_DEFINITION.scheme, (request) => serveAppRequest(renderer, request));

  // Strata needs no camera, notifications, clipboard-read or any other web permission.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  registerIpc(ipcMain, ctx.router);
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform, { bus: ctx.bus, openExternal }, { devTools: devBuild() })));

  mainWindow = createWindow(ctx);
  // macOS convention: clicking the dock icon with no window open opens one.
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow(ctx);
  });
}

if (!app.requestSingleInstanceLock()) {
  // Another Strata is running; it gets 'second-instance' and comes to the front.
  app.quit();
} else {
  app.on('second-instance', focusWindow);
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  // macOS convention: the app stays in the dock after its last window closes.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    context?.dispose();
    context = null;
  });
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      dialog.showErrorBox('Strata could not start', e instanceof Error ? (e.stack ?? e.message) : String(e));
      app.exit(1);
    });
}

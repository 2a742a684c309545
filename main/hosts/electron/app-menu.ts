/**
 * The application menu as data: a pure function of the platform and what the items do, so the
 * template is tested in plain Node and electron-main only hands it to Menu.buildFromTemplate.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { EventBus } from '../../platform/event-bus';

export const LOADER_DOCS_URL = 'https://github.com/KhronosGroup/Vulkan-Loader/tree/main/docs';

export interface MenuActions {
  /** Menu commands that the UI handles travel as contract events, like any other event from main. */
  bus: Pick<EventBus, 'emit'>;
  /** Opens a URL in the system browser (shell.openExternal), never in the app window. */
  openExternal(url: string): void;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

/** `devTools`: development builds only (electron-main passes !app.isPackaged); a release menu has no DevTools item. */
export function appMenuTemplate(platform: NodeJS.Platform, actions: MenuActions, options: { devTools?: boolean } = {}): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = {
    label: 'About Strata',
    click: () => actions.bus.emit('ui.navigate', { panel: 'about' }),
  };
  const docs: MenuItemConstructorOptions = {
    label: 'Vulkan loader documentation',
    click: () => actions.openExternal(LOADER_DOCS_URL),
  };

  // macOS convention (Apple HIG "The app menu"): About, Services, Hide and Quit live in a first
  // menu named for the app; the File menu closes windows instead of quitting.
  const appMenu: MenuItemConstructorOptions = {
    label: 'Strata',
    submenu: [about, separator, { role: 'services' }, separator, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, separator, { role: 'quit' }],
  };

  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [appMenu] : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        separator,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
        { role: 'delete' },
        separator,
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        ...(options.devTools ? [{ role: 'toggleDevTools' } as const] : []),
        separator,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        separator,
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: 'Window',
      submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
    },
    // role 'help' lets macOS add its search field; elsewhere it is an ordinary menu.
    { role: 'help', submenu: mac ? [docs] : [docs, separator, about] },
  ];
  return template;
}

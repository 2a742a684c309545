import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MenuItemConstructorOptions } from 'electron';
import { appMenuTemplate, LOADER_DOCS_URL } from '../../main/hosts/electron/app-menu';
import { EventBus } from '../../main/platform/event-bus';

function setup(platform: NodeJS.Platform, devTools = true) {
  const bus = new EventBus();
  const events: unknown[] = [];
  bus.subscribe((e) => events.push(e));
  const opened: string[] = [];
  const template = appMenuTemplate(platform, { bus, openExternal: (url) => opened.push(url) }, { devTools });
  return { template, events, opened };
}

function submenu(item: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] {
  assert.ok(item && Array.isArray(item.submenu), `menu ${item?.label ?? item?.role} has no submenu`);
  return item.submenu as MenuItemConstructorOptions[];
}

/** Every item of every menu, depth first. */
function allItems(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? allItems(i.submenu as MenuItemConstructorOptions[]) : [])]);
}

function findLabel(items: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  return allItems(items).filter((i) => i.label === label);
}

function click(item: MenuItemConstructorOptions): void {
  assert.ok(item.click, `${item.label} has no click handler`);
  (item.click as () => void)();
}

const topLabels = (t: MenuItemConstructorOptions[]) => t.map((m) => m.label ?? m.role);

for (const platform of ['linux', 'win32', 'darwin'] as const) {
  test(`${platform}: "About Strata" emits ui.navigate {panel: 'about'}, once`, () => {
    const { template, events } = setup(platform);
    const about = findLabel(template, 'About Strata');
    assert.equal(about.length, 1, 'exactly one About item');
    click(about[0]!);
    assert.deepEqual(events, [{ name: 'ui.navigate', payload: { panel: 'about' } }]);
  });

  test(`${platform}: the loader documentation opens ${LOADER_DOCS_URL} in the system browser`, () => {
    const { template, opened, events } = setup(platform);
    const help = template.find((m) => m.role === 'help');
    const docs = submenu(help).find((i) => i.label === 'Vulkan loader documentation');
    assert.ok(docs);
    click(docs);
    assert.deepEqual(opened, ['https://github.com/KhronosGroup/Vulkan-Loader/tree/main/docs']);
    assert.match(opened[0]!, /^https:\/\//);
    assert.deepEqual(events, []);
  });

  test(`${platform}: a release menu (packaged) has no developer tools; the default is a release menu`, () => {
    for (const template of [setup(platform, false).template, appMenuTemplate(platform, { bus: new EventBus(), openExternal: () => {} })]) {
      assert.ok(!allItems(template).some((i) => i.role === 'toggleDevTools'), 'no DevTools item in a release');
      assert.ok(allItems(template).some((i) => i.role === 'reload'));
    }
  });

  test(`${platform}: View has reload, developer tools (development build), zoom and full screen; Edit has the clipboard roles`, () => {
    const { template } = setup(platform);
    const roles = (label: string) => submenu(template.find((m) => m.label === label)).map((i) => i.role);
    for (const role of ['reload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'] as const) {
      assert.ok(roles('View').includes(role), `View lacks ${role}`);
    }
    for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'] as const) {
      assert.ok(roles('Edit').includes(role), `Edit lacks ${role}`);
    }
    assert.ok(roles('Window').includes('minimize'));
  });

  test(`${platform}: exactly one Quit, and no menu item without a role, label or type`, () => {
    const { template } = setup(platform);
    const items = allItems(template);
    assert.equal(items.filter((i) => i.role === 'quit').length, 1);
    for (const i of items) assert.ok(i.role || i.label || i.type === 'separator', JSON.stringify(i));
  });
}

test('darwin: the first menu is the app menu with About, services, hide and Quit; File closes', () => {
  const { template } = setup('darwin');
  assert.deepEqual(topLabels(template), ['Strata', 'File', 'Edit', 'View', 'Window', 'help']);
  const appMenu = submenu(template[0]);
  assert.equal(appMenu[0]?.label, 'About Strata');
  const roles = appMenu.map((i) => i.role);
  for (const role of ['services', 'hide', 'hideOthers', 'unhide', 'quit'] as const) assert.ok(roles.includes(role), `app menu lacks ${role}`);
  assert.deepEqual(
    submenu(template[1]).map((i) => i.role),
    ['close'],
  );
  assert.ok(submenu(template.find((m) => m.label === 'Window')).some((i) => i.role === 'front'));
});

for (const platform of ['linux', 'win32'] as const) {
  test(`${platform}: no app menu; File has Quit and About sits in Help`, () => {
    const { template } = setup(platform);
    assert.deepEqual(topLabels(template), ['File', 'Edit', 'View', 'Window', 'help']);
    assert.deepEqual(
      submenu(template[0]).map((i) => i.role),
      ['quit'],
    );
    const allRoles = allItems(template).map((i) => i.role);
    for (const macOnly of ['services', 'hide', 'hideOthers', 'unhide', 'front'] as const) assert.ok(!allRoles.includes(macOnly), macOnly);
    assert.ok(submenu(template.at(-1)).some((i) => i.label === 'About Strata'));
  });
}

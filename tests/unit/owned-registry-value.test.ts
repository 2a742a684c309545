import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RegistryValue } from '../../shared/discovery/registry-output';
import { StrataRequestError } from '../../shared/errors/strata-error';
import { realFileOps } from '../../main/platform/atomic-file';
import {
  applyOwnedRegistryValue,
  assertRegistryValueAllowed,
  removeOwnedRegistryValue,
  type OwnedRegistryValueLocation,
  type RegistryWrites,
} from '../../main/platform/owned-files/owned-registry-value';
import { withTempHome, type TempHome } from '../helpers/temp-home';

/**
 * The owned registry value's bookkeeping (main/platform/owned-files/owned-registry-value.ts): what it
 * records, when, and what surrender puts back. The registry here is an in-memory RegistryWrites (value
 * names compare case-insensitively, as the registry's do), with a switch that makes one call fail, as a
 * kill or an access error half-way would; the real registry and the real Windows loader reading what
 * this writes are proven by the Wine lane (tests/integration/windows-override-vs-loader.test.ts).
 * The basic add/refuse/force/restore cycle is in windows-settings-file.test.ts; here the cases around it.
 */
const KEY = 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings';
const OURS = 'C:\\Users\\me\\AppData\\Local\\Strata\\loader-settings\\vk_loader_settings.json';
const VKCONFIG = 'C:\\Users\\me\\AppData\\Local\\LunarG\\vkconfig\\vk_loader_settings.json';
const OTHER = 'D:\\tools\\vk_loader_settings.json';

const dword = (name: string, data = 0): RegistryValue => ({ name, type: 'REG_DWORD', data });

/** The function's result as a promise (a throw becomes a rejection), as the real registry calls answer. */
const settle = <T>(fn: () => T): Promise<T> => new Promise((resolve) => resolve(fn()));

class MemoryRegistry implements RegistryWrites {
  readonly keys = new Map<string, RegistryValue[]>();
  /** The next call of this kind throws (then the switch is off again). */
  failNext: 'setDword' | 'deleteValue' | null = null;
  readonly log: string[] = [];
  private maybeFail(call: 'setDword' | 'deleteValue') {
    if (this.failNext !== call) return;
    this.failNext = null;
    throw Object.assign(new Error(`${call}: access denied`), { code: 'EACCES' });
  }
  values(key: string) {
    return Promise.resolve([...(this.keys.get(key) ?? [])]);
  }
  setDword(key: string, name: string, data: number) {
    return settle(() => {
      this.maybeFail('setDword');
      this.log.push(`set ${name}=${data}`);
      const values = this.keys.get(key) ?? [];
      const at = values.findIndex((v) => v.name.toLowerCase() === name.toLowerCase());
      if (at >= 0) values[at] = dword(name, data);
      else values.push(dword(name, data));
      this.keys.set(key, values);
    });
  }
  deleteValue(key: string, name: string) {
    return settle(() => {
      this.maybeFail('deleteValue');
      this.log.push(`delete ${name}`);
      const values = this.keys.get(key) ?? [];
      const at = values.findIndex((v) => v.name.toLowerCase() === name.toLowerCase());
      if (at >= 0) values.splice(at, 1);
      return at >= 0;
    });
  }
}

const location = (home: TempHome): OwnedRegistryValueLocation => ({
  key: KEY,
  name: OURS,
  recordFile: join(home.dir, 'registration.json'),
  label: 'loader settings file',
  conflictWhy: "the loader reads one value of this key, and could take that one instead of Strata's loader settings file",
  refusalCode: 'profile/foreign-loader-settings',
  surrenderCommand: '`strata profile unbind`',
  setAside: { kind: 'delete' },
  ownValueWithoutRecord: 'take',
});

const record = (loc: OwnedRegistryValueLocation) => JSON.parse(readFileSync(loc.recordFile, 'utf8')) as { previous: unknown; removed: RegistryValue[] };
const apply = (loc: OwnedRegistryValueLocation, reg: RegistryWrites, force = false, data = 0) =>
  applyOwnedRegistryValue(loc, reg, data, { force, ops: realFileOps });

test(
  'a refusal changes nothing: no record, the key as it was; every foreign value is named, in the message and in data',
  withTempHome(async (home) => {
    const loc = location(home);
    const reg = new MemoryRegistry();
    reg.keys.set(KEY, [dword(VKCONFIG, 1), dword(OTHER)]);
    await assert.rejects(apply(loc, reg), (e: unknown) => {
      assert.ok(e instanceof StrataRequestError);
      assert.equal(e.error.code, 'profile/foreign-loader-settings');
      assert.match(e.error.message, /holds values Strata did not write: .*vkconfig.*REG_DWORD 1.*D:\\tools/);
      assert.match(e.error.fix ?? '', /--force.*`strata profile unbind` puts it back/);
      assert.deepEqual((e.error.data as { values: string[] }).values, [VKCONFIG, OTHER]);
      return true;
    });
    assert.equal(existsSync(loc.recordFile), false);
    assert.deepEqual(reg.log, []);
    assert.deepEqual(await reg.values(KEY), [dword(VKCONFIG, 1), dword(OTHER)]);
    // The same check alone (the writers call it before writing their file): forced, DWORDs pass.
    await assertRegistryValueAllowed(loc, reg, 0, true, realFileOps);
  }),
);

test(
  "Strata's own name in another case is Strata's value, not a foreign one (registry names are case-insensitive)",
  withTempHome(async (home) => {
    const loc = location(home);
    const reg = new MemoryRegistry();
    reg.keys.set(KEY, [dword(OURS.toUpperCase(), 0)]);
    await assertRegistryValueAllowed(loc, reg, 0, false, realFileOps);
    assert.deepEqual(await apply(loc, reg), { action: 'unchanged', setAside: [] });
    assert.deepEqual(reg.log, [], 'an unchanged value is not written');
  }),
);

test(
  "a value of Strata's name that was there before (another DWORD) is recorded as previous and given back on surrender",
  withTempHome(async (home) => {
    const loc = location(home);
    const reg = new MemoryRegistry();
    reg.keys.set(KEY, [dword(OURS, 7)]);
    assert.deepEqual(await apply(loc, reg), { action: 'changed', setAside: [] });
    assert.deepEqual(await reg.values(KEY), [dword(OURS, 0)]);
    assert.deepEqual(record(loc).previous, dword(OURS, 7));
    // A second write keeps the first "previous" (not Strata's own 0).
    assert.deepEqual(await apply(loc, reg, false, 0), { action: 'unchanged', setAside: [] });
    assert.deepEqual(record(loc).previous, dword(OURS, 7));
    assert.deepEqual(await removeOwnedRegistryValue(loc, reg, realFileOps), { action: 'restored', restored: [], previous: 7 });
    assert.deepEqual(await reg.values(KEY), [dword(OURS, 7)]);
    assert.equal(existsSync(loc.recordFile), false);
  }),
);

test(
  'forced twice as new foreign values appear: the record gathers each once, with its data; surrender puts all back',
  withTempHome(async (home) => {
    const loc = location(home);
    const reg = new MemoryRegistry();
    reg.keys.set(KEY, [dword(VKCONFIG, 1)]);
    assert.deepEqual(await apply(loc, reg, true), { action: 'added', setAside: [VKCONFIG] });
    await reg.setDword(KEY, OTHER, 5);
    await reg.setDword(KEY, VKCONFIG, 1);
    assert.deepEqual(await apply(loc, reg, true), { action: 'unchanged', setAside: [VKCONFIG, OTHER] });
    assert.deepEqual(record(loc).removed, [dword(VKCONFIG, 1), dword(OTHER, 5)]);
    assert.deepEqual(await reg.values(KEY), [dword(OURS)]);
    assert.deepEqual(await removeOwnedRegistryValue(loc, reg, realFileOps), { action: 'removed', restored: [VKCONFIG, OTHER], previous: null });
    assert.deepEqual(await reg.values(KEY), [dword(VKCONFIG, 1), dword(OTHER, 5)]);
  }),
);

for (const failing of ['deleteValue', 'setDword'] as const) {
  test(
    `the record is written before the registry changes: ${failing} failing half-way, surrender still restores the key`,
    withTempHome(async (home) => {
      const loc = location(home);
      const reg = new MemoryRegistry();
      reg.keys.set(KEY, [dword(VKCONFIG, 1)]);
      reg.failNext = failing;
      await assert.rejects(apply(loc, reg, true), /access denied/);
      // Whatever happened to the key, the record names the foreign value and its data.
      assert.deepEqual(record(loc).removed, [dword(VKCONFIG, 1)]);
      assert.deepEqual(await removeOwnedRegistryValue(loc, reg, realFileOps), { action: 'removed', restored: [VKCONFIG], previous: null });
      assert.deepEqual(await reg.values(KEY), [dword(VKCONFIG, 1)]);
      assert.equal(existsSync(loc.recordFile), false);
    }),
  );
}

test(
  'a record for another key, or damaged, is refused by the write too, before the key changes',
  withTempHome(async (home) => {
    const loc = location(home);
    const reg = new MemoryRegistry();
    for (const text of [
      JSON.stringify({ version: 1, key: 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\LoaderSettings', name: OURS, previous: null, removed: [] }),
      JSON.stringify({ version: 1, key: KEY, name: OTHER, previous: null, removed: [] }),
      '{"version":1,',
    ]) {
      writeFileSync(loc.recordFile, text);
      await assert.rejects(apply(loc, reg), (e: unknown) => e instanceof StrataRequestError && e.error.code === 'override/record-unreadable', text);
      assert.deepEqual(reg.log, []);
      assert.equal(readFileSync(loc.recordFile, 'utf8'), text, 'the record is left for the user to look at');
    }
  }),
);

test(
  "Strata's name held by a value that is not a DWORD is refused even forced: surrender could not put it back",
  withTempHome(async (home) => {
    const loc = location(home);
    const reg = new MemoryRegistry();
    reg.keys.set(KEY, [{ name: OURS, type: 'REG_SZ', data: 'kept' }]);
    await assert.rejects(apply(loc, reg, true), (e: unknown) => e instanceof StrataRequestError && /not a DWORD/.test(e.error.fix ?? ''));
    assert.deepEqual(reg.log, []);
    assert.equal(existsSync(loc.recordFile), false);
  }),
);

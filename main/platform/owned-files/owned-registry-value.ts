import * as z from 'zod';
import { serviceError } from '../../../shared/errors/strata-error';
import type { RegistryValue } from '../../../shared/discovery/registry-output';
import { readIfExists, unlinkDurable, writeFileAtomic, type FileOps } from '../atomic-file';

/**
 * A registry value Strata owns, with the owned-file writer's rules (owned-file.ts): a record of what
 * Strata wrote and of what was there before, written before anything changes (so a kill half-way
 * still leaves the record naming what to restore); values that stand in the way of Strata's are
 * refused unless forced, and forced, they are set aside and recorded; surrender puts every recorded
 * value back and deletes Strata's (or gives it back its old DWORD). One record format for every
 * registry value Strata writes: the override's registration (main/override/windows-override.ts) and
 * the loader settings file's (main/override/windows-loader-settings.ts).
 */

/** The registry calls this needs (RegEnumValueW / RegSetValueExW / RegDeleteValueW on Windows). */
export interface RegistryWrites {
  values(key: string): Promise<RegistryValue[]>;
  setDword(key: string, name: string, data: number): Promise<void>;
  deleteValue(key: string, name: string): Promise<boolean>;
}

/**
 * Which values of the key stand in the way of Strata's, and what a forced write does to them.
 * - `delete`: every other value (a key the loader reads one value of and not its data, so any
 *   other could be the one it takes: LoaderSettings, shared/loader/windows-settings-file.ts); a
 *   forced write deletes them, since a DWORD 1 would disable nothing.
 * - `disable`: the values `conflicting` names (a key whose every value the loader reads, DWORD 0
 *   meaning on: ImplicitLayers, where only another enabled override layer conflicts); a forced write
 *   sets them to 1.
 */
export type SetAside = { kind: 'delete' } | { kind: 'disable'; conflicting: (values: readonly RegistryValue[]) => string[] };

export interface OwnedRegistryValueLocation {
  /** `HKCU\…` or `HKLM\…`. */
  key: string;
  /** The value's name (for the Khronos keys, a file path). */
  name: string;
  /** Strata's record of it (in Strata's state folder). */
  recordFile: string;
  /** What the value is, in messages. */
  label: string;
  /** Why the values in the way matter, in the refusal ("the loader reads one value of this key, …"). */
  conflictWhy: string;
  /** The error code of a refusal. */
  refusalCode: string;
  /** The command that surrenders it, in messages. */
  surrenderCommand: string;
  setAside: SetAside;
  /**
   * Strata's value found without a record, holding other data than Strata writes: `take` records and
   * overwrites it (the loader does not read the data); `refuse` asks for --force first (someone
   * disabled Strata's override on purpose).
   */
  ownValueWithoutRecord: 'take' | 'refuse';
}

const SavedValueSchema = z.object({ name: z.string(), type: z.literal('REG_DWORD'), data: z.number() });
type SavedValue = z.infer<typeof SavedValueSchema>;

const RecordSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  name: z.string(),
  /** Strata's value as it was before Strata first wrote it (null: there was none). */
  previous: SavedValueSchema.nullable(),
  /** Values a forced write set aside (deleted or disabled), with their data before, to be put back on surrender. */
  removed: z.array(SavedValueSchema),
});
type OwnedRecord = z.infer<typeof RecordSchema>;

/** The override registration's record as Strata 0.1.0 wrote it (override-registration.json): read, and rewritten in the one format. */
const LegacyOverrideRecordSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  value: z.string(),
  previous: z.number().nullable(),
  disabled: z.array(z.object({ name: z.string(), previous: z.number() })),
});

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const dword = (name: string, data: number): SavedValue => ({ name, type: 'REG_DWORD', data });

function parseRecord(json: unknown): OwnedRecord | null {
  const r = RecordSchema.safeParse(json);
  if (r.success) return r.data;
  const legacy = LegacyOverrideRecordSchema.safeParse(json);
  if (!legacy.success) return null;
  const { key, value, previous, disabled } = legacy.data;
  return { version: 1, key, name: value, previous: previous === null ? null : dword(value, previous), removed: disabled.map((d) => dword(d.name, d.previous)) };
}

/** Strata's record of the value, or null when there is none; a damaged one, or one for another value, is refused. */
export function readOwnedRegistryRecord(loc: OwnedRegistryValueLocation, ops: FileOps): OwnedRecord | null {
  const bytes = readIfExists(loc.recordFile, ops);
  if (!bytes) return null;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  const record = parseRecord(json);
  // A record for another key or value is refused like a damaged one: surrender must not touch values it did not name.
  if (!record || record.key !== loc.key || !same(record.name, loc.name))
    throw serviceError('override/record-unreadable', `Strata's record of the ${loc.label} it wrote is damaged or is for another value`, {
      where: loc.recordFile,
      fix: `look at ${loc.key}; delete Strata's value (${loc.name}) yourself if it should go, then delete ${loc.recordFile}`,
    });
  return record;
}

const describe = (v: RegistryValue) => `${v.name} (${v.type} ${Array.isArray(v.data) ? v.data.join(' ') : String(v.data)})`;

function inTheWay(loc: OwnedRegistryValueLocation, values: readonly RegistryValue[]): RegistryValue[] {
  const others = values.filter((v) => !same(v.name, loc.name));
  if (loc.setAside.kind === 'delete') return others;
  const names = loc.setAside.conflicting(values);
  return others.filter((v) => names.some((n) => same(n, v.name)));
}

/** Throws the refusal of a write, before anything changed: values in the way without force, or ones force could not put back. */
export async function assertRegistryValueAllowed(
  loc: OwnedRegistryValueLocation,
  reg: RegistryWrites,
  data: number,
  force: boolean,
  ops: FileOps,
): Promise<void> {
  const values = await reg.values(loc.key);
  const conflicts = inTheWay(loc, values);
  if (conflicts.length > 0) {
    const restorable = conflicts.every((v) => v.type === 'REG_DWORD');
    if (!force || !restorable)
      throw serviceError(
        loc.refusalCode,
        `${loc.key} holds ${conflicts.length === 1 ? 'a value' : 'values'} Strata did not write: ${conflicts.map(describe).join(', ')}; ${loc.conflictWhy}`,
        {
          fix: restorable
            ? `close the tool that wrote it (vkconfig …), or run the command again with --force: Strata then ${loc.setAside.kind === 'delete' ? 'deletes it' : 'disables it (DWORD 1)'} and ${loc.surrenderCommand} puts it back`
            : `remove the value yourself (it is not a DWORD, so Strata could not put it back), then run the command again`,
          data: { key: loc.key, values: conflicts.map((v) => v.name) },
        },
      );
  }
  const ours = values.find((v) => same(v.name, loc.name));
  if (!ours || readOwnedRegistryRecord(loc, ops)) return;
  if (ours.type !== 'REG_DWORD')
    throw serviceError(loc.refusalCode, `${loc.key} already has a value for ${loc.name} that Strata did not write (${describe(ours)})`, {
      fix: 'remove the value yourself (it is not a DWORD, so Strata could not put it back), then run the command again',
      data: { key: loc.key, values: [ours.name] },
    });
  if (loc.ownValueWithoutRecord === 'refuse' && ours.data !== data && !force)
    throw serviceError(loc.refusalCode, `${loc.key} already has a value for ${loc.name} that Strata did not write (${describe(ours)}: someone disabled it)`, {
      fix: `run the command again with --force to enable it (${loc.surrenderCommand} puts the old value back)`,
      data: { key: loc.key, values: [ours.name] },
    });
}

/**
 * Makes Strata's value DWORD `data`, with every value in its way set aside (allowed by
 * assertRegistryValueAllowed). The record is written first, naming what is about to change.
 * `setAside`: every value the record says Strata set aside (this write's and earlier ones').
 */
export async function applyOwnedRegistryValue(
  loc: OwnedRegistryValueLocation,
  reg: RegistryWrites,
  data: number,
  options: { force: boolean; ops: FileOps },
): Promise<{ action: 'added' | 'changed' | 'unchanged'; setAside: string[] }> {
  await assertRegistryValueAllowed(loc, reg, data, options.force, options.ops);
  const values = await reg.values(loc.key);
  const ours = values.find((v) => same(v.name, loc.name)) ?? null;
  const conflicts = inTheWay(loc, values);
  let record = readOwnedRegistryRecord(loc, options.ops);
  const saved = (v: RegistryValue) => dword(v.name, typeof v.data === 'number' ? v.data : 0);
  record ??= { version: 1, key: loc.key, name: loc.name, previous: ours ? saved(ours) : null, removed: [] };
  // A value set aside before and back since keeps its first recorded data: that is what surrender restores.
  const fresh = conflicts.filter((v) => !record!.removed.some((r) => same(r.name, v.name)));
  record = { ...record, removed: [...record.removed, ...fresh.map(saved)] };
  writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, options.ops);
  for (const v of conflicts) {
    if (loc.setAside.kind === 'delete') await reg.deleteValue(loc.key, v.name);
    else await reg.setDword(loc.key, v.name, 1);
  }
  const action = !ours ? 'added' : ours.type === 'REG_DWORD' && ours.data === data ? 'unchanged' : 'changed';
  if (action !== 'unchanged') await reg.setDword(loc.key, loc.name, data);
  return { action, setAside: record.removed.map((v) => v.name) };
}

/** Surrender: the values set aside come back, Strata's goes (or gets its old DWORD back), the record goes. */
export async function removeOwnedRegistryValue(
  loc: OwnedRegistryValueLocation,
  reg: RegistryWrites,
  ops: FileOps,
): Promise<{ action: 'removed' | 'restored' | 'nothing'; restored: string[]; previous: number | null }> {
  const record = readOwnedRegistryRecord(loc, ops);
  if (!record) return { action: 'nothing', restored: [], previous: null };
  for (const v of record.removed) await reg.setDword(loc.key, v.name, v.data);
  if (record.previous) await reg.setDword(loc.key, loc.name, record.previous.data);
  else await reg.deleteValue(loc.key, loc.name);
  unlinkDurable(loc.recordFile, ops);
  return { action: record.previous ? 'restored' : 'removed', restored: record.removed.map((v) => v.name), previous: record.previous?.data ?? null };
}

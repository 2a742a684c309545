import { z } from 'zod';
import { serviceError } from '../../../shared/errors/strata-error';
import type { RegistryValue } from '../../../shared/discovery/registry-output';
import { readIfExists, unlinkDurable, writeFileAtomic, type FileOps } from '../atomic-file';

/**
 * A registry value Strata owns, with the owned-file writer's rules (owned-file.ts): a record of what
 * Strata wrote and of what was there before, written before anything changes (so a kill half-way
 * still leaves the record naming what to restore); a key holding values that are not Strata's is
 * refused unless forced, and forced, those values are deleted and recorded; surrender puts every
 * recorded value back and deletes Strata's.
 *
 * Used for a key the loader reads one value of, where any other value could be the one it takes
 * (Windows LoaderSettings: shared/loader/windows-settings-file.ts): Strata's value must be the key's
 * only value. Foreign values are deleted rather than disabled because that loader does not read the
 * data (a DWORD 1 disables nothing).
 */

/** The registry calls this needs (RegEnumValueW / RegSetValueExW / RegDeleteValueW on Windows). */
export interface RegistryWrites {
  values(key: string): Promise<RegistryValue[]>;
  setDword(key: string, name: string, data: number): Promise<void>;
  deleteValue(key: string, name: string): Promise<boolean>;
}

export interface OwnedRegistryValueLocation {
  /** `HKCU\…` or `HKLM\…`. */
  key: string;
  /** The value's name (for the Khronos keys, a file path). */
  name: string;
  /** Strata's record of it (in Strata's state folder). */
  recordFile: string;
  /** What the value is, in messages. */
  label: string;
  /** The error code of a refusal (foreign values in the key). */
  refusalCode: string;
  /** The command that surrenders it, in messages. */
  surrenderCommand: string;
}

const SavedValueSchema = z.object({ name: z.string(), type: z.literal('REG_DWORD'), data: z.number() });

const RecordSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  name: z.string(),
  /** Strata's value as it was before Strata first wrote it (null: there was none). */
  previous: SavedValueSchema.nullable(),
  /** Other values a forced write deleted, to be put back on surrender. */
  removed: z.array(SavedValueSchema),
});
type Record = z.infer<typeof RecordSchema>;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function readRecord(loc: OwnedRegistryValueLocation, ops: FileOps): Record | null {
  const bytes = readIfExists(loc.recordFile, ops);
  if (!bytes) return null;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  const r = RecordSchema.safeParse(json);
  // A record for another key or value is refused like a damaged one: surrender must not touch values it did not name.
  if (!r.success || r.data.key !== loc.key || !same(r.data.name, loc.name))
    throw serviceError('override/record-unreadable', `Strata's record of the ${loc.label} it wrote is damaged or is for another value`, {
      where: loc.recordFile,
      fix: `look at ${loc.key}; delete Strata's value (${loc.name}) yourself if it should go, then delete ${loc.recordFile}`,
    });
  return r.data;
}

const describe = (v: RegistryValue) => `${v.name} (${v.type} ${Array.isArray(v.data) ? v.data.join(' ') : String(v.data)})`;

/** Throws the refusal of a write, before anything changed: foreign values without force, or ones force cannot restore. */
export async function assertRegistryValueAllowed(loc: OwnedRegistryValueLocation, reg: RegistryWrites, force: boolean): Promise<void> {
  const values = await reg.values(loc.key);
  const others = values.filter((v) => !same(v.name, loc.name));
  if (others.length === 0) return;
  const restorable = others.every((v) => v.type === 'REG_DWORD');
  if (force && restorable) return;
  throw serviceError(
    loc.refusalCode,
    `${loc.key} holds ${others.length === 1 ? 'a value' : 'values'} Strata did not write: ${others.map(describe).join(', ')}; the loader reads one value of this key, and could take that one instead of Strata's ${loc.label}`,
    {
      fix: restorable
        ? `close the tool that wrote it (vkconfig …), or run the command again with --force: Strata then deletes it and ${loc.surrenderCommand} puts it back`
        : `remove the value yourself (it is not a DWORD, so Strata cannot put it back), then run the command again`,
      data: { key: loc.key, values: others.map((v) => v.name) },
    },
  );
}

/**
 * Makes Strata's value the key's only one, with DWORD `data`. The record is written first; foreign
 * values (allowed by assertRegistryValueAllowed) are deleted after it names them.
 */
export async function applyOwnedRegistryValue(
  loc: OwnedRegistryValueLocation,
  reg: RegistryWrites,
  data: number,
  options: { force: boolean; ops: FileOps },
): Promise<{ action: 'added' | 'changed' | 'unchanged'; removed: string[] }> {
  await assertRegistryValueAllowed(loc, reg, options.force);
  const values = await reg.values(loc.key);
  const ours = values.find((v) => same(v.name, loc.name)) ?? null;
  const others = values.filter((v) => !same(v.name, loc.name));
  let record = readRecord(loc, options.ops);
  const saved = (v: RegistryValue) => ({ name: v.name, type: 'REG_DWORD' as const, data: typeof v.data === 'number' ? v.data : 0 });
  record ??= { version: 1, key: loc.key, name: loc.name, previous: ours?.type === 'REG_DWORD' ? saved(ours) : null, removed: [] };
  const toRemove = others.filter((v) => v.type === 'REG_DWORD' && !record!.removed.some((r) => same(r.name, v.name)));
  record = { ...record, removed: [...record.removed, ...toRemove.map(saved)] };
  writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, options.ops);
  for (const v of others) await reg.deleteValue(loc.key, v.name);
  const action = !ours ? 'added' : ours.type === 'REG_DWORD' && ours.data === data ? 'unchanged' : 'changed';
  if (action !== 'unchanged') await reg.setDword(loc.key, loc.name, data);
  return { action, removed: others.map((v) => v.name) };
}

/** Surrender: the values a forced write deleted come back, Strata's goes (or gets its old DWORD back), the record goes. */
export async function removeOwnedRegistryValue(
  loc: OwnedRegistryValueLocation,
  reg: RegistryWrites,
  ops: FileOps,
): Promise<{ action: 'removed' | 'restored' | 'nothing'; restored: string[] }> {
  const record = readRecord(loc, ops);
  if (!record) return { action: 'nothing', restored: [] };
  for (const v of record.removed) await reg.setDword(loc.key, v.name, v.data);
  if (record.previous) await reg.setDword(loc.key, loc.name, record.previous.data);
  else await reg.deleteValue(loc.key, loc.name);
  unlinkDurable(loc.recordFile, ops);
  return { action: record.previous ? 'restored' : 'removed', restored: record.removed.map((v) => v.name) };
}

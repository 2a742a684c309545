import { createHash } from 'node:crypto';
import * as z from 'zod';
import { serviceError, StrataRequestError } from '../../../shared/errors/strata-error';
import { readIfExists, writeFileAtomic, type FileOps } from '../atomic-file';
import type { OwnedLocation } from './owned-location';

/**
 * Strata's record of one file it owns: what it wrote (text and sha256), a change in progress, and
 * where the file that was there before Strata went. One record file per owned file, in Strata's
 * state folder, in this one format for every file Strata writes (the override, the layer settings
 * file, each per-application override, the loader settings file).
 *
 * Crash safety across two files (the owned file and its record): before replacing the file, the
 * record names the bytes about to be written (`pendingSha256`); after, it names them as written.
 * So after a kill at any point the file on disk is one the record vouches for.
 */
export const OwnedRecordSchema = z.object({
  version: z.literal(1),
  path: z.string(),
  /** What Strata last finished writing (null: nothing finished yet). */
  sha256: z.string().nullable(),
  /** Its text (null: not known, as for a record migrated from the per-application format of Strata ≤ 0.x: hashes only). */
  text: z.string().nullable(),
  writtenAt: z.string().nullable(),
  /** A change in progress: the file may already hold these bytes; null: the file is being removed. */
  pendingSha256: z.string().nullable().optional(),
  /** The pre-Strata file, backed up (null: there was none); `symlink`: it was a symbolic link to that target, restored as a link. */
  original: z.object({ sha256: z.string(), backup: z.string(), symlink: z.string().optional() }).nullable(),
});
export type OwnedRecord = z.infer<typeof OwnedRecordSchema>;

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export const labelOf = (loc: Pick<OwnedLocation, 'label'>) => loc.label ?? 'override';

/** The refusal for a record Strata cannot trust: damaged, or naming paths Strata would not use. */
export function recordUnreadable(loc: Pick<OwnedLocation, 'file' | 'recordFile' | 'label'>): StrataRequestError {
  return serviceError(
    'override/record-unreadable',
    `Strata's record of the ${labelOf(loc)} it wrote is damaged or is for another file, so Strata cannot tell whether ${loc.file} is its own`,
    {
      where: loc.recordFile,
      fix: `look at ${loc.file}; if it should go, delete it and ${loc.recordFile}, then apply again`,
    },
  );
}

/**
 * The record of `loc`, or null when there is none. A record is accepted only if it names the paths
 * Strata itself uses for this file: a record naming another backup (with that file's hash) would
 * make surrender copy that file into the loader's folder and delete it. A record that is damaged
 * or names other paths is refused, never ignored: without it Strata cannot tell its file from a
 * person's.
 */
export function readOwnedRecord(loc: OwnedLocation, ops: FileOps): OwnedRecord | null {
  const bytes = readIfExists(loc.recordFile, ops);
  if (!bytes) return loc.legacyRecord?.(ops) ?? null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const r = OwnedRecordSchema.safeParse(parsed);
  if (!r.success || r.data.path !== loc.file || (r.data.original !== null && r.data.original.backup !== loc.originalFile)) throw recordUnreadable(loc);
  return r.data;
}

export function writeOwnedRecord(loc: OwnedLocation, record: OwnedRecord, ops: FileOps): void {
  writeFileAtomic(loc.recordFile, `${JSON.stringify(record, null, 2)}\n`, ops);
}

/** A record with nothing written yet, for `loc`'s file. */
export const emptyRecord = (loc: Pick<OwnedLocation, 'file'>): OwnedRecord => ({
  version: 1,
  path: loc.file,
  sha256: null,
  text: null,
  writtenAt: null,
  original: null,
});

import type { FileOps } from '../atomic-file';
import type { OwnedRecord } from './owned-record';

/**
 * Where a file Strata owns lives, and where Strata keeps its bookkeeping for it. Every path here is
 * one Strata derives itself (never one read from a record): owned-record.ts accepts a record only
 * if it names these paths.
 */
export interface OwnedLocation {
  /** The folder the file is in (created before a write). */
  dir: string;
  /** The file itself (in a folder the loader or the layers read). */
  file: string;
  /** Strata's own state folder: record and backups (the lock is in it or in a folder above it). */
  stateDir: string;
  recordFile: string;
  /** The file that was there before Strata first wrote one; surrender puts it back. */
  originalFile: string;
  /** The file the latest write or surrender replaced (one backup). */
  previousFile: string;
  lockFile: string;
  /** What the file is, in messages: "override" (the default), "layer settings file", … */
  label?: string;
  /** The error code of a refusal to replace or remove a file that is not Strata's (default override/not-strata-file). */
  refusalCode?: string;
  /** The command that gives the pre-Strata file back, in messages (default `strata override remove`). */
  surrenderCommand?: string;
  /**
   * A record in an older format, read when the file has no record of its own (the per-application
   * files' shared record of Strata 0.x, main/profiles/app-override-writer.ts); its paths are checked
   * by the caller that provides it.
   */
  legacyRecord?: (ops: FileOps) => OwnedRecord | null;
}

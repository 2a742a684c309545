import { access, opendir, readdir, realpath, stat, type Dir, type Dirent, type Stats } from 'node:fs';
import { promisify } from 'node:util';

/**
 * node:fs's callback forms, promised: what the readers every command runs (discovery's scan, lint's
 * folder walk) would otherwise take from node:fs/promises, which loads ~12 of Node's modules with it
 * (its streams and readline). Every such command loaded them and every CLI startup snapshot held them
 * (issue #19). The same calls underneath: `realpath` is realpath.native, realpath(3), as
 * fs/promises' is.
 */
export const opendirAsync = promisify(opendir) as (path: string, options: { bufferSize: number }) => Promise<Dir>;
export const realpathAsync = promisify(realpath.native) as (path: string) => Promise<string>;
export const accessAsync = promisify(access) as (path: string) => Promise<void>;
export const readdirEntriesAsync = promisify(readdir) as (path: string, options: { withFileTypes: true }) => Promise<Dirent[]>;
export const statAsync = promisify(stat) as (path: string) => Promise<Stats>;

import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { serviceError } from '../../shared/errors/strata-error';
import type { BundleFolderRequest, BundleFolderResult } from '../../shared/diagnostics/bundle-folder';
import { fsyncDir } from '../platform/atomic-file';

/**
 * diagnostics.saveFolder: the bundle's files (built by the renderer's bundle builder, the one the zip
 * uses) written as a new folder inside the folder the user named. Written into a hidden staging
 * folder beside it first and renamed into place, so the bundle folder appears whole or not at all; an
 * existing folder is never written into or replaced (the name gets "-2", "-3", … instead).
 */
export function saveBundleFolder(request: BundleFolderRequest, env: NodeJS.ProcessEnv = process.env): BundleFolderResult {
  const home = env['HOME'] || homedir();
  const parentText = request.parent.trim();
  const parent = parentText === '~' ? home : parentText.startsWith('~/') ? join(home, parentText.slice(2)) : parentText;
  if (!isAbsolute(parent))
    throw serviceError('diagnostics/folder-not-absolute', `The folder "${request.parent}" is not an absolute path`, {
      where: request.parent,
      fix: 'name a folder from the root (/home/you/bug-reports) or from your home (~/bug-reports)',
    });
  const failed = (e: unknown, action: string): never => {
    const err = e as NodeJS.ErrnoException;
    const why =
      err.code === 'EACCES' || err.code === 'EPERM'
        ? { code: 'permission-denied', text: 'permission denied', fix: `choose a folder you can write to (ls -ld ${parent})` }
        : err.code === 'ENOSPC' || err.code === 'EDQUOT'
          ? { code: 'no-space', text: 'no space left on the device', fix: `free some space (df -h ${parent}) or choose another folder` }
          : err.code === 'EROFS'
            ? { code: 'read-only', text: 'the file system is read-only', fix: 'choose a folder on a writable file system' }
            : err.code === 'ENOTDIR' || err.code === 'EEXIST'
              ? { code: 'not-a-folder', text: 'a file is in the way where a folder should be', fix: `look at ${parent} and choose another folder` }
              : { code: 'io-failed', text: err.code ?? String(e), fix: 'check the folder and save again' };
    // The staging folder is gone by now: name the folder the user chose instead of it.
    const at = err.path && !err.path.endsWith('.partial') && !err.path.includes('.partial/') ? err.path : parent;
    throw serviceError(`diagnostics/${why.code}`, `Cannot ${action}: ${why.text}; nothing was left behind`, { where: at, fix: why.fix });
  };

  try {
    mkdirSync(parent, { recursive: true });
  } catch (e) {
    failed(e, `create the folder ${parent}`);
  }
  const staging = join(parent, `.${request.name}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  let bytes = 0;
  try {
    mkdirSync(staging, { mode: 0o755 });
    for (const f of request.files) {
      const path = resolve(staging, f.name);
      // The schema refuses ".." and absolute names; this holds even if it did not.
      if (!path.startsWith(staging + '/'))
        throw serviceError('diagnostics/bad-entry', `The bundle entry "${f.name}" is outside the bundle folder`, { where: f.name });
      mkdirSync(dirname(path), { recursive: true });
      const fd = openSync(path, 'wx', 0o644);
      try {
        const data = Buffer.from(f.text, 'utf8');
        writeSync(fd, data);
        fsyncSync(fd);
        bytes += data.length;
      } finally {
        closeSync(fd);
      }
    }
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    if (e instanceof Error && e.name === 'StrataRequestError') throw e;
    failed(e, `write the bundle in ${parent}`);
  }
  // A fresh name: an existing folder (another bundle, the user's own) is never replaced. The name is
  // claimed with mkdir (atomic: EEXIST when anything has it), then the staging folder is renamed onto
  // that empty folder of ours (rename(2) replaces an empty folder), so a folder that appears between
  // a check and the rename can never be the one replaced.
  for (let n = 1; n < 1000; n++) {
    const path = join(parent, n === 1 ? request.name : `${request.name}-${n}`);
    try {
      mkdirSync(path, { mode: 0o755 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      rmSync(staging, { recursive: true, force: true });
      failed(e, `name the bundle folder in ${parent}`);
    }
    try {
      renameSync(staging, path);
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      try {
        rmdirSync(path); // the empty folder that claimed the name
      } catch {
        // already gone
      }
      failed(e, `name the bundle folder in ${parent}`);
    }
    fsyncDir(parent);
    return { path, files: request.files.length, bytes };
  }
  rmSync(staging, { recursive: true, force: true });
  throw serviceError('diagnostics/no-free-name', `Every name ${request.name}…-999 is taken in ${parent}`, { where: parent, fix: 'choose another folder' });
}

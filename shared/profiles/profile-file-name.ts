/**
 * File names for profiles: one file per profile, named after it so a person browsing
 * ~/.config/strata/profiles recognises them, but safe on every file system Strata supports —
 * ASCII letters, digits, '-', '_' and '.', no leading dot (hidden), none of Windows' reserved
 * device names, at most 64 characters before ".json". The profile's real name lives inside the file;
 * two names that reduce to the same file name get "-2", "-3", …
 */
export const PROFILE_FILE_EXTENSION = '.json';
const MAX_STEM = 64;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

export function profileFileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents dropped: "Élan" → "Elan"
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_STEM)
    .replace(/[-.]+$/g, '');
  if (stem === '' || WINDOWS_RESERVED.test(stem)) return `profile${stem ? `-${stem}` : ''}`;
  return stem;
}

/** The file name for `name`, not among `taken` (compared without case: macOS and Windows fold it). */
export function profileFileName(name: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((t) => t.toLowerCase()));
  const stem = profileFileStem(name);
  for (let n = 1; ; n++) {
    const candidate = `${n === 1 ? stem : `${stem}-${n}`}${PROFILE_FILE_EXTENSION}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** What makes two profile names the same: case folded (macOS and Windows fold it in file names), accents kept. */
export function profileNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Profile names are unique without regard to case, so two never differ only in it. */
export function sameProfileName(a: string, b: string): boolean {
  return profileNameKey(a) === profileNameKey(b);
}

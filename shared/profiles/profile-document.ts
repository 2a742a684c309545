import { strataError, type StrataError } from '../errors/strata-error';
import { utf8ByteLength } from '../text/utf8-length';
import { parseLocatedJson, toPlain, type LocatedJson } from '../manifest/located-json';
import { OVERRIDE_LAYER_NAME } from '../override/override-config';
import { MIGRATIONS, schemaVersionOf } from './profile-migrations';
import {
  fieldPath,
  invalidProfileError,
  issuesOf,
  PROFILE_FILE_MAX_BYTES,
  PROFILE_SCHEMA_VERSION,
  ProfileSchema,
  type Profile,
  type ProfileIssue,
} from './profile-schema';

/**
 * Reading a profile file's text: strict JSON (as written by Strata and by any JSON tool), no
 * repeated keys (JSON.parse would silently keep the last one), then the file's schema version's
 * migrations, then the current schema. Every failure is an error value that names the file and
 * the field; nothing here writes or deletes anything.
 */
export type ProfileReadResult = { ok: true; profile: Profile; migratedFrom: number | null } | { ok: false; error: StrataError };

const fail = (error: StrataError): ProfileReadResult => ({ ok: false, error });

function duplicateKeys(node: LocatedJson, path: (string | number)[], out: { path: string; line: number }[]) {
  if (node.kind === 'object') {
    const seen = new Set<string>();
    for (const p of node.properties) {
      if (seen.has(p.key)) out.push({ path: fieldPath([...path, p.key]), line: p.keyRange.start.line + 1 });
      seen.add(p.key);
      duplicateKeys(p.value, [...path, p.key], out);
    }
  } else if (node.kind === 'array') node.items.forEach((item, i) => duplicateKeys(item, [...path, i], out));
}

/** A VkLayer_override.json (vkconfig's or Strata's) rather than a profile: `profile import` converts those. */
export function looksLikeOverrideManifest(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const layer = (value as { layer?: { name?: unknown } }).layer;
  return typeof (value as { file_format_version?: unknown }).file_format_version === 'string' && layer?.name === OVERRIDE_LAYER_NAME;
}

/** The JSON value of a profile file, or the error; shared by profile reading and override import. */
export function parseProfileJson(text: string, where: string): { ok: true; value: unknown } | { ok: false; error: StrataError } {
  // Bytes, not characters: "é" is one character and two bytes in the file. Past the cap in characters it is past it in bytes too.
  const bytes = text.length > PROFILE_FILE_MAX_BYTES ? null : utf8ByteLength(text);
  if (bytes === null || bytes > PROFILE_FILE_MAX_BYTES)
    return {
      ok: false,
      error: strataError(
        'profile/too-large',
        `The file is ${bytes === null ? `over ${PROFILE_FILE_MAX_BYTES}` : bytes} bytes (UTF-8); a profile is at most ${PROFILE_FILE_MAX_BYTES} bytes`,
        {
          where,
          fix: 'this is not a profile Strata wrote; check that you chose the right file',
        },
      ),
    };
  if (text.trim() === '')
    return {
      ok: false,
      error: strataError('profile/empty', 'The file is empty', { where, fix: 'export the profile again (`strata profile export NAME -o FILE`)' }),
    };
  const parsed = parseLocatedJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const first = parsed.errors[0];
  if (first || !parsed.root) {
    const at = first ? ` at line ${first.range.start.line + 1}, column ${first.range.start.character + 1}` : '';
    return {
      ok: false,
      error: strataError('profile/not-json', `The file is not valid JSON (${first?.error ?? 'no value'}${at}); it may be truncated or hand-edited`, {
        where: first ? `${where}:${first.range.start.line + 1}:${first.range.start.character + 1}` : where,
        fix: 'fix the JSON there (no comments or trailing commas), or export the profile again',
      }),
    };
  }
  const dups: { path: string; line: number }[] = [];
  duplicateKeys(parsed.root, [], dups);
  if (dups.length) {
    const d = dups[0]!;
    return {
      ok: false,
      error: strataError('profile/invalid', `${d.path}: the field appears twice (line ${d.line}); JSON readers disagree on which one counts`, {
        where: `${where}, field ${d.path}`,
        fix: 'keep one of the two',
        data: { issues: dups.map((x) => ({ path: x.path, message: 'repeated field' })), field: d.path },
      }),
    };
  }
  return { ok: true, value: toPlain(parsed.root) };
}

/** A profile from its JSON value: version check, migrations, current schema. */
export function profileFromJson(value: unknown, where: string): ProfileReadResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail(
      invalidProfileError(
        [{ path: '', message: `a profile is a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}` }],
        where,
      ),
    );
  let version = schemaVersionOf(value);
  if (version === null) {
    if (looksLikeOverrideManifest(value))
      return fail(
        strataError('profile/is-override-layer', 'This is an override layer file (VkLayer_override.json), not a Strata profile', {
          where,
          fix: '`strata profile import FILE` turns it into a profile',
        }),
      );
    const raw = value as Record<string, unknown>;
    const field = 'schemaVersion' in raw ? 'schemaVersion' : 'version' in raw ? 'version' : 'schemaVersion';
    return fail(
      invalidProfileError(
        [{ path: field, message: field in raw ? `must be a whole number, not ${JSON.stringify(raw[field])}` : 'missing: a profile names its schema version' }],
        where,
      ),
    );
  }
  if (version > PROFILE_SCHEMA_VERSION)
    return fail(
      strataError('profile/newer-version', `The profile has schema version ${version}; this Strata reads versions 1 to ${PROFILE_SCHEMA_VERSION}`, {
        where: `${where}, field schemaVersion`,
        fix: 'update Strata to read it (a newer format cannot be converted back), or recreate the profile here',
        data: { issues: [{ path: 'schemaVersion', message: 'newer than this Strata' }], field: 'schemaVersion' },
      }),
    );
  const startsAt = version;
  let current: unknown = value;
  for (const step of MIGRATIONS) {
    if (step.from !== version) continue;
    const shaped = step.schema.safeParse(current);
    if (!shaped.success)
      return fail(
        invalidProfileError(issuesOf(shaped.error), where, `correct the field (this is a version-${version} profile; Strata converts it when it loads)`),
      );
    const next = step.migrate(shaped.data as never);
    if (!next.ok) return fail(invalidProfileError(next.issues, where));
    current = next.value;
    version++;
  }
  if (version !== PROFILE_SCHEMA_VERSION)
    return fail(
      invalidProfileError([{ path: 'schemaVersion', message: `${startsAt} is not a profile schema version (1 to ${PROFILE_SCHEMA_VERSION})` }], where),
    );
  const checked = ProfileSchema.safeParse(current);
  if (!checked.success) return fail(invalidProfileError(issuesOf(checked.error), where));
  return { ok: true, profile: checked.data, migratedFrom: startsAt === PROFILE_SCHEMA_VERSION ? null : startsAt };
}

export function parseProfileText(text: string, where: string): ProfileReadResult {
  const json = parseProfileJson(text, where);
  return json.ok ? profileFromJson(json.value, where) : json;
}

/** The issues of an error value made here (empty for errors without field data). */
export function profileErrorIssues(error: StrataError): ProfileIssue[] {
  const data = error.data as { issues?: ProfileIssue[] } | undefined;
  return data?.issues ?? [];
}

/**
 * Valid-usage ids and the specification's entries for them. The registry (Debian ships it as
 * /usr/share/vulkan/registry/validusage.json, schema version 2) maps each command or structure to
 * `{ vuid, text }` entries, grouped by the extensions or versions they depend on.
 */
export const SPEC_BASE_URL = 'https://registry.khronos.org/vulkan/specs/1.3-extensions/html/vkspec.html';

/** The spec's anchor for a VUID: every valid-usage statement is an anchor named for its id. */
export function specUrlFor(vuid: string): string {
  return `${SPEC_BASE_URL}#${encodeURIComponent(vuid)}`;
}

export function isVuid(id: string): boolean {
  return /^VUID-[A-Za-z0-9_]+-[A-Za-z0-9_]+-[A-Za-z0-9_-]+$/.test(id);
}

export interface ValidUsageIndex {
  apiVersion: string | null;
  /** VUID → the statement as plain text. */
  entries: Map<string, string>;
}

/** The statement's HTML (<code>, <strong class="purple">must</strong>, <a href>) as plain text. */
export function validUsagePlainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Reads validusage.json's parsed value; anything that is not its shape gives an empty index rather than an exception. */
export function indexValidUsage(json: unknown): ValidUsageIndex {
  const entries = new Map<string, string>();
  const root = json as { 'version info'?: { 'api version'?: unknown }; validation?: unknown } | null;
  const apiVersion = typeof root?.['version info']?.['api version'] === 'string' ? (root['version info']['api version'] as string) : null;
  const validation = root?.validation;
  if (validation && typeof validation === 'object') {
    for (const groups of Object.values(validation as Record<string, unknown>)) {
      if (!groups || typeof groups !== 'object') continue;
      for (const list of Object.values(groups as Record<string, unknown>)) {
        if (!Array.isArray(list)) continue;
        for (const e of list as { vuid?: unknown; text?: unknown }[]) {
          if (typeof e?.vuid === 'string' && !entries.has(e.vuid)) entries.set(e.vuid, typeof e.text === 'string' ? validUsagePlainText(e.text) : '');
        }
      }
    }
  }
  return { apiVersion, entries };
}

export interface SpecReference {
  url: string | null;
  text: string | null;
}

/**
 * The link for a message id: with the registry, only for VUIDs it lists (an UNASSIGNED-… id or a
 * VUID newer than the registry has no entry to point at); without it, every well-formed VUID gets
 * the registry's URL form, unverified.
 */
export function specReference(vuid: string, index: ValidUsageIndex | null): SpecReference {
  if (index) {
    const text = index.entries.get(vuid);
    return text === undefined ? { url: null, text: null } : { url: specUrlFor(vuid), text };
  }
  return isVuid(vuid) ? { url: specUrlFor(vuid), text: null } : { url: null, text: null };
}

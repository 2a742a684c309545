import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as z from 'zod';
import { channels, channelSchemas, type ChannelName } from '../../shared/ipc/contract';

/**
 * Issue #15, "request arrays capped": every array anywhere in every channel's request schema has a
 * maximum. An uncapped one let `profiles.explain` with 200,000 requested layers end in "Maximum call
 * stack size exceeded" (chain.explain was capped, the same question through a profile was not), and
 * `drivers.negotiate` with 200,000 manifests start a probe process for each. The walk reads the zod
 * schemas themselves, so a new channel or field is checked without being listed here.
 */
type Def = {
  type: string;
  checks?: { _zod: { def: { check: string; maximum?: number } } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Paths (`field[].inner`) of arrays with no max_length check. */
function uncappedArrays(schema: z.ZodType, path: string, seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const walk = (s: z.ZodType | null | undefined, p: string) => (s ? uncappedArrays(s, p, seen) : []);
  switch (def.type) {
    case 'array': {
      const capped = (def.checks ?? []).some((c) => c._zod.def.check === 'max_length');
      return [...(capped ? [] : [path || '(the request)']), ...walk(def.element, `${path}[]`)];
    }
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([k, v]) => walk(v, path ? `${path}.${k}` : k));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType, path);
    case 'union':
      return (def.options ?? []).flatMap((o) => walk(o, path));
    case 'intersection':
      return [...walk((def as unknown as { left: z.ZodType }).left, path), ...walk((def as unknown as { right: z.ZodType }).right, path)];
    case 'tuple':
      return [...(def.items ?? []).flatMap((s, i) => walk(s, `${path}[${i}]`)), ...walk(def.rest, `${path}[]`)];
    case 'record':
      return walk(def.valueType, `${path}{}`);
    case 'pipe':
      return [...walk(def.in, path), ...walk(def.out, path)];
    case 'lazy':
      return walk(def.getter?.(), path);
    default:
      return [];
  }
}

test('the walk finds an uncapped array, also inside optional, nested and union fields (the check itself can fail)', async () => {
  const { z } = await import('zod');
  const schema = z
    .object({
      ok: z.array(z.string()).max(3),
      bad: z.array(z.string()).optional(),
      nested: z.object({ deeper: z.union([z.string(), z.array(z.number())]) }),
      inner: z.array(z.array(z.string())).max(2),
    })
    .strict();
  assert.deepEqual(uncappedArrays(schema, ''), ['bad', 'nested.deeper', 'inner[]']);
});

test('every array in every channel request has a maximum', async () => {
  const uncapped: string[] = [];
  for (const name of Object.keys(channels) as ChannelName[]) {
    const { request } = await channelSchemas(name);
    for (const path of uncappedArrays(request, '')) uncapped.push(`${name}: ${path}`);
  }
  assert.deepEqual(uncapped, [], `arrays without a maximum (cap them with shared/ipc/request-limits.ts):\n${uncapped.join('\n')}`);
});

import * as z from 'zod';
import type { StrataError } from '../errors/strata-error';
import { StrataErrorSchema } from '../errors/strata-error-schema';

/** What every transport carries back for a call: a value or an error value, never a thrown exception. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: StrataError };

export const IpcResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: StrataErrorSchema }),
]);

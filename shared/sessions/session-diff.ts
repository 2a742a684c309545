import * as z from 'zod';
import type { LayerChain } from '../loader/chain-schema';
import { SessionCountsSchema, SessionExitSchema, SeveritySchema, type SessionCounts, type SessionExit, type Severity } from './session-records';

/** What a diff needs from one session: read once from its file by main. */
export interface SessionDigest {
  id: string;
  command: string;
  startedAt: string;
  chain: LayerChain | null;
  exit: SessionExit | null;
  counts: SessionCounts;
  /** Validation messages by id: how many, how severe, the first text seen. */
  messages: Map<string, { severity: Severity; count: number; text: string }>;
}

const SideSchema = z.object({ id: z.string(), command: z.string(), startedAt: z.string(), exit: SessionExitSchema.nullable() });
const MessageDeltaSchema = z.object({ vuid: z.string(), severity: SeveritySchema, a: z.number().int(), b: z.number().int(), text: z.string() });
export type MessageDelta = z.infer<typeof MessageDeltaSchema>;

export const SessionDiffSchema = z.object({
  a: SideSchema,
  b: SideSchema,
  chain: z.object({
    same: z.boolean(),
    /** Layer names in chain order (application side first); null when a session has no predicted chain. */
    a: z.array(z.string()).nullable(),
    b: z.array(z.string()).nullable(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    /** In both, at another place relative to the layers both share. */
    moved: z.array(z.string()),
  }),
  messages: z.object({
    /** Ids only in b. */
    appeared: z.array(MessageDeltaSchema),
    /** Ids only in a. */
    disappeared: z.array(MessageDeltaSchema),
    /** In both, a different number of times. */
    changed: z.array(MessageDeltaSchema),
    unchanged: z.array(MessageDeltaSchema),
  }),
  counts: z.object({ a: SessionCountsSchema, b: SessionCountsSchema }),
});
export type SessionDiff = z.infer<typeof SessionDiffSchema>;

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, perf: 2, info: 3, debug: 4, verbose: 5 };

function byWeight(x: MessageDelta, y: MessageDelta): number {
  return SEVERITY_RANK[x.severity] - SEVERITY_RANK[y.severity] || x.vuid.localeCompare(y.vuid);
}

export function diffSessions(a: SessionDigest, b: SessionDigest): SessionDiff {
  const namesA = a.chain ? a.chain.chain.map((e) => e.name) : null;
  const namesB = b.chain ? b.chain.chain.map((e) => e.name) : null;
  const setA = new Set(namesA ?? []);
  const setB = new Set(namesB ?? []);
  const sharedA = (namesA ?? []).filter((n) => setB.has(n));
  const sharedB = (namesB ?? []).filter((n) => setA.has(n));
  const moved = sharedA.filter((n, i) => sharedB[i] !== n);

  const appeared: MessageDelta[] = [];
  const disappeared: MessageDelta[] = [];
  const changed: MessageDelta[] = [];
  const unchanged: MessageDelta[] = [];
  for (const [vuid, m] of a.messages) {
    const other = b.messages.get(vuid);
    const delta = { vuid, severity: m.severity, a: m.count, b: other?.count ?? 0, text: m.text };
    if (!other) disappeared.push(delta);
    else (other.count === m.count ? unchanged : changed).push(delta);
  }
  for (const [vuid, m] of b.messages) if (!a.messages.has(vuid)) appeared.push({ vuid, severity: m.severity, a: 0, b: m.count, text: m.text });

  return {
    a: { id: a.id, command: a.command, startedAt: a.startedAt, exit: a.exit },
    b: { id: b.id, command: b.command, startedAt: b.startedAt, exit: b.exit },
    chain: {
      same: JSON.stringify(namesA) === JSON.stringify(namesB),
      a: namesA,
      b: namesB,
      added: (namesB ?? []).filter((n) => !setA.has(n)),
      removed: (namesA ?? []).filter((n) => !setB.has(n)),
      moved,
    },
    messages: {
      appeared: appeared.sort(byWeight),
      disappeared: disappeared.sort(byWeight),
      changed: changed.sort(byWeight),
      unchanged: unchanged.sort(byWeight),
    },
    counts: { a: a.counts, b: b.counts },
  };
}

import * as z from 'zod';
import { DiscoveryChangedSchema } from '../discovery/discovery-changes';
import { SessionEndedEventSchema, SessionLinesEventSchema, SessionStartedEventSchema } from '../sessions/session-ipc';

/**
 * The events of the IPC contract (shared/ipc/contract.ts holds the channels). Apart from the
 * channels because every UI needs all of them at once and synchronously (the preload validates each
 * on arrival), while a CLI command needs none: its start builds no event schema (issue #19).
 *
 * Events flow main → renderer only (Electron webContents.send / browser host server-sent events).
 */
export const events = {
  /** A message from the host for the user, e.g. the browser host is shutting down. */
  'host.notice': z.object({
    level: z.enum(['info', 'warning', 'error']),
    message: z.string(),
  }),
  /** Ask the UI to show a panel (the Electron menu's "About Strata", later: "show in Problems"). */
  'ui.navigate': z.object({ panel: z.string() }),
  /** Manifests or search folders changed on disk (sent only while a UI is attached); the UI re-fetches discovery. */
  'discovery.changed': DiscoveryChangedSchema,
  /** A launch started (from any host in this process). */
  'session.started': SessionStartedEventSchema,
  /** A running launch's new records, batched about every 50 ms. */
  'session.lines': SessionLinesEventSchema,
  /** A launch ended and its session file is closed. */
  'session.ended': SessionEndedEventSchema,
} as const;

export type EventName = keyof typeof events;
export type EventPayloadOf<E extends EventName> = z.output<(typeof events)[E]>;
export type StrataEvent = { [E in EventName]: { name: E; payload: EventPayloadOf<E> } }[EventName];

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}

/** Parse an event that crossed a process boundary; null if it does not match the contract. */
export function parseEvent(name: unknown, payload: unknown): StrataEvent | null {
  if (typeof name !== 'string' || !isEventName(name)) return null;
  const parsed = events[name].safeParse(payload);
  return parsed.success ? ({ name, payload: parsed.data } as StrataEvent) : null;
}

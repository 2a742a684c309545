import { events, type EventName, type EventPayloadOf, type StrataEvent } from '../../shared/ipc/events';

type Listener = (event: StrataEvent) => void;

/**
 * Main-side fan-out of contract events to whichever host is attached (Electron windows, SSE
 * clients). Payloads are validated on emit so a bad event is a bug here, not a puzzle in the UI.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  emit<E extends EventName>(name: E, payload: EventPayloadOf<E>): void {
    const parsed = events[name].parse(payload) as EventPayloadOf<E>;
    const event = { name, payload: parsed } as StrataEvent;
    for (const l of this.listeners) l(event);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }
}

/**
 * The two Electron IPC channel names that carry the whole contract (see main/electron/ipc-bridge.ts).
 * In shared/ because both preload/ and main/electron/ need them.
 */
export const INVOKE_CHANNEL = 'strata:invoke';
export const EVENT_CHANNEL = 'strata:event';

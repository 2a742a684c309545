/**
 * The two Electron IPC channel names that carry the whole contract (see main/hosts/electron/ipc-bridge.ts).
 * In shared/ because both preload/ and main/hosts/electron/ need them.
 */
export const INVOKE_CHANNEL = 'strata:invoke';
export const EVENT_CHANNEL = 'strata:event';

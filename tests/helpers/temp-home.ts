import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway HOME with its own XDG folders, so no test ever reads or writes the real home.
 * `env` is the environment to hand to child processes: the parent's, minus anything Vulkan- or
 * XDG-related, plus the temporary folders, and STRATA_CHECK_ANSWERS=1: a CLI command started with it
 * checks even the answers it would print as made (main/hosts/cli/cli-channel.ts), so a handler that
 * drifts from the contract fails the test. The benches time commands as users run them (AS_USERS_RUN).
 */
export interface TempHome {
  dir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** makeTempHome's `extra` for a bench: the environment a user's command runs in (no STRATA_CHECK_ANSWERS; Node leaves an undefined variable out). */
export const AS_USERS_RUN: NodeJS.ProcessEnv = { STRATA_CHECK_ANSWERS: undefined };

export function makeTempHome(extra: NodeJS.ProcessEnv = {}): TempHome {
  const dir = mkdtempSync(join(tmpdir(), 'strata-test-home-'));
  const xdg = {
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_DATA_HOME: join(dir, '.local', 'share'),
    XDG_STATE_HOME: join(dir, '.local', 'state'),
    XDG_CACHE_HOME: join(dir, '.cache'),
  };
  for (const d of Object.values(xdg)) mkdirSync(d, { recursive: true });
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(VK_|XDG_|VULKAN_)/.test(k) || k === 'HOME' || k === 'DISPLAY' || k === 'WAYLAND_DISPLAY') continue;
    base[k] = v;
  }
  return {
    dir,
    env: { ...base, HOME: dir, ...xdg, STRATA_CHECK_ANSWERS: '1', ...extra },
    // Retried: a child that is still exiting (a `strata serve` stopped a moment ago saves its code
    // cache under XDG_CACHE_HOME as it ends) can add a file while the folder is being removed.
    cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}

/** A test body run with its own TempHome, removed afterwards whatever the outcome. */
export function withTempHome<T>(fn: (home: TempHome) => Promise<T> | T, extra: NodeJS.ProcessEnv = {}) {
  return async () => {
    const home = makeTempHome(extra);
    try {
      return await fn(home);
    } finally {
      home.cleanup();
    }
  };
}

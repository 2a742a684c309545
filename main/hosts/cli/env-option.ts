import { InvalidArgumentError } from 'commander';

/**
 * The one `--env` grammar of every command: `--env NAME=VALUE` sets a variable (`NAME=` sets it to
 * the empty string, as `env NAME=` does), `--unset NAME` removes it; both repeatable, --unset wins.
 * Set-but-empty and unset differ to the loader: a disable_environment variable disables its layer
 * when it is set to anything, "" included (loader_implicit_layer_is_enabled: getenv() != NULL), and
 * an empty VK_LAYER_PATH replaces the search with nothing.
 */
export type EnvOverrides = Record<string, string | null>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function collectSet(value: string, previous: EnvOverrides = {}): EnvOverrides {
  const eq = value.indexOf('=');
  const name = value.slice(0, eq);
  if (eq <= 0 || !NAME.test(name))
    throw new InvalidArgumentError('expected NAME=VALUE with a variable name of letters, digits and _ (NAME= sets it to ""; --unset NAME removes it)');
  return { ...previous, [name]: value.slice(eq + 1) };
}

function collectUnset(name: string, previous: string[] = []): string[] {
  if (!NAME.test(name)) throw new InvalidArgumentError('expected a variable name of letters, digits and _');
  return [...previous, name];
}

/** `.option(...envOption('the probe'))`: --env; `what` finishes "set a variable for …". */
export function envOption(what: string) {
  return ['--env <NAME=VALUE>', `set a variable for ${what} (NAME= sets it to ""); repeatable`, collectSet] as const;
}

/** `.option(...unsetOption('the probe'))`: --unset. */
export function unsetOption(what: string) {
  return ['--unset <NAME>', `remove a variable for ${what}; repeatable`, collectUnset] as const;
}

/** The overrides the options of `addEnvOptions` gave: a string sets, null removes. */
export function envOverrides(o: { env?: EnvOverrides; unset?: string[] }): EnvOverrides {
  const out: EnvOverrides = { ...(o.env ?? {}) };
  for (const name of o.unset ?? []) out[name] = null;
  return out;
}

/** `{ env }` for a request when any override was given, else `{}`. */
export function envRequest(o: { env?: EnvOverrides; unset?: string[]; json?: boolean }): { env?: EnvOverrides } {
  const env = envOverrides(o);
  return Object.keys(env).length ? { env } : {};
}

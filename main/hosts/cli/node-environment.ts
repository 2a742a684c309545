/**
 * What bin/strata's shell part set aside for Node's start, put back: NODE_EXTRA_CA_CERTS arrives as
 * STRATA_NODE_EXTRA_CA_CERTS (Node reads the file it names at every start, ~50–90 ms, and the CLI
 * opens no TLS connection: issue #19). Called first thing, so every child (a launched application,
 * the browser opener) and every report gets the environment as the user set it. A CLI that ever
 * opens a TLS connection must drop this: Node reads the variable only as it starts.
 */
export const CA_CERTS_VARIABLE = 'NODE_EXTRA_CA_CERTS';
export const CA_CERTS_SET_ASIDE = 'STRATA_NODE_EXTRA_CA_CERTS';

export function restoreNodeEnvironment(env: NodeJS.ProcessEnv): void {
  const value = env[CA_CERTS_SET_ASIDE];
  if (value === undefined) return;
  delete env[CA_CERTS_SET_ASIDE];
  // Set by the user too (`STRATA_NODE_EXTRA_CA_CERTS=… NODE_EXTRA_CA_CERTS=… node bin/strata`): theirs stays.
  if (env[CA_CERTS_VARIABLE] === undefined) env[CA_CERTS_VARIABLE] = value;
}

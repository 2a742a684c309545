/**
 * What bin/strata's shell part changed for Node's start, put back (issue #19):
 * - NODE_EXTRA_CA_CERTS arrives as STRATA_NODE_EXTRA_CA_CERTS (Node reads the file it names at every
 *   start, ~50–90 ms, and the CLI opens no TLS connection). A CLI that ever opens a TLS connection
 *   must drop this: Node reads the variable only as it starts;
 * - GLIBC_TUNABLES, when the user set none, arrives as the shell part's (huge pages for malloc's large
 *   blocks, which glibc reads only as the process starts), with STRATA_GLIBC_TUNABLES_ADDED saying so.
 * Called first thing, so every child (a launched application, the browser opener) and every report
 * gets the environment as the user set it.
 */
export const CA_CERTS_VARIABLE = 'NODE_EXTRA_CA_CERTS';
export const CA_CERTS_SET_ASIDE = 'STRATA_NODE_EXTRA_CA_CERTS';
export const TUNABLES_VARIABLE = 'GLIBC_TUNABLES';
export const TUNABLES_ADDED = 'STRATA_GLIBC_TUNABLES_ADDED';
/** The shell part's GLIBC_TUNABLES, exactly. */
export const SHELL_TUNABLES = 'glibc.malloc.hugetlb=1';

export function restoreNodeEnvironment(env: NodeJS.ProcessEnv): void {
  if (env[TUNABLES_ADDED] !== undefined) {
    delete env[TUNABLES_ADDED];
    if (env[TUNABLES_VARIABLE] === SHELL_TUNABLES) delete env[TUNABLES_VARIABLE];
  }
  const value = env[CA_CERTS_SET_ASIDE];
  if (value === undefined) return;
  delete env[CA_CERTS_SET_ASIDE];
  // Set by the user too (`STRATA_NODE_EXTRA_CA_CERTS=… NODE_EXTRA_CA_CERTS=… node bin/strata`): theirs stays.
  if (env[CA_CERTS_VARIABLE] === undefined) env[CA_CERTS_VARIABLE] = value;
}

/**
 * The stage the probe announces on stderr before each call into a driver, so a crash or hang can be
 * placed. A module of its own: every command's probe client reads it (main/bridge/bridge-client.ts), and
 * importing it from driver-negotiation.ts built that file's schemas at every start (issue #19).
 */
export const PROBE_STAGE_PREFIX = 'strata-driver-stage: ';

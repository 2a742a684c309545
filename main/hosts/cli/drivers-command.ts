import { callChannel } from './cli-channel';
import { EXIT, printJson } from './cli-output';
import { formatDriverNegotiation, probeRequest } from './vulkan-commands';
import type { ProbeEnvironment } from '../../../shared/vulkan/loader-info';
import { writeOut } from './standard-streams';

/**
 * `strata driver negotiate [--json] [--timeout <ms>] [--env K=V …] [MANIFEST...]`: exit 1 when any
 * driver failed (or the request itself did), as every read command exits 1 on findings. With --env,
 * both the manifest list (VK_DRIVER_FILES …) and each driver's probe use that environment.
 */
export async function driversNegotiateAction(manifests: string[], opts: { json?: boolean; timeout?: number; env?: ProbeEnvironment }): Promise<void> {
  const request = { ...(manifests.length ? { manifests } : {}), ...(opts.timeout !== undefined ? { timeoutMs: opts.timeout } : {}), ...probeRequest(opts) };
  const report = await callChannel('drivers.negotiate', request);
  if (opts.json) printJson(report);
  else writeOut(`${formatDriverNegotiation(report)}\n`);
  if (report.drivers.some((d) => !d.ok)) process.exitCode = EXIT.problems;
}

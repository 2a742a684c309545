import { callChannel } from './cli-channel';
import { EXIT, printJson } from './cli-output';
import { formatDriverNegotiation } from './vulkan-commands';

/**
 * `strata drivers negotiate [--json] [--timeout <ms>] [MANIFEST...]`: exit 1 when any driver failed
 * (or the request itself did), as every read command exits 1 on findings.
 */
export async function driversNegotiateAction(manifests: string[], opts: { json?: boolean; timeout?: number }): Promise<void> {
  const request = { ...(manifests.length ? { manifests } : {}), ...(opts.timeout !== undefined ? { timeoutMs: opts.timeout } : {}) };
  const report = await callChannel('drivers.negotiate', request);
  if (opts.json) printJson(report);
  else process.stdout.write(`${formatDriverNegotiation(report)}\n`);
  if (report.drivers.some((d) => !d.ok)) process.exitCode = EXIT.problems;
}

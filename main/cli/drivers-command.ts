import { createAppContext } from '../app-context';
import { findAppRoot } from '../app-paths';
import { EXIT, printError, printJson } from './cli-output';
import { formatDriverNegotiation } from './vulkan-commands';
import { DriversNegotiateReportSchema } from '../../shared/vulkan/driver-negotiation';

/**
 * `strata drivers negotiate [--json] [--timeout <ms>] [MANIFEST...]`: exit 1 when any driver failed
 * (or the request itself did), as every read command exits 1 on findings.
 */
export async function driversNegotiateAction(manifests: string[], opts: { json?: boolean; timeout?: number }): Promise<void> {
  const ctx = createAppContext({ root: findAppRoot() });
  try {
    const request = { ...(manifests.length ? { manifests } : {}), ...(opts.timeout !== undefined ? { timeoutMs: opts.timeout } : {}) };
    const result = await ctx.router.call('drivers.negotiate', request, { host: 'cli' });
    if (!result.ok) {
      printError(result.error);
      process.exitCode = EXIT.problems;
      return;
    }
    const report = DriversNegotiateReportSchema.parse(result.value);
    if (opts.json) printJson(report);
    else process.stdout.write(`${formatDriverNegotiation(report)}\n`);
    if (report.drivers.some((d) => !d.ok)) process.exitCode = EXIT.problems;
  } finally {
    ctx.dispose();
  }
}

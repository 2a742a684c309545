import { PROBE_STAGE_PREFIX } from '../shared/vulkan/probe-stage-prefix';

/**
 * Written (synchronously: stderr is a pipe) before each call into a driver or layer library, so
 * main can say where a probe died: the last stage line is in the crash or timeout report.
 */
export function announce(stage: string): void {
  process.stderr.write(`${PROBE_STAGE_PREFIX}${stage}\n`);
}

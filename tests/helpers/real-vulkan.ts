import { execFileSync } from 'node:child_process';

/**
 * The ground truth for "which loader version is installed": what the real vulkaninfo (Debian's
 * vulkan-tools) prints. Strata's own answer must match it.
 */
export function vulkaninfoInstanceVersion(env: NodeJS.ProcessEnv): string {
  let out: string;
  try {
    out = execFileSync('vulkaninfo', ['--summary'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  } catch (e) {
    // vulkaninfo exits non-zero when no driver works, but the instance version line comes first.
    out = String((e as { stdout?: string }).stdout ?? '');
  }
  const m = out.match(/Vulkan Instance Version:\s*(\d+\.\d+\.\d+)/);
  if (!m) throw new Error(`vulkaninfo printed no "Vulkan Instance Version" line (is vulkan-tools installed?):\n${out.slice(0, 500)}`);
  return m[1]!;
}

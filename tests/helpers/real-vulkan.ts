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

/** `vulkaninfo <args>` in `env`, stdout only (it exits non-zero when no driver works; we still read what it printed). */
export function runVulkaninfo(args: string[], env: NodeJS.ProcessEnv, cwd?: string): string {
  try {
    return execFileSync('vulkaninfo', args, { env, cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000, maxBuffer: 64 << 20 });
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? '');
  }
}

export interface VulkaninfoSummary {
  instanceVersion: string;
  instanceExtensions: { name: string; revision: number }[];
  layers: { name: string; description: string; specVersion: string; implementationVersion: number }[];
  /** GPU blocks: "key = value" lines as printed (apiVersion, driverVersion, vendorID, deviceName, driverName …). */
  devices: Record<string, string>[];
}

/** Parses `vulkaninfo --summary` (vulkan-tools 1.3.239's layout). */
export function parseVulkaninfoSummary(out: string): VulkaninfoSummary {
  const section = (title: string) => {
    const start = out.search(new RegExp(`^${title}: count = \\d+\\n-+\\n`, 'm'));
    if (start < 0) return [];
    const body = out.slice(start).split('\n').slice(2);
    const end = body.findIndex((l) => l.trim() === '');
    return body.slice(0, end < 0 ? undefined : end);
  };
  const instanceVersion = out.match(/Vulkan Instance Version:\s*(\d+\.\d+\.\d+)/)?.[1];
  if (!instanceVersion) throw new Error(`not vulkaninfo --summary output:\n${out.slice(0, 500)}`);
  const instanceExtensions = section('Instance Extensions').map((l) => {
    const m = l.match(/^(\S+)\s*: extension revision (\d+)$/);
    if (!m) throw new Error(`unexpected extension line: ${l}`);
    return { name: m[1]!, revision: Number(m[2]) };
  });
  const layers = section('Instance Layers').map((l) => {
    // NAME  DESCRIPTION (may contain spaces)  SPEC  version IMPL
    const m = l.match(/^(\S+)\s+(.*?)\s+(\d+\.\d+\.\d+)\s+version (\d+)$/);
    if (!m) throw new Error(`unexpected layer line: ${l}`);
    return { name: m[1]!, description: m[2]!, specVersion: m[3]!, implementationVersion: Number(m[4]) };
  });
  const devices: Record<string, string>[] = [];
  const devicesPart = out.slice(out.indexOf('\nDevices:'));
  for (const block of devicesPart.split(/^GPU\d+:$/m).slice(1)) {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      const m = line.match(/^\s+(\w+)\s+= (.*)$/);
      if (m) fields[m[1]!] = m[2]!;
    }
    devices.push(fields);
  }
  return { instanceVersion, instanceExtensions, layers, devices };
}

import type { z } from 'zod';
import type { BridgeClient } from '../bridge-client';
import type { BridgePool } from '../bridge-pool';
import { strataError, StrataRequestError } from '../../shared/errors/strata-error';
import { DevicesReportSchema, type DevicesReport } from '../../shared/vulkan/devices';
import { LoaderInfoSchema, type LoaderInfo, type ProbeEnvironment } from '../../shared/vulkan/loader-info';

export interface VulkanServiceOptions {
  bridge: BridgeClient;
  probes?: BridgePool;
}

function clientFor(options: VulkanServiceOptions, env: ProbeEnvironment | undefined): BridgeClient {
  if (options.probes) return options.probes.forEnv(env);
  if (env && Object.keys(env).length > 0) {
    throw new StrataRequestError(strataError('bridge/no-pool', 'This host cannot start a probe with another environment', { where: 'env' }));
  }
  return options.bridge;
}

/** One probe request, its answer checked against the shared schema (it crossed a process boundary). */
async function ask<S extends z.ZodType>(options: VulkanServiceOptions, method: string, schema: S, env: ProbeEnvironment | undefined): Promise<z.output<S>> {
  const result = await clientFor(options, env).request(method);
  if (!result.ok) throw new StrataRequestError(result.error);
  const parsed = schema.safeParse(result.value);
  if (!parsed.success) {
    throw new StrataRequestError(
      strataError('bridge/invalid-reply', `The Vulkan probe's answer to "${method}" does not match its schema: ${parsed.error.message.slice(0, 300)}`, {
        where: 'native-bridge probe',
        fix: 'this is a bug in Strata; please report it',
      }),
    );
  }
  return parsed.data;
}

export function loaderInfo(options: VulkanServiceOptions, request: { env?: ProbeEnvironment }): Promise<LoaderInfo> {
  return ask(options, 'loader.info', LoaderInfoSchema, request.env);
}

export function physicalDevices(options: VulkanServiceOptions, request: { env?: ProbeEnvironment }): Promise<DevicesReport> {
  return ask(options, 'devices', DevicesReportSchema, request.env);
}

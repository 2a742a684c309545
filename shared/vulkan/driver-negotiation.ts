import * as z from 'zod';
import { REQUEST_LIMITS, tooMany } from '../ipc/request-limits';
import { strataError, type StrataError } from '../errors/strata-error';
import { StrataErrorSchema } from '../errors/strata-error-schema';
import { LibraryResolutionSchema } from './library-resolution-schema';
import { ProbeEnvironmentSchema } from './loader-info';

/**
 * drivers.negotiate: each driver (ICD) loaded on its own and taken through the loader–driver
 * interface handshake the real loader performs (LoaderDriverInterface.md, "Loader and Driver
 * Interface Negotiation"; vk_icd.h): which entry points it exports, the interface version agreed by
 * vk_icdNegotiateLoaderICDInterfaceVersion, and whether vk_icdGetInstanceProcAddr(NULL,
 * "vkCreateInstance") answers.
 */

/**
 * CURRENT_LOADER_ICD_INTERFACE_VERSION of the loader Strata is built against (vk_icd.h of
 * libvulkan-dev 1.3.239; tests/integration/driver-negotiation-service.test.ts reads the installed header
 * and fails when it differs). The probe offers this version first, as the loader does.
 */
export const LOADER_ICD_INTERFACE_VERSION = 7;

/** What each interface version added (vk_icd.h's table), for people reading the result. */
export const INTERFACE_VERSION_FEATURES: Readonly<Record<number, string>> = {
  0: 'vkGetInstanceProcAddr exported (no vk_icd entry points)',
  1: 'vk_icdGetInstanceProcAddr',
  2: 'interface negotiation (vk_icdNegotiateLoaderICDInterfaceVersion)',
  3: 'driver-created KHR_surface objects',
  4: 'vk_icdGetPhysicalDeviceProcAddr for unknown physical-device functions',
  5: 'loader honours VkApplicationInfo.apiVersion (no 1.0 fallback in the driver)',
  6: 'vk_icdEnumerateAdapterPhysicalDevices (Windows)',
  7: 'vk_icd* functions queryable through vk_icdGetInstanceProcAddr, need not be exported',
};

/** The entry points the probe looks up with dlsym, in the order the report lists them. */
export const DRIVER_ENTRY_POINTS = [
  'vk_icdNegotiateLoaderICDInterfaceVersion',
  'vk_icdGetInstanceProcAddr',
  'vk_icdGetPhysicalDeviceProcAddr',
  'vk_icdEnumerateAdapterPhysicalDevices',
  'vkGetInstanceProcAddr',
] as const;
export type DriverEntryPoint = (typeof DRIVER_ENTRY_POINTS)[number];

export const DEFAULT_NEGOTIATE_TIMEOUT_MS = 5000;

export const DriversNegotiateRequestSchema = z
  .object({
    /** Driver manifest paths; absent: the *.json of the loader's default driver folders. */
    manifests: z.array(z.string().min(1)).max(REQUEST_LIMITS.driverManifests, tooMany('driver manifests', REQUEST_LIMITS.driverManifests)).optional(),
    /** Per-driver limit; a driver that hangs longer is reported as timed out and its probe killed. */
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
    /** The environment to discover and load in, on top of Strata's own (null unsets): VK_DRIVER_FILES, LD_LIBRARY_PATH … */
    env: ProbeEnvironmentSchema.optional(),
  })
  .strict();
export type DriversNegotiateRequest = z.infer<typeof DriversNegotiateRequestSchema>;

export const DriverNegotiationSchema = z.object({
  manifest: z.string(),
  /** ICD.library_path as written in the manifest; null when the manifest could not be read. */
  libraryPath: z.string().nullable(),
  /** The file the probe opened: resolved against the manifest's folder, or (bare name) where the dynamic linker found it. */
  library: z.string().nullable(),
  /** Where library_path leads before loading (Linux): the path, or the dynamic linker's search for a bare name with every place looked at. */
  resolution: LibraryResolutionSchema.nullable().default(null),
  /** ICD.api_version as written. */
  apiVersion: z.string().nullable(),
  /** dlsym results; null when the library could not be opened. */
  exports: z.array(z.enum(DRIVER_ENTRY_POINTS)).nullable(),
  /** Where vk_icdNegotiateLoaderICDInterfaceVersion came from (interface 7 allows vk_icdGetInstanceProcAddr). */
  negotiateFrom: z.enum(['export', 'vk_icdGetInstanceProcAddr']).nullable(),
  /** The version the probe offered (the loader's current one). */
  requestedVersion: z.number().int().nonnegative(),
  /** The interface version agreed: negotiated, or 1 / 0 for drivers without negotiation; null when none. */
  interfaceVersion: z.number().int().nonnegative().nullable(),
  /** What negotiation returned (VK_SUCCESS, VK_ERROR_INCOMPATIBLE_DRIVER …); null when it was not called. */
  negotiateResult: z.string().nullable(),
  /** vk_icdGetInstanceProcAddr (or vkGetInstanceProcAddr) (NULL, "vkCreateInstance") was non-null; null when not asked. */
  createInstanceFound: z.boolean().nullable(),
  ok: z.boolean(),
  error: StrataErrorSchema.nullable(),
  /** Wall time of this driver's negotiate request (crash or timeout included, the probe process's start excluded). */
  elapsedMs: z.number().nonnegative(),
});
export type DriverNegotiation = z.infer<typeof DriverNegotiationSchema>;

export const DriversNegotiateReportSchema = z.object({
  loaderInterfaceVersion: z.number().int().nonnegative(),
  /** Where the manifest list came from. */
  source: z.enum(['request', 'default-folders', 'VK_DRIVER_FILES', 'VK_ICD_FILENAMES']),
  drivers: z.array(DriverNegotiationSchema),
});
export type DriversNegotiateReport = z.infer<typeof DriversNegotiateReportSchema>;

/** A driver's result before anything is known about it: every field null, not ok yet. */
export function emptyNegotiation(manifest: string, requestedVersion: number = LOADER_ICD_INTERFACE_VERSION): DriverNegotiation {
  return {
    manifest,
    libraryPath: null,
    library: null,
    resolution: null,
    apiVersion: null,
    exports: null,
    negotiateFrom: null,
    requestedVersion,
    interfaceVersion: null,
    negotiateResult: null,
    createInstanceFound: null,
    ok: false,
    error: null,
    elapsedMs: 0,
  };
}

/** A result for a driver the probe could not answer for (crash, timeout): everything unknown but the error. */
export function failedNegotiation(manifest: string, error: StrataError, elapsedMs: number, partial: Partial<DriverNegotiation> = {}): DriverNegotiation {
  return { ...emptyNegotiation(manifest), ...partial, ok: false, error, elapsedMs };
}

/** "lvp_icd.x86_64.json (libvulkan_lvp.so)": how every per-driver message names the driver. */
export function driverLabel(manifest: string, library: string | null): string {
  const base = manifest.split('/').pop() ?? manifest;
  return library ? `${base} (${library})` : base;
}

/** A crash or timeout of the per-driver probe, turned into that driver's diagnostic. */
export function probeDiedError(kind: 'crashed' | 'timeout', manifest: string, library: string | null, stage: string | null, detail: string): StrataError {
  const name = driverLabel(manifest, library);
  const during = stage ? ` during ${stage}` : '';
  return kind === 'crashed'
    ? strataError('driver/crashed', `Driver ${name} crashed the probe${during}: ${detail}`, {
        where: manifest,
        fix: 'the driver is broken or built for another system; the real loader would crash the application the same way. Remove or update the driver, or leave it out with VK_DRIVER_FILES',
      })
    : strataError('driver/timeout', `Driver ${name} did not return${during} within ${detail}`, {
        where: manifest,
        fix: 'the driver hangs while loading; applications using the real loader would hang the same way. Remove or update the driver, or leave it out with VK_DRIVER_FILES',
      });
}

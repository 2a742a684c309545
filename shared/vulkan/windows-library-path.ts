/**
 * Where the Windows loader looks for a manifest's library_path (loader 1.3.239 … 1.4.359,
 * combine_manifest_directory_and_library_path with loader_platform_is_path_absolute of
 * vk_loader_platform.h): absolute when it starts with "\" or its second character is ":"
 * (C:\…, C:…); relative to the manifest's folder when it contains a "\" — only a backslash, the
 * DIRECTORY_SYMBOL: "./x.dll" with a forward slash is a bare name; otherwise a bare name that
 * LoadLibrary searches for (not modelled: null).
 */
export function windowsLibraryFile(manifestPath: string, libraryPath: string): { path: string; via: 'absolute' | 'manifest-relative' } | null {
  if (libraryPath.startsWith('\\') || libraryPath[1] === ':') return { path: libraryPath, via: 'absolute' };
  if (!libraryPath.includes('\\')) return null;
  const cut = manifestPath.lastIndexOf('\\');
  return { path: (cut >= 0 ? manifestPath.slice(0, cut + 1) : '') + libraryPath, via: 'manifest-relative' };
}

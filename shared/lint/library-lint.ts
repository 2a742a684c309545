import type { Diagnostic } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from './diagnostic-severity';
import type { Field } from '../manifest/manifest-model';
import { libraryViaText, type LibraryResolution } from '../vulkan/library-search';
import type { LibraryHeaderVerdict } from '../vulkan/library-header';
import { diagnosticCodes, type DiagnosticCode } from './diagnostic-codes';
import { strataDiagnostic } from './strata-diagnostic';

/**
 * Lint of a manifest's "library_path" as the loader resolves and opens it (issue #14 point 6).
 * Resolution (combine_manifest_directory_and_library_path, loader.c, the same in 1.3.239 … 1.4.359;
 * LoaderLayerInterface and LoaderDriverInterface, "library_path"): an absolute path is used as is, a
 * path with a directory separator is relative to the manifest's folder, a bare file name goes to
 * dlopen / LoadLibrary and their search. What happens when the open fails is the same in all six
 * loaders of the matrix (loader_handle_load_library_error; "Requested layer "NAME" failed to load" /
 * "was wrong bit-type"; "loader_icd_scan: Failed loading library associated with ICD JSON"), so no
 * verdict here is keyed by loader version (tests/integration/lint-vs-loader.test.ts proves each one
 * per version).
 *
 * Pure: main/discovery/library-check.ts resolves the path (shared/vulkan/library-search.ts) and reads
 * the file's first bytes (shared/vulkan/library-header.ts classifies them); this turns the facts into
 * diagnostics on the range of the "library_path" value.
 */

/** What is at the path the loader would open. */
export type LibraryFileState =
  | { state: 'missing' }
  /** A folder, device, FIFO or socket: `what` says which ("a folder"). */
  | { state: 'not-a-file'; what: string }
  /** It exists but cannot be opened or read: `reason` is the error (EACCES …). */
  | { state: 'unreadable'; reason: string }
  | { state: 'read'; size: number; header: LibraryHeaderVerdict };

export interface LibraryCheck {
  /** The loader's platform (the process Strata runs in). */
  os: 'linux' | 'windows';
  /** process.arch of that process. */
  arch: string;
  resolution: LibraryResolution;
  /** What is at resolution.path; null when a bare name is found nowhere on the search path. */
  file: LibraryFileState | null;
  /** Whether ld.so.cache's content was known (the file read, or `ldconfig -p` answered) when a bare name was searched. */
  cacheRead: boolean;
  /** LD_LIBRARY_PATH in the environment linted for (undefined: unset). A secure-execution (setuid) process's linker ignores it. */
  ldLibraryPath: string | undefined;
  /** The dynamic linker's default folders, in order, as searched. */
  defaultFolders: readonly string[];
}

/** The library facts of one library_path of the manifest at `manifestPath`; null where Strata does not model the search (a bare DLL name, macOS). */
export type LibraryLookup = (manifestPath: string, libraryPath: string) => LibraryCheck | null;

/** Who the library is for: what the loader does when it cannot open it depends on it. */
export interface LibraryOwner {
  kind: 'explicit-layer' | 'implicit-layer' | 'layer' | 'driver';
  /** The layer's name, for the message. */
  name?: string | undefined;
  /** The manifest's "library_arch" ("32" / "64"), when it is a string. */
  libraryArch?: string | undefined;
}

const bitsOf = (arch: string): 32 | 64 => (arch === 'ia32' || arch === 'arm' || arch === 'mips' || arch === 'mipsel' || arch === 'ppc' ? 32 : 64);

/**
 * The line the loader logs about a layer it could not load, as the user finds it in VK_LOADER_DEBUG's
 * output (loader.c, loader_enable_instance_layers's check of the activated layers, the same in 1.3.239
 * … 1.4.359): the layer's name in quotes, "!" when the application asked for it (an error) and "."
 * when it is implicit (INFO). A manifest without a name is not listed, so "…" stands in for none.
 */
function loaderLayerLine(owner: LibraryOwner, what: 'failed to load' | 'was wrong bit-type', ending: '!' | '.'): string {
  return `"Requested layer "${owner.name ?? '…'}" ${what}${ending}"`;
}

/** What the loader does when the library cannot be opened, per owner. */
function consequence(owner: LibraryOwner): string {
  const layer = owner.name ? `layer ${owner.name}` : 'the layer';
  switch (owner.kind) {
    case 'explicit-layer':
      return `the loader lists ${layer}, but vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT when an application enables it (${loaderLayerLine(owner, 'failed to load', '!')})`;
    case 'implicit-layer':
      return `the loader lists ${layer} but leaves it out of every instance, saying so only at INFO level (${loaderLayerLine(owner, 'failed to load', '.')})`;
    case 'layer':
      return `the loader cannot load ${layer}: enabled by an application, vkCreateInstance fails with VK_ERROR_LAYER_NOT_PRESENT; as an implicit layer it is silently left out`;
    case 'driver':
      return 'the loader skips this driver ("loader_icd_scan: Failed loading library associated with ICD JSON …"); with no other driver vkCreateInstance fails with VK_ERROR_INCOMPATIBLE_DRIVER';
  }
}

const ownerWord = (owner: LibraryOwner) => (owner.kind === 'driver' ? 'driver' : 'layer');

/** What the loader of a process of the other word size does with the library (loader_handle_load_library_error: the dlerror line at INFO level, then…). */
function otherClassConsequence(owner: LibraryOwner, processBits: number): string {
  const layer = owner.name ? `layer ${owner.name}` : 'the layer';
  switch (owner.kind) {
    case 'explicit-layer':
    case 'layer':
      return `in a ${processBits}-bit application the loader lists ${layer}, and enabling it fails with VK_ERROR_LAYER_NOT_PRESENT (${loaderLayerLine(owner, 'was wrong bit-type', '!')}); as an implicit layer it is left out, said at INFO level only`;
    case 'implicit-layer':
      return `a ${processBits}-bit application's loader leaves ${layer} out, saying so at INFO level only (${loaderLayerLine(owner, 'was wrong bit-type', '.')})`;
    case 'driver':
      return `a ${processBits}-bit application's loader skips this driver ("Requested ICD … was wrong bit-type. Ignoring this JSON")`;
  }
}

/** The folders a bare-name search looked in, for the message ("LD_LIBRARY_PATH (/a, /b), the ld.so cache, /lib, /usr/lib"). */
function searchedText(check: LibraryCheck): string {
  const parts: string[] = [];
  const ldPath = check.resolution.tried.filter((t) => t.via === 'LD_LIBRARY_PATH').map((t) => t.path.slice(0, t.path.lastIndexOf('/')) || '/');
  parts.push(
    ldPath.length
      ? `LD_LIBRARY_PATH (${ldPath.join(', ')})`
      : check.ldLibraryPath
        ? "not LD_LIBRARY_PATH (a setuid/setgid application's linker ignores it)"
        : 'LD_LIBRARY_PATH (not set for Strata)',
  );
  parts.push(check.cacheRead ? 'the ld.so cache' : 'the ld.so cache (which Strata could not read: neither /etc/ld.so.cache nor ldconfig -p answered)');
  parts.push(check.defaultFolders.length ? `the default folders ${check.defaultFolders.join(', ')}` : 'the default folders');
  const skipped = check.resolution.tried.filter((t) => t.outcome !== 'missing' && t.outcome !== 'ok');
  const skips = skipped.length
    ? `; skipped as unloadable here: ${skipped.map((t) => `${t.path} (${t.outcome === 'wrong-arch' ? 'another architecture' : 'not an ELF shared object'})`).join(', ')}`
    : '';
  return `${parts.join(', ')}${skips}`;
}

/** glibc's dlerror() for bytes that are not an ELF file, as the loader logs it. */
function dlopenSays(check: LibraryCheck, size: number): string {
  if (check.os === 'windows') return 'LoadLibrary fails';
  return `dlopen fails ("${size < (bitsOf(check.arch) === 64 ? 64 : 52) ? 'file too short' : 'invalid ELF header'}")`;
}

/**
 * The diagnostics for one "library_path" value (`field`, already known to be a string) given what
 * main found there. Empty when the library loads, or where the loader would not open it in this
 * process anyway (a "library_arch" for the other word size: the loader skips the manifest first).
 */
export function lintLibraryPath(field: Field<string>, check: LibraryCheck, owner: LibraryOwner): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (code: DiagnosticCode, message: string, severity?: DiagnosticSeverity, data: object = {}) => {
    const d = strataDiagnostic(diagnosticCodes, code, field.range, message, { library: check.resolution.path, via: check.resolution.via, ...data });
    out.push(severity === undefined ? d : { ...d, severity });
  };
  const processBits = bitsOf(check.arch);
  // Loader 1.3.239+ (library_arch, manifest 1.2.1 / ICD 1.0.1) skips a manifest for the other word size before it opens anything.
  if (owner.libraryArch === '32' || owner.libraryArch === '64') if (Number(owner.libraryArch) !== processBits) return out;

  const { resolution: r } = check;
  const lp = field.value ?? r.libraryPath;
  const what = ownerWord(owner);
  const path = r.path ?? lp;
  const how = ` (${libraryViaText(r.via)})`;

  if (r.via === 'not-found' || check.file === null) {
    report(
      'library/not-on-search-path',
      `"${lp}" is a bare file name, which the loader hands to ${check.os === 'windows' ? 'LoadLibrary' : 'dlopen'} as it is, and the dynamic linker's search does not find it as Strata runs: searched ${searchedText(check)}. In an application started the same way, ${consequence(owner)}. Fix: install the ${what}'s library into a folder the linker searches (then run ldconfig), write "library_path" as a full path, or start applications with LD_LIBRARY_PATH naming its folder.`,
      // ld.so.cache unread: the linker may still find it there, so Strata cannot be sure.
      check.cacheRead ? undefined : DiagnosticSeverity.Information,
    );
    return out;
  }

  const file = check.file;
  const relativeHint = r.via === 'manifest-relative' ? ` (a relative "library_path" is relative to the manifest's folder, not to the current one)` : '';
  switch (file.state) {
    case 'missing':
      report(
        'library/not-found',
        `Library ${path}${how} does not exist; ${consequence(owner)}. Fix: install the ${what}'s library there, or correct "library_path"${relativeHint}.`,
      );
      return out;
    case 'not-a-file':
      report(
        'library/not-a-file',
        `${path}${how} is ${file.what}, not a library file; ${check.os === 'windows' ? 'LoadLibrary' : 'dlopen'} fails${file.what === 'a folder' ? ' ("cannot read file data: Is a directory")' : ''}, so ${consequence(owner)}. Fix: point "library_path" at the ${what}'s shared library file itself${relativeHint}.`,
      );
      return out;
    case 'unreadable':
      report(
        'library/unreadable',
        `${path}${how} cannot be read (${file.reason}); the loader's open fails the same way in an application run by this user, so ${consequence(owner)}. Fix: make the file readable (chmod a+r), or install the ${what} for this user.`,
      );
      return out;
    case 'read':
      break;
  }

  const h = file.header;
  switch (h.verdict) {
    case 'ok':
    case 'unknown':
      return out;
    case 'not-a-library':
      report(
        'library/not-a-shared-library',
        `${path}${how} is ${h.what}; ${dlopenSays(check, file.size)}, so ${consequence(owner)}. Fix: point "library_path" at the ${what}'s ${check.os === 'windows' ? 'DLL' : 'shared object (.so)'}, or reinstall the ${what} (a truncated download or a placeholder file?).`,
        undefined,
        { what: h.what },
      );
      return out;
    case 'wrong-class': {
      const bits = h.bits;
      const claimsThis = owner.libraryArch === String(processBits);
      const opening = check.os === 'windows' ? 'LoadLibrary fails with error 193' : `dlopen fails with "wrong ELF class: ELFCLASS${bits}"`;
      if (claimsThis)
        report(
          'library/wrong-class',
          `${path}${how} is a ${h.description} library, but "library_arch" says "${owner.libraryArch}": ${bits}-bit applications skip the manifest for its "library_arch", and in ${processBits}-bit ones ${opening}: ${otherClassConsequence(owner, processBits)}. No application loads this ${what}. Fix: set "library_arch" to "${bits}", or point "library_path" at the ${processBits}-bit build.`,
          DiagnosticSeverity.Error,
          { bits, want: h.want },
        );
      else
        report(
          'library/wrong-class',
          `${path}${how} is a ${h.description} library, for ${bits}-bit applications. In a ${h.want} process (as Strata runs) ${opening}, and ${otherClassConsequence(owner, processBits)}: the loader's way with multilib manifests. Fix: nothing if this manifest is installed for ${bits}-bit applications on purpose; add "library_arch": "${bits}" so ${processBits}-bit loaders skip it without opening the library${owner.kind === 'driver' ? ' (ICD file_format_version 1.0.1)' : ' (file_format_version 1.2.1)'}, or point "library_path" at the ${processBits}-bit build.`,
          undefined,
          { bits, want: h.want },
        );
      return out;
    }
    case 'wrong-machine':
      report(
        'library/wrong-machine',
        `${path}${how} is built for ${h.description}, but this machine runs ${h.want}: no application here can load it (${check.os === 'windows' ? 'LoadLibrary error 193' : 'glibc\'s dlopen even says "cannot open shared object file: No such file or directory" for it, although the file is there'}), so ${consequence(owner)}. Fix: install the ${h.want} build of the ${what}.`,
        undefined,
        { machine: h.machine, want: h.want },
      );
      return out;
  }
}

/**
 * The native files a target loads, under node_modules; `pkg` is the per-platform package holding one, `tool`
 * marks ffmpeg and ffprobe, `builtFor` the processor a file is built for when not the target's.
 */
export declare function nativesFor(
  platform: string,
  arch: string,
): { file: string; pkg: string | null; tool?: boolean; builtFor?: string }[];
/** The processor a target's ffmpeg is built for (Windows on Arm: x64, under emulation). */
export declare function ffmpegArch(platform: string, arch: string): string;
/** The system and processor a native binary's header says it is built for. */
export declare function binaryTarget(head: Buffer): { platform: string; arch: string } | null;
/** What is wrong with the native parts under `modules` for a target (none: an empty list). */
export declare function nativeProblems(
  modules: string,
  platform: string,
  arch: string,
  onlyOwn?: boolean,
): string[];
/** The command that installs a target's platform packages. */
export declare function installCommand(platform: string, arch: string): string;
/** Throws, naming every problem and the fix, when the natives under `modules` are wrong for the target. */
export declare function assertNatives(
  modules: string,
  platform: string,
  arch: string,
  onlyOwn?: boolean,
): void;
/** Fetches and unpacks a target's platform packages into node_modules; returns what it installed. */
export declare function installNatives(platform: string, arch: string): string[];
/** Unpacks an npm tarball's `package/` folder (already gunzipped) into `into`. */
export declare function untar(tar: Buffer, into: string): void;

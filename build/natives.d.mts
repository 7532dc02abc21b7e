/** The native files a target loads, under node_modules; `pkg` is the per-platform package holding one. */
export declare function nativesFor(platform: string, arch: string): { file: string; pkg: string | null }[];
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

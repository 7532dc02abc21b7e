/** Why Chromium's sandbox cannot start here, with the fix; null when it can. */
export declare function sandboxProblem(o: {
  platform: NodeJS.Platform;
  args: string[];
  sandbox: { path: string; uid: number; mode: number } | null;
  usernsRestricted: boolean;
}): string | null;
/** Whether the kernel refuses user namespaces to unprivileged programs. */
export declare function usernsRestricted(read?: (file: string) => string): boolean;

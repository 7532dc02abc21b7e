/** What to print, and the exit code, when loading the CLI threw `error`. */
export declare function explainLoadFailure(
  error: unknown,
  args: string[],
  glibc?: string | null,
): { text: string; code: number };

/** The CLI's exit codes; scripts rely on them. */
export const ExitCode = {
  Ok: 0,
  Failed: 1,
  Usage: 2,
  Auth: 3,
  Credits: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A state directory the sandbox cannot use; the message names the file and what to do, for a person. */
export class SandboxStateError extends Error {
  override name = 'SandboxStateError';
}

/** The state directory is held by a sandbox that is running or still starting: use that one, or wait. */
export class SandboxInUseError extends SandboxStateError {}

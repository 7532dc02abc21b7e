/** A state directory the sandbox cannot use; the message names the file and what to do, for a person. */
export class SandboxStateError extends Error {
  override name = 'SandboxStateError';
}

/** An error answered as `{ "error": message }` (plus any extra fields, like v2 create's 502 `id`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * Text from the service (error messages, names), made safe to show: no control characters or terminal
 * escape sequences, no bidi overrides, and a bounded length.
 */
export function cleanServiceText(raw: string, max = 500): string {
  const text = raw
    // eslint-disable-next-line no-control-regex -- escape sequences are exactly what must go
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b\[[0-?]*[ -/]*[@-~]|\u001b./g, '')
    // eslint-disable-next-line no-control-regex -- and every other control character
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[\t\n\r]+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

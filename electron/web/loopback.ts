/** The only address serve ever listens on: this machine, this user's browser. */
export const LOOPBACK = '127.0.0.1';

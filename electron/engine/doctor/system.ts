import { fail, pass, type Check } from './check';

/**
 * The oldest C library the native modules load on: better-sqlite3's Linux prebuild needs GLIBC_2.34 and
 * GLIBCXX_3.4.29 (Ubuntu 22.04, Debian 12, Fedora 35, RHEL 9). electron-builder.yml's deb says so too.
 */
export const GLIBC_MINIMUM = '2.34';
export const GLIBC_FIX =
  'Use a Linux with glibc 2.34 or newer: Ubuntu 22.04, Debian 12, Fedora 35, RHEL 9 or later (or run Dubdesk in a container with one).';

const parts = (v: string) => v.split('.').map((n) => Number.parseInt(n, 10) || 0);

/** The C library this process runs on (Linux only: glibc's version, null for musl). */
export function glibcVersion(): string | null {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime ?? null;
}

/** On Linux, whether the C library is new enough for the native modules; no line elsewhere. */
export function systemCheck(platform: NodeJS.Platform, glibc: string | null): Check | null {
  if (platform !== 'linux') return null;
  if (glibc === null)
    return fail('System', 'not glibc (musl?): the native modules are built for glibc', GLIBC_FIX);
  const [major = 0, minor = 0] = parts(glibc);
  const [needMajor = 0, needMinor = 0] = parts(GLIBC_MINIMUM);
  if (major > needMajor || (major === needMajor && minor >= needMinor))
    return pass('System', `glibc ${glibc}`);
  return fail(
    'System',
    `glibc ${glibc} is older than the ${GLIBC_MINIMUM} Dubdesk's native modules need`,
    GLIBC_FIX,
  );
}

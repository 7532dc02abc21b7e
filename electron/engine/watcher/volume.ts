import { statfs } from 'node:fs/promises';
import { win32 } from 'node:path';

/**
 * Whether a folder's changes must be found by polling. File-system events do not cross the network (a
 * change made on another machine of an NFS/SMB share is never reported here) and are lost when a removable
 * drive goes away and comes back, so those folders are polled. How each system tells:
 *
 * - Linux: the file-system type `statfs` reports for the folder (its magic number): network file systems
 *   (NFS, SMB/CIFS, 9p — which is also how WSL mounts Windows drives —, AFS, Ceph, Coda, Lustre, FUSE —
 *   sshfs, rclone, gvfs, and NTFS through ntfs-3g —, VirtualBox shared folders) and the file systems of
 *   removable media (FAT, exFAT, NTFS, HFS+, ISO 9660, UDF).
 * - macOS: folders under `/Volumes/` (every disk but the startup disk: external drives, network shares,
 *   disk images) and under the automounter's `/net/` and `/Network/`.
 * - Windows: UNC paths (`\\server\share`) and every drive letter other than the system drive (USB sticks,
 *   mapped network drives and card readers cannot be told apart from a second internal disk without
 *   native calls; polling a second internal disk is merely a little more work).
 *
 * A folder's `polling` setting (`always` / `never`) overrides the detection either way.
 */
export interface PollDecision {
  polled: boolean;
  reason: string | null;
}

const NETWORK_MAGIC = new Map<number, string>([
  [0x6969, 'nfs'],
  [0x517b, 'smb'],
  [0xff534d42, 'cifs'],
  [0xfe534d42, 'smb2'],
  [0x01021997, '9p'],
  [0x5346414f, 'afs'],
  [0x00c36400, 'ceph'],
  [0x73757245, 'coda'],
  [0x0bd00bd0, 'lustre'],
  [0x65735546, 'fuse'],
  [0x786f4256, 'vboxsf'],
]);
const REMOVABLE_MAGIC = new Map<number, string>([
  [0x4d44, 'fat'],
  [0x2011bab0, 'exfat'],
  [0x5346544e, 'ntfs'],
  [0x482b, 'hfs+'],
  [0x9660, 'iso9660'],
  [0x15013346, 'udf'],
]);

/** Linux: by the file-system type `statfs` reports. */
export function byFileSystemType(type: number): PollDecision {
  const t = type >>> 0;
  const net = NETWORK_MAGIC.get(t);
  if (net) return { polled: true, reason: `network or user-space file system (${net})` };
  const removable = REMOVABLE_MAGIC.get(t);
  if (removable) return { polled: true, reason: `removable-drive file system (${removable})` };
  return { polled: false, reason: null };
}

/** macOS and Windows: by where the path is. */
export function byLocation(platform: NodeJS.Platform, path: string, systemDrive?: string): PollDecision {
  if (platform === 'darwin') {
    if (/^\/Volumes\/[^/]+/.test(path))
      return { polled: true, reason: 'on a drive other than the startup disk (/Volumes)' };
    if (/^\/(net|Network)\//.test(path)) return { polled: true, reason: 'on a network share' };
    return { polled: false, reason: null };
  }
  if (platform === 'win32') {
    if (/^(\\\\|\/\/)/.test(path)) return { polled: true, reason: 'on a network share (UNC path)' };
    const drive = win32.parse(path).root.slice(0, 2).toUpperCase();
    const system = (systemDrive ?? 'C:').slice(0, 2).toUpperCase();
    if (/^[A-Z]:$/.test(drive) && drive !== system)
      return { polled: true, reason: `on drive ${drive} (removable or network drives cannot be told apart)` };
    return { polled: false, reason: null };
  }
  return { polled: false, reason: null };
}

export async function pollDecision(
  path: string,
  setting: 'auto' | 'always' | 'never',
): Promise<PollDecision> {
  if (setting === 'always') return { polled: true, reason: 'set for this folder' };
  if (setting === 'never') return { polled: false, reason: null };
  if (process.platform === 'linux') {
    const info = await statfs(path).catch(() => null);
    return info ? byFileSystemType(info.type) : { polled: false, reason: null };
  }
  return byLocation(process.platform, path, process.env.SystemDrive);
}

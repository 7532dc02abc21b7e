import { locateMediaTools, type MediaTools } from '../../electron/media-tools/locate';

/** The ffmpeg shipped with Dubdesk (its npm package for this machine). */
export async function shipped(): Promise<MediaTools> {
  const { tools } = await locateMediaTools();
  if (tools?.from !== 'bundled')
    throw new Error('the ffmpeg package for this machine is not installed: npm ci');
  return tools;
}

/** The system's ffmpeg (apt), found on the PATH. */
export async function system(): Promise<MediaTools> {
  const { tools } = await locateMediaTools({ from: [], env: { PATH: process.env.PATH } });
  if (!tools) throw new Error('these tests need ffmpeg and ffprobe on the PATH (apt install ffmpeg)');
  return tools;
}

/** Both are run: a 2018 build ships with Dubdesk, and a user's own may be much newer. */
export const TOOLSETS = [
  ['shipped with Dubdesk', shipped],
  ['the system ffmpeg', system],
] as const;

import { mediaTools, type ToolsSearch } from '../../media-tools/locate';
import { note, pass, type Check } from './check';

const WHERE = {
  bundled: 'shipped with Dubdesk',
  DUBDESK_FFMPEG: 'from DUBDESK_FFMPEG',
  PATH: 'from the PATH',
};

/**
 * Which ffmpeg the audio path uses, and its version. None is not a failure: Dubdesk then sends whole files,
 * as the line says, with the way to send only the sound.
 */
export async function ffmpegCheck(search: Promise<ToolsSearch> = mediaTools()): Promise<Check> {
  const { tools, problems } = await search;
  const passed = problems.length ? ` (passed over: ${problems.join('; ')})` : '';
  if (!tools)
    return note(
      pass('ffmpeg', `none found${passed}: whole files are sent`),
      'Install ffmpeg (with ffprobe), or set DUBDESK_FFMPEG to an ffmpeg, to send only the sound.',
    );
  return pass('ffmpeg', `${tools.version}, ${WHERE[tools.from]}: ${tools.ffmpeg}${passed}`);
}

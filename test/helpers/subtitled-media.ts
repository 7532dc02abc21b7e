import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir';

const SRT = '1\n00:00:00,500 --> 00:00:02,000\nGood morning.\n\n2\n00:00:02,500 --> 00:00:04,000\nWelcome.\n';
const ASS = `[Script Info]
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Sign,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,8,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:03.00,Sign,,0,0,0,,{\\an8}AUSGANG
`;

/**
 * A video that carries subtitles of its own, as a film's release does: English SubRip titled "English",
 * and German signs as ASS (styled), forced. `mp4` holds them as mov_text, which is all an MP4 can.
 */
export function subtitledVideo(seconds: number, name: string): string {
  const dir = tempDir('subtitled-');
  writeFileSync(join(dir, 'en.srt'), SRT);
  writeFileSync(join(dir, 'de.ass'), ASS);
  const path = join(dir, name);
  const mp4 = name.endsWith('.mp4');
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-i', join(dir, 'en.srt'), '-i', join(dir, 'de.ass')],
    ...['-map', '0', '-map', '1', '-map', '2', '-map', '3', '-t', String(seconds)],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-af',
      'volume=-1.2dB',
    ],
    ...(mp4 ? ['-c:s', 'mov_text'] : ['-c:s:0', 'srt', '-c:s:1', 'ass']),
    ...['-metadata:s:s:0', 'language=eng', '-metadata:s:s:1', 'language=ger'],
    ...(mp4
      ? ['-metadata:s:s:0', 'handler_name=English', '-metadata:s:s:1', 'handler_name=German (signs)']
      : ['-metadata:s:s:0', 'title=English', '-metadata:s:s:1', 'title=German (signs)']),
    ...['-disposition:s:0', '0', '-disposition:s:1', 'forced'],
    path,
  ]);
  return path;
}

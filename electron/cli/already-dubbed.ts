import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { plural } from '../../shared/format';
import type { AddResult } from '../../shared/contract/batches';
import type { LoudnessTarget } from '../../shared/contract/deliver';
import type { JobView } from '../../shared/contract/jobs';
import type { DubdeskApi } from '../../shared/contract/methods';
import { jobRange, printable } from './format';

/** Lines for dubs already made with these settings: each named when few, else one line for them all. */
export function reportAlreadyDone(done: AddResult['alreadyDone']): void {
  if (done.length === 0) return;
  if (done.length <= 3) {
    for (const d of done) {
      // A result moved or deleted since is named as such: "already dubbed" alone would send the user looking.
      const files = [...new Set(d.outputs)].map((o) =>
        existsSync(o) ? printable(o) : `${printable(o)} (no longer there)`,
      );
      process.stderr.write(
        `already dubbed: job #${d.jobId} (${printable(d.source)} → ${d.destLang})${files.length ? `, files ${files.join(', ')}` : ''}; pass --again to dub it again (it is charged again).\n`,
      );
    }
    return;
  }
  const sources = new Set(done.map((d) => d.source)).size;
  const outputs = [...new Set(done.flatMap((d) => d.outputs))];
  const gone = outputs.filter((o) => !existsSync(o)).length;
  const folders = [...new Set(outputs.map((o) => dirname(o)))];
  const where = folders.length
    ? `; results in ${folders.slice(0, 2).map(printable).join(', ')}${folders.length > 2 ? ` and ${plural(folders.length - 2, 'more folder')}` : ''}`
    : '';
  process.stderr.write(
    `already dubbed: ${plural(done.length, 'dub')} of ${plural(sources, 'file')} with these settings (jobs ${jobRange(done.map((d) => d.jobId))})${where}${gone ? ` (${plural(gone, 'file')} no longer there)` : ''}; pass --again to dub them again (charged again); \`dubdesk status\` lists them.\n`,
  );
}

/** Job numbers as `dubdesk qc` takes them: a few written out, else the word for them. */
const idWords = (ids: readonly number[]) => (ids.length <= 10 ? ids.join(' ') : 'ID…');

/**
 * A batch that asks for another loudness target than the one its dubs already made were checked
 * against: their QC is judged again for free with `dubdesk qc --loudness`, not by paying for them again.
 */
export function reportOtherTarget(views: readonly JobView[], target: LoudnessTarget): void {
  const other = views.filter((j) => j.qc && j.qc.target.name !== target).map((j) => j.id);
  if (other.length === 0) return;
  const them = other.length === 1 ? 'it' : 'them';
  process.stderr.write(
    `${other.length === 1 ? 'Its' : 'Their'} QC used the other loudness target: \`dubdesk qc --loudness ${target} ${idWords(other)}\` judges ${them} against that target at no cost.\n`,
  );
}

/**
 * Of the dubs already made, those whose QC (and SubRip file) or whose source's package is still to be
 * made here: what a run stopped in the middle of (a crash, a kill) left. Nothing of it is charged.
 */
export async function unfinishedHere(api: DubdeskApi, done: readonly JobView[]): Promise<number[]> {
  const ids = done.filter((j) => j.state === 'completed').map((j) => j.id);
  if (ids.length === 0) return [];
  const packaging = new Set<string>();
  for (let offset = 0; ; offset += 500) {
    const page = await api.listSources({ filter: { ids }, offset, limit: 500 });
    for (const s of page.sources)
      if (s.package?.state === 'waiting' || s.package?.state === 'making') packaging.add(s.source);
    if (offset + page.sources.length >= page.total || page.sources.length === 0) break;
  }
  return done
    .filter((j) => j.state === 'completed' && (j.delivering || packaging.has(j.source)))
    .map((j) => j.id);
}

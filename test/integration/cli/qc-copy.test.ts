/**
 * A copy of a file already dubbed (the same content under another name) gets that dub's files linked at no
 * charge. Sending the sound alone, the dubbed sound its video was made from is gone by then: QC of the copy
 * must still say what it says of the dub it was copied from (here, 4 s short), not that its length could
 * not be checked.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { talkVideo } from '../../helpers/deliver-media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, faults: { badDubs: { fr: ['short'] } } });
});
afterAll(() => sb.stop());

const Status = z.object({
  jobs: z.array(
    z.object({
      id: z.number(),
      destLang: z.string(),
      sourceName: z.string(),
      creditsCharged: z.number().nullable(),
      copiedFrom: z.string().nullable(),
      qc: z
        .object({
          verdict: z.string(),
          measured: z.object({ kind: z.string() }),
          durationDelta: z.number().nullable(),
          problems: z.array(z.object({ code: z.string(), message: z.string() })),
        })
        .nullable(),
    }),
  ),
});

describe('QC of a copy of a dub made on the audio path', () => {
  it('says what the dub it was copied from says of its length, nothing unchecked', async () => {
    const work = tempDir('dubdesk-qc-copy-');
    const talk = join(work, 'talk.mp4');
    copyFileSync(talkVideo(8), talk);
    const env = envFor(sb, join(work, 'home'));
    const first = await runCli(
      ['dub', talk, '--to', 'es,fr', '--send', 'audio', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(first.stderr).toContain('This batch: 2 completed, 0 failed.');

    const copy = join(work, 'talk copy.mp4');
    copyFileSync(talk, copy);
    const second = await runCli(
      ['dub', copy, '--to', 'es,fr', '--send', 'audio', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(second.stderr).toContain('This batch: 2 completed, 0 failed. Credits charged: 0');

    const status = Status.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    const job = (name: string, lang: string) => {
      const found = status.jobs.find((j) => j.sourceName === name && j.destLang === lang);
      expect(found, `${name} → ${lang}`).toBeDefined();
      return found as (typeof status.jobs)[number];
    };
    for (const lang of ['es', 'fr']) {
      const donor = job('talk.mp4', lang);
      const copied = job('talk copy.mp4', lang);
      expect(copied.copiedFrom).not.toBeNull();
      expect(copied.creditsCharged).toBe(0);
      expect(donor.qc?.measured.kind).toBe('rebuilt');
      expect(copied.qc?.measured.kind).toBe('rebuilt');
      expect(donor.qc?.durationDelta).not.toBeNull();
      expect(copied.qc?.problems.map((p) => p.code)).not.toContain('unchecked');
      expect(copied.qc?.durationDelta, JSON.stringify(copied.qc)).toBeCloseTo(
        donor.qc?.durationDelta ?? NaN,
        2,
      );
      expect(copied.qc?.verdict).toBe(donor.qc?.verdict);
    }
    // The short French dub is flagged on its copy too, in the same words.
    const frCopy = job('talk copy.mp4', 'fr');
    expect(frCopy.qc?.verdict).toBe('fail');
    expect(frCopy.qc?.problems.find((p) => p.code === 'length')?.message).toMatch(
      /^the dub's sound is \d\.\d\d s shorter than the source's sound/,
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFileBody } from '../../../electron/engine/api/file-body';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.2, balance: 10_000 });
});
afterAll(() => sb.stop());

describe('a source whose name holds control characters', () => {
  it('is uploaded and dubbed (its multipart file name is encoded, the display name sent whole)', async () => {
    const name = 'clip\u001b[31m\u0007\u0000x\\y"z\u007f.mp4'.replace('\u0000', '');
    const engine = engineFor(sb);
    const out = tempDir('dubdesk-out-');
    const { added } = await engine.api.add({
      inputs: [videoMp4(1, name)],
      to: ['es'],
      api: 'v2',
      outDir: out,
    });
    expect(await engine.run(quickRun())).toBe('done');
    const job = (await allJobs(engine.api)).find((j) => j.id === added[0]);
    expect(job?.error?.message ?? null).toBeNull();
    expect(job?.state).toBe('completed');
    expect([...sb.state.dubs.values()].some((d) => d.name === name)).toBe(true);
    await engine.close();
  });

  it('puts no control character in the part header: percent-encoded, UTF-8 kept as browsers send it', async () => {
    const body = await multipartFileBody(
      {},
      { field: 'file', path: videoMp4(1, 'h.mp4'), name: 'a\u001b"b\\c\r\nd\u00e9.mp4', type: 'video/mp4' },
    );
    const head = (body.parts[0] as Buffer).toString('utf8');
    const disposition = /Content-Disposition: form-data; name="file"; ([^\r\n]*)/.exec(head)?.[1] ?? '';
    // eslint-disable-next-line no-control-regex
    expect(disposition).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(disposition).toContain('filename="a%1B%22b%5Cc%0D%0Ad\u00e9.mp4"');
  });
});

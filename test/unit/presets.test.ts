import { describe, expect, it } from 'vitest';
import { BatchRequestSchema } from '../../shared/contract/batches';
import { PresetNameSchema, PresetOptionsSchema, withPreset } from '../../shared/contract/presets';

describe('named presets are the options of add', () => {
  it('hold every option add takes but the sources, by the same schema', () => {
    const addKeys = Object.keys(BatchRequestSchema.shape).filter((k) => k !== 'inputs');
    expect(Object.keys(PresetOptionsSchema.shape).sort()).toEqual(addKeys.sort());
    // Checked as add checks them: a language list normalised, an unknown option refused.
    expect(PresetOptionsSchema.parse({ to: [' DE', 'it', 'de'] }).to).toEqual(['de', 'it']);
    expect(PresetOptionsSchema.safeParse({ to: ['de'], colour: 'blue' }).success).toBe(false);
    expect(PresetOptionsSchema.safeParse({ to: [] }).success).toBe(false);
  });

  it('fill a batch, and options given beside the preset win', () => {
    const euro = PresetOptionsSchema.parse({ to: ['de', 'it'], studio: true, naming: 'folders' });
    const batch = withPreset(euro, { inputs: ['clip.mp4'] });
    expect(batch).toMatchObject({ inputs: ['clip.mp4'], to: ['de', 'it'], studio: true, naming: 'folders' });
    const beside = withPreset(euro, { inputs: ['clip.mp4'], to: ['fr'], studio: false });
    expect(beside).toMatchObject({ to: ['fr'], studio: false, naming: 'folders' });
    expect(() => withPreset(null, { inputs: ['clip.mp4'] })).toThrow();
  });

  it('are named in one line of text', () => {
    expect(PresetNameSchema.parse('  ES+FR studio, a folder per language ')).toBe(
      'ES+FR studio, a folder per language',
    );
    expect(PresetNameSchema.safeParse('two\nlines').success).toBe(false);
    expect(PresetNameSchema.safeParse('   ').success).toBe(false);
    expect(PresetNameSchema.safeParse('é'.repeat(81)).success).toBe(false);
  });
});

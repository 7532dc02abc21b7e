import { DubdeskError } from '../../../../shared/contract/errors';
import type { EngineEventBody } from '../../../../shared/contract/events';
import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import { PresetOptionsSchema, type Preset, type PresetOptions } from '../../../../shared/contract/presets';
import type { Changes } from '../../db/changes';
import type { JobStore } from '../../db/jobs';
import type { PresetRow } from '../../db/presets';
import { absolutePath } from '../paths';

export interface PresetDeps {
  store: JobStore;
  emit(body: EngineEventBody): void;
  /** Where a relative output folder in a preset starts (the CLI's working folder). */
  cwd: string | null;
  warn(fields: Record<string, unknown>, message: string): void;
  /** Refuses languages the service does not take, as `add` does (a contract error). */
  checkLanguages(options: PresetOptions): Promise<void>;
}

type PresetHandlers = Pick<DubdeskHandlers, 'listPresets' | 'savePreset' | 'deletePreset'>;

/**
 * Named presets: `add`'s options under a name, in the queue's database, so every face (the CLI, the window,
 * the browser) lists and uses the same ones; each save or delete, in this process or another, reaches the faces
 * through the change feed. A stored preset is read back through the contract's schema; one
 * that no longer reads (written by a newer Dubdesk) is left out and logged, never guessed at.
 */
export class PresetsService {
  constructor(private readonly deps: PresetDeps) {}

  list(): Preset[] {
    return this.deps.store.presets.all().flatMap((row) => {
      const preset = this.read(row);
      return preset ? [preset] : [];
    });
  }

  /** The preset called `name` (any case), or a not-found error that lists the names there are. */
  get(name: string): Preset {
    const row = this.deps.store.presets.get(name);
    const preset = row ? this.read(row) : null;
    if (preset) return preset;
    const names = this.list().map((p) => p.name);
    throw new DubdeskError('not-found', `there is no preset called “${name}”`, {
      remedy: names.length
        ? `The presets are: ${names.join(', ')}.`
        : 'Save one first (dubdesk preset save NAME --to …, or Save as preset in the Add sheet).',
      field: 'preset',
    });
  }

  handlers(): PresetHandlers {
    return {
      listPresets: () => ({ presets: this.list() }),
      savePreset: async ({ name, options }) => {
        await this.deps.checkLanguages(options);
        const outDir = options.outDir ? absolutePath(options.outDir, this.deps.cwd, 'outDir') : undefined;
        const saved = { ...options, ...(outDir ? { outDir } : {}) };
        this.deps.store.presets.save(name, JSON.stringify(saved), Date.now());
        return this.get(name);
      },
      deletePreset: ({ name }) => {
        const existing = this.get(name);
        this.deps.store.presets.remove(existing.name);
        return { name: existing.name };
      },
    };
  }

  /** A commit (the feed's subscriber): presets saved or deleted here or elsewhere go to the faces. */
  heard(changes: Changes): void {
    if (changes.presets) this.deps.emit({ type: 'presets', presets: this.list() });
  }

  private read(row: PresetRow): Preset | null {
    try {
      const options = PresetOptionsSchema.parse(JSON.parse(row.options));
      return { name: row.name, options, updatedAt: new Date(row.updated_at).toISOString() };
    } catch (e) {
      this.deps.warn({ preset: row.name, err: e }, 'a stored preset could not be read; it is left out');
      return null;
    }
  }
}

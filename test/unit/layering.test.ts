import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('the layering lint rule', () => {
  it('keeps Node and Electron out of the renderer and shared/', async () => {
    expect(
      await violations(
        'renderer/src/x.ts',
        "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n",
      ),
    ).toHaveLength(1);
    expect(
      await violations(
        'renderer/src/x.ts',
        "import { Engine } from '../../electron/engine/engine';\nexport const a = Engine;\n",
      ),
    ).toHaveLength(1);
    expect(
      await violations(
        'shared/x.ts',
        "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n",
      ),
    ).toHaveLength(1);
    expect(
      await violations('renderer/src/x.ts', "import got from 'got';\nexport const a = got;\n"),
    ).toHaveLength(1);
    expect(
      await violations('shared/x.ts', "import Database from 'better-sqlite3';\nexport const a = Database;\n"),
    ).toHaveLength(1);
    expect(
      await violations(
        'renderer/src/x.ts',
        "import { LANGUAGES } from '../../shared/languages';\nexport const a = LANGUAGES;\n",
      ),
    ).toEqual([]);
  });

  it('keeps the electron module out of the engine, the CLI and the sandbox', async () => {
    for (const dir of ['electron/engine', 'electron/cli', 'electron/sandbox']) {
      expect(
        await violations(`${dir}/x.ts`, "import { app } from 'electron';\nexport const a = app;\n"),
        dir,
      ).toHaveLength(1);
    }
    expect(
      await violations('electron/main/x.ts', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toEqual([]);
  });
});

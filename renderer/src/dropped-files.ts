/** What a drop brought: files (folders walked into in the browser) and any text (paths or URLs). */
export interface Dropped {
  files: File[];
  text: string[];
}

function fileOf(entry: FileSystemFileEntry): Promise<File | null> {
  return new Promise((resolve) => entry.file(resolve, () => resolve(null)));
}

function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  return new Promise((resolve) => {
    const next = () =>
      reader.readEntries(
        (batch) => {
          if (batch.length === 0) resolve(all);
          else {
            all.push(...batch);
            next();
          }
        },
        () => resolve(all),
      );
    next();
  });
}

async function walk(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (entry.isFile) {
    const f = await fileOf(entry as FileSystemFileEntry);
    if (f) out.push(f);
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry as FileSystemDirectoryEntry)) await walk(child, out);
  }
}

/**
 * Reads a drop. `walkFolders`: in a browser a dropped folder is walked into its files (they are staged one
 * by one); the desktop shell gets the folder's own path and the engine walks it.
 */
export async function readDrop(data: DataTransfer, walkFolders: boolean): Promise<Dropped> {
  // Entries must be taken while the drop event runs; the DataTransfer empties afterwards.
  const entries = [...data.items].filter((i) => i.kind === 'file').map((i) => i.webkitGetAsEntry?.() ?? null);
  const plainFiles = [...data.files];
  const rawText = data.getData('text/uri-list') || data.getData('text/plain');
  const text = rawText
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (!walkFolders || entries.some((e) => e === null)) return { files: plainFiles, text };
  const files: File[] = [];
  for (const entry of entries) if (entry) await walk(entry, files);
  return { files, text };
}

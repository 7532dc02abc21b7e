import { useShallow } from 'zustand/react/shallow';
import { useApp, useBridge } from '../store';
import { selectedJobsOf } from '../store/selection';

/** `Movie.mp4` -> `Movie`: the zip of one source's results is named after it. */
const stem = (name: string) => name.replace(/\.[^.]+$/, '') || name;

/**
 * The selected rows' finished files at once. Web: one zip, named after the source when there is one (the
 * files are on the machine serve runs on). Desktop: the folder they are in, shown in the file manager.
 */
export function DownloadAll() {
  const bridge = useBridge();
  const finished = useApp(
    useShallow((s) => selectedJobsOf(s).filter((j) => j.state === 'completed' && j.outputs.length > 0)),
  );
  if (finished.length === 0) return null;
  const sources = new Set(finished.map((j) => j.source));
  const first = finished[0];
  if (!first) return null;
  const name = sources.size === 1 ? stem(first.sourceName) : 'Dubdesk results';
  if (bridge.resultsZipUrl)
    return (
      <a
        className="button"
        href={bridge.resultsZipUrl(
          finished.map((j) => j.id),
          name,
        )}
        download={`${name}.zip`}
      >
        Download all
      </a>
    );
  if (!bridge.canReveal || !first.outputs[0]) return null;
  const path = first.outputs[0].path;
  return (
    <button type="button" onClick={() => void bridge.showInFolder(path)}>
      Show results in folder
    </button>
  );
}

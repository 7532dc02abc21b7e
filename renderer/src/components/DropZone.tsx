import { useRef, useState } from 'react';
import { formatBytes } from '../format';
import { readDrop } from '../dropped-files';
import { useApp, useBridge } from '../store';
import { ErrorText } from './ErrorText';

/** Drop files or folders here, browse for them, or paste paths and URLs. */
export function DropZone() {
  const bridge = useBridge();
  const stageFiles = useApp((s) => s.stageFiles);
  const addInputs = useApp((s) => s.addInputs);
  const staging = useApp((s) => s.staging);
  const stagingError = useApp((s) => s.stagingError);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [pasted, setPasted] = useState('');
  const pasteBox = useRef<HTMLTextAreaElement>(null);

  async function browseFiles() {
    const paths = bridge.shell === 'electron' ? await bridge.pickFiles() : null;
    if (paths) addInputs(paths);
    else fileInput.current?.click();
  }
  async function browseFolder() {
    const path = bridge.shell === 'electron' ? await bridge.pickFolder() : null;
    if (path) addInputs([path]);
    else folderInput.current?.click();
  }

  return (
    <div className="dropzone-wrap">
      <div
        className={`dropzone ${over ? 'over' : ''}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setOver(false);
          void readDrop(e.dataTransfer, bridge.shell === 'web').then(({ files, text }) => {
            if (files.length) void stageFiles(files);
            else if (text.length) addInputs(text);
          });
        }}
      >
        <p className="dropzone-title">Drop videos, audio or folders here</p>
        <p>
          or{' '}
          <button type="button" className="link" onClick={() => void browseFiles()}>
            browse files
          </button>{' '}
          ·{' '}
          <button type="button" className="link" onClick={() => void browseFolder()}>
            a folder
          </button>
        </p>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept="video/*,audio/*"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Choose files"
          data-testid="file-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void stageFiles(files);
          }}
        />
        <input
          ref={(el) => {
            folderInput.current = el;
            el?.setAttribute('webkitdirectory', '');
          }}
          type="file"
          multiple
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Choose a folder"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void stageFiles(files);
          }}
        />
        {staging && (
          <div className="staging" role="status">
            <progress value={staging.sent} max={Math.max(1, staging.total)} aria-label="Sending files" />
            <span className="num">
              Sending {formatBytes(staging.sent)} of {formatBytes(staging.total)}
            </span>
          </div>
        )}
      </div>
      <ErrorText error={stagingError} />
      <form
        className="paste"
        onSubmit={(e) => {
          e.preventDefault();
          addInputs(pasted.split(/\r?\n/));
          setPasted('');
          // The Add button is disabled once the box is empty: the keyboard stays in the box, not on the page.
          pasteBox.current?.focus();
        }}
      >
        <label className="visually-hidden" htmlFor="paste-paths">
          Paths or URLs, one per line
        </label>
        <textarea
          ref={pasteBox}
          id="paste-paths"
          rows={1}
          placeholder="Or paste paths or URLs, one per line"
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <button type="submit" disabled={!pasted.trim()}>
          Add
        </button>
      </form>
    </div>
  );
}

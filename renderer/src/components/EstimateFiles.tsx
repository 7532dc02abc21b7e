import { useEffect, useRef, type FocusEvent } from 'react';
import type { FileEstimate } from '../../../shared/contract/batches';
import { fileShareWords } from '../../../shared/file-share';
import { baseName, formatBytes, formatLength, plural, withoutPathPrefix } from '../format';
import { useApp } from '../store';
import { ProblemWords } from './ProblemWords';

/**
 * What the file adds to the batch's total, as the summary counts it: with "Dub them again", its languages
 * already dubbed are paid again.
 */
function shareOf(file: FileEstimate, again: boolean, languages: number): string {
  if (!again) return fileShareWords(file, languages, ' cr');
  const redone = file.free.filter((f) => f.why === 'done');
  const price = file.creditsPerLanguage;
  return fileShareWords(
    {
      credits: file.credits === null || price === null ? null : file.credits + price * redone.length,
      free: file.free.filter((f) => f.why !== 'done'),
    },
    languages,
    ' cr',
  );
}

/**
 * A file whose every language is a copy of a file of this very list under its own name: the same file given
 * twice (browsed, so sent as a copy, and pasted). Its line says so rather than "copy of" itself; a copy
 * under another name keeps "copy of" that name.
 */
function inListTwice(file: FileEstimate, files: readonly FileEstimate[]): boolean {
  const name = baseName(file.name);
  if (file.free.length === 0 || file.free.some((f) => f.why !== 'copy' || f.of !== name)) return false;
  return files.some((other) => other.input !== file.input && baseName(other.name) === name);
}

function FileLine(props: { file: FileEstimate; share: string; onRemove: (() => void) | null }) {
  const { file, onRemove } = props;
  const name = file.kind === 'url' ? file.name : baseName(file.name);
  return (
    <li className={`estimate-file ${file.problem ? 'has-problem' : ''}`}>
      <span className="file-kind" aria-hidden="true">
        {file.problem ? '⚠' : file.kind === 'audio' ? '♪' : file.kind === 'url' ? '🔗' : '▶'}
      </span>
      <span className="file-name" title={file.input}>
        {name}
      </span>
      {file.problem ? (
        <span className="file-problem">
          <ProblemWords
            message={withoutPathPrefix(file.problem.message, file.input)}
            remedy={file.problem.remedy}
          />{' '}
          — skipped
        </span>
      ) : (
        <span className="file-meta num">
          {file.durationSeconds !== null ? formatLength(file.durationSeconds) : 'length known after dubbing'}
          {file.bytes !== null && ` · ${formatBytes(file.bytes)}`}
          {file.kind && ` · ${file.kind}`}
        </span>
      )}
      {!file.problem && (
        <span className="file-credits num" data-testid="file-credits">
          {props.share}
        </span>
      )}
      {onRemove && (
        <button type="button" className="icon-button" aria-label={`Remove ${name}`} onClick={onRemove}>
          ✕
        </button>
      )}
    </li>
  );
}

/** The files found, each with its length, or its reason in words when it will be skipped. */
export function EstimateFiles() {
  const inputs = useApp((s) => s.inputs);
  const estimate = useApp((s) => s.estimate);
  // The whole estimate was refused (a bad folder, a language): the files are not being read.
  const refused = useApp((s) => s.estimateError !== null);
  // Nothing is read before a language is picked (the estimate prices files per language).
  const noLanguage = useApp((s) => s.preset.to.length === 0);
  const removeInput = useApp((s) => s.removeInput);
  const again = useApp((s) => s.again);
  const list = useRef<HTMLUListElement>(null);
  /** The Remove button focus belongs on after a removal (its line may be drawn anew once priced). */
  const focusWanted = useRef<string | null>(null);

  useEffect(() => {
    const label = focusWanted.current;
    const active = document.activeElement;
    if (!label || (active && active !== document.body && list.current?.contains(active))) return;
    const target = [...(list.current?.querySelectorAll('button') ?? [])].find(
      (b) => b.getAttribute('aria-label') === label,
    );
    if (target) target.focus();
    else if (!list.current) document.querySelector<HTMLElement>('[aria-label="Choose files"]')?.focus();
  });

  /** Removes a line and keeps the keyboard in the list: on the next file's Remove, else the previous one. */
  const removing = (input: string) => () => {
    const buttons = [...(list.current?.querySelectorAll('button') ?? [])];
    const at = buttons.findIndex((b) => b === document.activeElement);
    const next = at >= 0 ? (buttons[at + 1] ?? buttons[at - 1]) : undefined;
    focusWanted.current = next?.getAttribute('aria-label') ?? null;
    removeInput(input);
  };
  const leaving = (e: FocusEvent) => {
    // Focus moved elsewhere by the user (not dropped with a removed line): stop bringing it back.
    if (e.relatedTarget && !list.current?.contains(e.relatedTarget as Node)) focusWanted.current = null;
  };
  if (inputs.length === 0) return null;
  const fromInputs = new Set(inputs);
  const covered = new Set(estimate?.files.map((f) => f.input) ?? []);
  const inside = (folder: string) => estimate?.files.filter((f) => f.input.startsWith(folder)).length ?? 0;
  const folders = inputs.filter((i) => !covered.has(i) && inside(i) > 0);
  const pending = inputs.filter((i) => !covered.has(i) && inside(i) === 0);
  return (
    <ul className="estimate-files" aria-label="Files to add" ref={list} onBlur={leaving}>
      {estimate?.files.map((f) => (
        <FileLine
          key={f.input}
          file={f}
          share={
            inListTwice(f, estimate.files)
              ? 'already in this list (0 cr)'
              : shareOf(f, again, estimate.languages.length)
          }
          onRemove={fromInputs.has(f.input) ? removing(f.input) : null}
        />
      ))}
      {folders.map((input) => (
        <li key={input} className="estimate-file folder">
          <span className="file-kind" aria-hidden="true">
            ▤
          </span>
          <span className="file-name" title={input}>
            {baseName(input)}
          </span>
          <span className="file-meta muted">folder · {plural(inside(input), 'file')}</span>
          <button
            type="button"
            className="icon-button"
            aria-label={`Remove folder ${baseName(input)}`}
            onClick={removing(input)}
          >
            ✕
          </button>
        </li>
      ))}
      {pending.map((input) => (
        <li key={input} className="estimate-file pending">
          <span className="file-kind" aria-hidden="true">
            …
          </span>
          <span className="file-name" title={input}>
            {baseName(input)}
          </span>
          <span className="file-meta muted">
            {noLanguage
              ? 'pick a language to price it'
              : refused
                ? 'waiting for the settings below'
                : 'reading…'}
          </span>
          <button
            type="button"
            className="icon-button"
            aria-label={`Remove ${baseName(input)}`}
            onClick={removing(input)}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}

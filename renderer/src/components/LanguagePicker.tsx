import { autoUpdate, flip, offset, size, useFloating } from '@floating-ui/react-dom';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Language } from '../../../shared/contract/account';
import { languageName } from '../../../shared/languages';
import { searchKey } from '../format';
import { useApp } from '../store';
import { QuickPicks } from './QuickPicks';

/**
 * The lists before the settings are read: one array, not a new one per read, or each store read differs from
 * the last and React renders again for ever (a blank window when the Add sheet opens before the settings).
 */
const NO_LANGUAGES: readonly string[] = [];

interface Props {
  value: readonly string[];
  onChange: (codes: string[]) => void;
  /** Languages the chosen generation cannot take: greyed out, and said why. */
  legacyOnly: boolean;
  label?: string;
  describedBy?: string | undefined;
  invalid?: boolean;
}

/** Favourites first, then recently used, then the rest by name. */
function ordered(languages: readonly Language[], favourites: readonly string[], recent: readonly string[]) {
  const rank = (code: string) => {
    const f = favourites.indexOf(code);
    if (f >= 0) return f;
    const r = recent.indexOf(code);
    return r >= 0 ? 1000 + r : 10_000;
  };
  // The names are English: in English order, whatever the browser's language (Czech puts "Ch" after "H").
  const byName = new Intl.Collator('en').compare;
  return [...languages].sort((a, b) => rank(a.code) - rank(b.code) || byName(a.name, b.name));
}

/** A searchable multi-select of target languages: type to filter, Enter or click to add, chips to remove. */
export function LanguagePicker({
  value,
  onChange,
  legacyOnly,
  label = 'Dub into',
  describedBy,
  invalid,
}: Props) {
  const languages = useApp((s) => s.languages);
  const favourites = useApp((s) => s.settings?.favouriteLanguages ?? NO_LANGUAGES);
  const recent = useApp((s) => s.settings?.recentLanguages ?? NO_LANGUAGES);
  const lastBatch = useApp((s) => s.settings?.lastBatchLanguages ?? NO_LANGUAGES);
  const listFrom = useApp((s) => s.languagesFrom);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // The whole box in view while typing, not only the input: the browser stops at the input's own edge,
  // which left the box (grown by a picked language) cut by the Add sheet's footer at 200% zoom.
  const showBox = () => boxRef.current?.scrollIntoView({ block: 'nearest' });
  const id = useId();
  const listId = `${id}-list`;
  const list = useListPlacement(open);

  const all = useMemo(() => ordered(languages, favourites, recent), [languages, favourites, recent]);
  const q = searchKey(query.trim());
  const shown = q ? all.filter((l) => searchKey(l.name).includes(q) || l.code.startsWith(q)) : all;
  const usable = (l: Language | undefined) => l !== undefined && (!legacyOnly || l.legacy);
  const byCode = useMemo(() => new Map(languages.map((l) => [l.code, l])), [languages]);

  function toggle(code: string) {
    const l = byCode.get(code);
    if (!usable(l)) return;
    onChange(value.includes(code) ? value.filter((c) => c !== code) : [...value, code]);
    setQuery('');
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      setOpen(true);
      setActive((a) => Math.min(shown.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
      // Ctrl/Cmd+Enter is the sheet's "Add and start": it must not toggle the highlighted language first.
      const l = shown[active];
      if (open && l) toggle(l.code);
    } else if (e.key === 'Escape' && open) {
      setOpen(false);
      e.stopPropagation();
    } else if (e.key === 'Backspace' && query === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    } else {
      return;
    }
    e.preventDefault();
  }

  const recentChoices = recent.filter((c) => !value.includes(c)).slice(0, 5);
  const sameAsLast = lastBatch.length > 0 && lastBatch.join() !== value.join();
  const activeId = open && shown[active] ? `${id}-opt-${shown[active].code}` : undefined;

  return (
    <div className="language-picker">
      <div
        ref={(el) => {
          boxRef.current = el;
          list.refs.setReference(el);
        }}
        data-in-sight
        className={`picker-box ${invalid ? 'invalid' : ''}`}
        onClick={() => inputRef.current?.focus()}
      >
        {value.map((code) => {
          const off = legacyOnly && !byCode.get(code)?.legacy;
          return (
            <span key={code} className={`tag ${off ? 'tag-off' : ''}`}>
              {languageName(code)}
              {off && <span className="visually-hidden"> (left out: the legacy API does not take it)</span>}
              <button
                type="button"
                className="tag-remove"
                aria-label={`Remove ${languageName(code)}`}
                onClick={(e) => {
                  e.stopPropagation();
                  onChange(value.filter((c) => c !== code));
                }}
              >
                ✕
              </button>
            </span>
          );
        })}
        <input
          ref={inputRef}
          role="combobox"
          aria-label={`${label}: search languages`}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          placeholder={value.length ? 'Add a language…' : 'Search languages…'}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setOpen(true);
            showBox();
          }}
          onFocus={() => {
            setOpen(true);
            showBox();
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-multiselectable="true"
        aria-label="Languages"
        className="picker-list"
        ref={list.refs.setFloating}
        style={list.floatingStyles}
        hidden={!open}
        // Out of the Tab order: Chromium makes a scrolling list focusable by itself, Tab landed on it, the
        // input's blur hid it, and focus fell out of the dialog. The input drives it (aria-activedescendant).
        tabIndex={-1}
      >
        {shown.map((l, i) => {
          const ok = usable(l);
          const selected = value.includes(l.code);
          return (
            <li
              key={l.code}
              id={`${id}-opt-${l.code}`}
              role="option"
              aria-selected={selected}
              aria-disabled={!ok || undefined}
              className={`${i === active ? 'active' : ''} ${ok ? '' : 'disabled'}`}
              onMouseDown={(e) => {
                e.preventDefault();
                setActive(i);
                toggle(l.code);
              }}
            >
              <span className="check" aria-hidden="true">
                {selected ? '✓' : ''}
              </span>
              <span className="option-name">{l.name}</span>
              <span className="option-code">{l.code}</span>
              {favourites.includes(l.code) && <span className="option-tag">★ favourite</span>}
              {!favourites.includes(l.code) && recent.includes(l.code) && (
                <span className="option-tag">recent</span>
              )}
              {!ok && <span className="option-tag">not in legacy</span>}
            </li>
          );
        })}
        {shown.length === 0 && (
          <li className="muted" role="presentation">
            No language matches “{query}”.
          </li>
        )}
      </ul>
      {listFrom === 'fallback' && (
        <p className="hint">
          The service’s language list could not be read: these are the built-in languages.
        </p>
      )}
      {(recentChoices.length > 0 || sameAsLast) && (
        <QuickPicks
          recent={recentChoices}
          lastBatch={sameAsLast ? lastBatch : null}
          onRecent={toggle}
          onLastBatch={() => onChange(lastBatch.filter((c) => usable(byCode.get(c))))}
        />
      )}
    </div>
  );
}

/** The list's tallest, and the least it is made before it opens on the other side of the field instead. */
const LIST_MAX_PX = 280;
const LIST_MIN_PX = 96;

/**
 * Where the list opens: under the field, or above it when the room under it is short (at 200% zoom the Add
 * sheet's cost sits right under the field, and a list under it was hidden there), as tall as the room allows.
 */
function useListPlacement(open: boolean) {
  return useFloating({
    open,
    strategy: 'fixed',
    placement: 'bottom-start',
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(4),
      flip({ padding: 8 }),
      size({
        padding: 8,
        apply({ availableHeight, rects, elements }) {
          const height = Math.max(LIST_MIN_PX, Math.min(LIST_MAX_PX, availableHeight));
          elements.floating.style.maxHeight = `${height}px`;
          elements.floating.style.width = `${rects.reference.width}px`;
        },
      }),
    ],
  });
}

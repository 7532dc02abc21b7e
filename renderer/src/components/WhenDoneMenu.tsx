import { useEffect, useRef, useState } from 'react';
import type { WhenDone, WhenDoneAction } from '../../../shared/when-done';
import { useApp } from '../store';

const LABELS: Record<WhenDoneAction, string> = {
  nothing: 'Do nothing',
  notify: 'Notify me',
  command: 'Run a command…',
  sleep: 'Sleep',
  shutdown: 'Shut down',
};

const SHORT: Record<WhenDoneAction, string> = {
  nothing: 'nothing',
  notify: 'notify',
  command: 'run command',
  sleep: 'sleep',
  shutdown: 'shut down',
};

/**
 * "When done": what happens once the whole queue is done (never after one job while others are open).
 * Sleep and shut down count down for a minute first, and one click cancels (`WhenDoneCountdown`).
 */
export function WhenDoneMenu() {
  const state = useApp((s) => s.whenDone);
  const choose = useApp((s) => s.chooseWhenDone);
  const [open, setOpen] = useState(false);
  const [command, setCommand] = useState(state?.choice.action === 'command' ? state.choice.command : '');
  const menu = useRef<HTMLDivElement>(null);
  const action = state?.choice.action ?? 'nothing';

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
    const close = (e: PointerEvent) => {
      if (!menu.current?.parentElement?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('pointerdown', close);
    return () => window.removeEventListener('pointerdown', close);
  }, [open]);

  const pick = (choice: WhenDone) => {
    void choose(choice);
    setOpen(false);
  };

  return (
    <div className="when-done">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        className={action !== 'nothing' ? 'when-done-set' : ''}
        onClick={() => setOpen(!open)}
      >
        When done: {SHORT[action]} ▾
      </button>
      {open && (
        <div
          ref={menu}
          className="menu"
          role="menu"
          aria-label="When the queue is done"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
            if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
            const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
            const at = items.indexOf(document.activeElement as HTMLElement);
            items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
            e.preventDefault();
          }}
        >
          <p className="menu-note">Once every job is done, failed or canceled:</p>
          {(['nothing', 'notify', 'sleep', 'shutdown'] as const).map((a) => (
            <button
              key={a}
              type="button"
              role="menuitemradio"
              aria-checked={action === a}
              onClick={() => pick({ action: a })}
            >
              <span className="menu-check" aria-hidden="true">
                {action === a ? '●' : ''}
              </span>
              {LABELS[a]}
              {(a === 'sleep' || a === 'shutdown') && (
                <span className="menu-hint">after a 60 s countdown</span>
              )}
            </button>
          ))}
          <form
            className="menu-command"
            onSubmit={(e) => {
              e.preventDefault();
              if (command.trim()) pick({ action: 'command', command: command.trim() });
            }}
          >
            <label>
              <span className="menu-check" aria-hidden="true">
                {action === 'command' ? '●' : ''}
              </span>
              {LABELS.command}
              <input
                type="text"
                value={command}
                placeholder="e.g. notify-send Dubdesk done"
                aria-describedby="when-done-command-hint"
                onChange={(e) => setCommand(e.target.value)}
              />
            </label>
            <button
              type="submit"
              role="menuitemradio"
              aria-checked={action === 'command'}
              disabled={!command.trim()}
            >
              Use
            </button>
            <p id="when-done-command-hint" className="menu-hint">
              Gets the batch summary as JSON on its standard input.
            </p>
          </form>
        </div>
      )}
    </div>
  );
}

/** The minute before sleep or shut down: a bar across the window, counting down, that one click cancels. */
export function WhenDoneCountdown() {
  const countdown = useApp((s) => s.whenDone?.countdown ?? null);
  const cancel = useApp((s) => s.cancelWhenDone);
  const [now, setNow] = useState(() => Date.now());
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!countdown) return;
    button.current?.focus();
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [countdown]);
  if (!countdown) return null;
  const left = Math.max(0, Math.ceil((Date.parse(countdown.endsAt) - now) / 1000));
  const what = countdown.action === 'sleep' ? 'Going to sleep' : 'Shutting down';
  return (
    <div className="countdown" role="alertdialog" aria-labelledby="countdown-text" aria-live="assertive">
      <p id="countdown-text">
        The queue is done. {what} in <strong className="num">{left} s</strong>.
      </p>
      <button ref={button} type="button" className="primary" onClick={() => void cancel()}>
        Cancel {countdown.action === 'sleep' ? 'sleep' : 'shut down'}
      </button>
    </div>
  );
}

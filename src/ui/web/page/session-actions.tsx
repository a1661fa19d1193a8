import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * The current session's actions in the header: export as Markdown (a download) and delete, which
 * asks first in a dialog of the page (focus on "Keep it"; Esc keeps it). Both are buttons: Tab and
 * Enter reach them, at any width.
 */
export function SessionActions(props: {
  title: string;
  disabled: boolean;
  onExport: () => void;
  onDelete: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div class="session-actions">
      <button type="button" disabled={props.disabled} onClick={props.onExport} title="Download as Markdown">
        Export
      </button>
      <button
        type="button"
        class="danger"
        disabled={props.disabled}
        onClick={() => setConfirming(true)}
        aria-haspopup="dialog"
      >
        Delete
      </button>
      {confirming ? (
        <ConfirmDelete
          title={props.title}
          onKeep={() => setConfirming(false)}
          onDelete={() => {
            setConfirming(false);
            props.onDelete();
          }}
        />
      ) : null}
    </div>
  );
}

function ConfirmDelete(props: { title: string; onKeep: () => void; onDelete: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div
      class="confirm"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="confirm-delete-title"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          props.onKeep();
        }
      }}
    >
      <p id="confirm-delete-title">
        Delete the session <q>{props.title}</q>? Its conversation and files are removed; this cannot be
        undone.
      </p>
      <button type="button" ref={keep} onClick={props.onKeep}>
        Keep it
      </button>
      <button type="button" class="danger" onClick={props.onDelete}>
        Delete the session
      </button>
    </div>
  );
}

/** A turn's menu (a disclosure: keyboard usable as it is): fork the session with turns 1..n. */
export function TurnMenu(props: { turn: number; onFork: (turn: number) => void }) {
  const menu = useRef<HTMLDetailsElement>(null);
  return (
    <details class="turn-menu" ref={menu}>
      <summary aria-label={`Turn ${props.turn} actions`}>⋯</summary>
      <button
        type="button"
        onClick={() => {
          if (menu.current) menu.current.open = false;
          props.onFork(props.turn);
        }}
      >
        Fork from here (turns 1–{props.turn})
      </button>
    </details>
  );
}

/**
 * Why the session is not connected: a permanent failure with its reason and a "Try again" button,
 * or the reconnect being waited for (attempt, seconds, what went wrong).
 */
export function ConnectionNotice(props: {
  failure: string | null;
  retry: { attempt: number; delayMs: number; reason: string | null } | null;
  onTryAgain: () => void;
}) {
  if (props.failure !== null)
    return (
      <div class="notice error connection-failed" role="alert">
        <p>
          <strong>This session cannot be opened.</strong> <span class="reason">{props.failure}</span>
        </p>
        <button type="button" onClick={props.onTryAgain}>
          Try again
        </button>
      </div>
    );
  if (props.retry?.reason)
    return (
      <p class="notice warn connection-retry" role="status">
        {props.retry.reason} Reconnecting (attempt {props.retry.attempt}) in{' '}
        {(props.retry.delayMs / 1000).toFixed(1)} s…
      </p>
    );
  return null;
}

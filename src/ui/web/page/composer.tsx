import { useState } from 'preact/hooks';

/**
 * The input: Enter sends (a prompt when idle, a steer while a turn runs), Shift-Enter is a new line,
 * Esc cancels the running turn.
 */
export function Composer({
  busy,
  connected,
  onSend,
  onCancel,
}: {
  busy: boolean;
  connected: boolean;
  onSend: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState('');
  const send = () => {
    const value = text.trim();
    if (!value || !connected) return;
    onSend(value);
    setText('');
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label={busy ? 'Steer the running turn' : 'Message'}
        placeholder={
          busy
            ? 'Steer the running turn (Enter) · Esc cancels'
            : 'Ask, or /command (Enter sends, Shift-Enter new line)'
        }
        rows={2}
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          } else if (e.key === 'Escape' && busy) {
            e.preventDefault();
            onCancel();
          }
        }}
      />
      <div class="composer-buttons">
        <button type="submit" disabled={!connected}>
          {busy ? 'Steer' : 'Send'}
        </button>
        {busy ? (
          <button type="button" class="danger" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

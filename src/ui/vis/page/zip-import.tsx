import { useState } from 'preact/hooks';
import type { ImportAnswer } from './data-source.js';

/**
 * "Import ZIP": a file picker that uploads a session archive (`kimi-ts export --zip`) and opens the
 * session the server made of it. The server's answer, an error included, is shown as text.
 */
export function ZipImport({
  importZip,
  onImported,
}: {
  importZip: (file: Blob) => Promise<ImportAnswer>;
  onImported: (id: string) => void;
}) {
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setBusy(true);
    setStatus({ text: `Importing ${file.name}…`, failed: false });
    try {
      const answer = await importZip(file);
      setStatus({
        text: answer.already_imported ? `${answer.id} was imported before.` : `Imported ${answer.id}.`,
        failed: false,
      });
      onImported(answer.id);
    } catch (error) {
      setStatus({ text: error instanceof Error ? error.message : String(error), failed: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <span class="zip-import">
      <label class="button">
        Import ZIP
        <input
          type="file"
          accept=".zip,application/zip"
          aria-label="import a session ZIP"
          disabled={busy}
          onChange={(e) => void upload(e.currentTarget)}
        />
      </label>
      {status ? (
        <span class={status.failed ? 'import-status error' : 'import-status'} role="status">
          {status.text}
        </span>
      ) : null}
    </span>
  );
}

import { assertNever } from '../../../util/assert-never.js';
import { extractKeyArgument } from '../../../wire/key-argument.js';
import { hiddenLinesText, isCommandTool, previewOutput } from '../../common/output-preview.js';
import type { ConversationItem, ToolCallItem } from './conversation-state.js';
import { DisplayBlockView } from './display-block-view.js';
import { MarkdownView } from './markdown-view.js';
import type { ToolReturnValue } from './wire-types.js';

/**
 * The items of a turn or of a subagent: answer text, folded thinking, tool calls, notices. A tool call
 * of the Agent tool holds its subagent's items, hence one file for both views.
 */
export function ItemsView({ items }: { items: ConversationItem[] }) {
  return (
    <>
      {items.map((item, i) => {
        switch (item.kind) {
          case 'text':
            return <MarkdownView key={i} text={item.text} />;
          case 'think':
            return (
              <details key={i} class="think">
                <summary>Thinking</summary>
                <pre>{item.text}</pre>
              </details>
            );
          case 'tool':
            return <ToolCallView key={item.id} call={item} />;
          case 'notice':
            return (
              <p key={i} class={`notice ${item.tone}`}>
                {item.text}
              </p>
            );
          case 'steer':
            return (
              <p key={i} class="steer">
                ↪ {item.text}
              </p>
            );
        }
        return assertNever(item, 'conversation item');
      })}
    </>
  );
}

/** How many lines of a running call's output show. */
const LIVE_LINES = 8;

/**
 * The last lines of a running command's output, as plain text: terminal escape sequences dropped, a
 * line redrawn with `\r` (a progress bar) shown in its latest state.
 */
export function lastLines(text: string, count: number): string {
  const plain = withoutEscapes(text);
  const lines = plain.split('\n').map((line) => line.slice(line.lastIndexOf('\r') + 1));
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(-count).join('\n');
}

/** The text without terminal escape sequences (colours, titles): the page shows text, not a terminal. */
function withoutEscapes(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the escapes being removed
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b./g, '');
}

/**
 * A tool call: its name, its arguments (streaming in), its result with display blocks, its subagent.
 * A finished command's card is folded with its first and last output lines under it (shown only
 * while the card is closed; the hidden-lines line opens it).
 */
export function ToolCallView({ call }: { call: ToolCallItem }) {
  const state = call.result === null ? 'running' : call.result.is_error ? 'error' : 'done';
  // The page does not know the session's working directory: paths show as they are.
  const summary = extractKeyArgument(call.name, call.args, '');
  const preview =
    call.result && isCommandTool(call.name) && typeof call.result.output === 'string'
      ? previewOutput(withoutEscapes(call.result.output))
      : null;
  return (
    <div class="tool-card">
      <details class={`tool ${state}`} open={state !== 'done'} data-tool-call-id={call.id}>
        <summary>
          <span class="tool-state" title={state}>
            {state === 'running' ? '…' : state === 'error' ? '✗' : '✓'}
          </span>{' '}
          <strong>{call.name}</strong> {summary ? <code>{summary}</code> : null}
          {call.result?.message ? <span class="tool-message"> — {call.result.message}</span> : null}
        </summary>
        <ToolArgsView args={call.args} />
        {call.result ? (
          <ToolResultView result={call.result} />
        ) : call.liveOutput ? (
          <pre class="tool-live" aria-live="polite">
            {lastLines(call.liveOutput, LIVE_LINES)}
          </pre>
        ) : null}
        {call.subagents.map((sub) => (
          <section class="subagent" aria-label="subagent" key={sub.agentId ?? ''}>
            <h4>
              subagent {sub.type ?? ''} {sub.agentId ?? ''}
            </h4>
            <ItemsView items={sub.items as ConversationItem[]} />
          </section>
        ))}
      </details>
      {preview && preview.head.length > 0 ? (
        <pre class="tool-preview">
          {preview.head.join('\n')}
          {preview.hidden > 0 ? (
            <>
              {'\n'}
              <button type="button" class="tool-preview-more" onClick={openCard}>
                {hiddenLinesText(preview.hidden)} (show all)
              </button>
              {'\n'}
            </>
          ) : null}
          {preview.tail.join('\n')}
        </pre>
      ) : null}
    </div>
  );
}

/** The hidden-lines button opens its card, where the whole output is. */
function openCard(event: MouseEvent): void {
  const card = (event.currentTarget as HTMLElement).closest('.tool-card');
  const details = card?.querySelector('details');
  if (details) details.open = true;
}

function ToolResultView({ result }: { result: ToolReturnValue }) {
  const output =
    typeof result.output === 'string'
      ? result.output
      : result.output.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('');
  return (
    <div class="tool-result">
      {result.display.map((block, i) => (
        <DisplayBlockView key={i} block={block} />
      ))}
      {output ? <pre class="tool-output">{output}</pre> : null}
    </div>
  );
}

/**
 * The arguments as fields, one per line: a string as its text (a command's newlines as lines, not
 * `\n`), anything else as indented JSON. The raw text while they still stream (not yet JSON).
 */
function ToolArgsView({ args }: { args: string }) {
  const fields = argFields(args);
  if (fields === null) return args ? <pre class="tool-args">{args}</pre> : null;
  if (fields.length === 0) return null;
  return (
    <dl class="tool-args">
      {fields.map(([name, value]) => (
        <div key={name} class="tool-arg">
          <dt>{name}</dt>
          <dd>
            <pre>{value}</pre>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The arguments' fields as [name, text] once they parse as a JSON object; null before. */
export function argFields(args: string): [string, string][] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  return Object.entries(parsed as Record<string, unknown>).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : JSON.stringify(value, null, 2),
  ]);
}

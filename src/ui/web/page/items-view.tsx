import { assertNever } from '../../../util/assert-never.js';
import { extractKeyArgument } from '../../../wire/key-argument.js';
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
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the escapes being removed
  const plain = text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b./g, '');
  const lines = plain.split('\n').map((line) => line.slice(line.lastIndexOf('\r') + 1));
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(-count).join('\n');
}

/** A tool call: its name, its arguments (streaming in), its result with display blocks, its subagent. */
export function ToolCallView({ call }: { call: ToolCallItem }) {
  const state = call.result === null ? 'running' : call.result.is_error ? 'error' : 'done';
  // The page does not know the session's working directory: paths show as they are.
  const summary = extractKeyArgument(call.name, call.args, '');
  return (
    <details class={`tool ${state}`} open={state !== 'done'} data-tool-call-id={call.id}>
      <summary>
        <span class="tool-state" title={state}>
          {state === 'running' ? '…' : state === 'error' ? '✗' : '✓'}
        </span>{' '}
        <strong>{call.name}</strong> {summary ? <code>{summary}</code> : null}
        {call.result?.message ? <span class="tool-message"> — {call.result.message}</span> : null}
      </summary>
      <pre class="tool-args">{prettyArgs(call.args)}</pre>
      {call.result ? (
        <ToolResultView result={call.result} />
      ) : call.liveOutput ? (
        <pre class="tool-live" aria-live="polite">
          {lastLines(call.liveOutput, LIVE_LINES)}
        </pre>
      ) : null}
      {call.subagent ? (
        <section class="subagent" aria-label="subagent">
          <h4>
            subagent {call.subagent.type ?? ''} {call.subagent.agentId ?? ''}
          </h4>
          <ItemsView items={call.subagent.items as ConversationItem[]} />
        </section>
      ) : null}
    </details>
  );
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

/** The arguments as indented JSON once they parse; the raw text while they still stream. */
function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

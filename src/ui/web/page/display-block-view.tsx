import { DiffView } from './diff-view.js';
import { asKnownBlock, type DisplayBlockLike } from './display-blocks.js';
import { CodeBlock } from './markdown-view.js';

const TODO_MARK = { pending: '☐', in_progress: '◐', done: '☑' } as const;

/** One display block of a tool result or an approval, as text. */
export function DisplayBlockView({ block }: { block: DisplayBlockLike }) {
  const known = asKnownBlock(block);
  if (!known) return <pre class="block-unknown">{`[${block.type}] ${safeJson(block)}`}</pre>;
  switch (known.type) {
    case 'brief':
      return <p class="brief">{known.text}</p>;
    case 'diff':
      return <DiffView block={known} />;
    case 'todo':
      return (
        <ul class="todo">
          {known.items.map((item, i) => (
            <li key={i} class={item.status}>
              {TODO_MARK[item.status]} {item.title}
            </li>
          ))}
        </ul>
      );
    case 'shell':
      return <CodeBlock code={known.command} language={known.language || 'bash'} />;
    case 'background_task':
      return (
        <p class="bg-task">
          ⚙ {known.kind} {known.task_id}: {known.description} ({known.status})
        </p>
      );
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value).slice(0, 2000);
  } catch {
    return '';
  }
}

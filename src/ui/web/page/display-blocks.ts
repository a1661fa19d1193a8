import type { BackgroundTaskDisplayBlock, DiffDisplayBlock, TodoDisplayBlock } from './wire-types.js';

/**
 * Display blocks arrive as kosong's open `{type, ...}` objects. These guards check the fields a view
 * reads, so a block that claims a kind but lacks its fields is shown as unknown, not crashed on.
 */

export interface DisplayBlockLike {
  type: string;
  [field: string]: unknown;
}

export type KnownBlock =
  | { type: 'brief'; text: string }
  | DiffDisplayBlock
  | TodoDisplayBlock
  | { type: 'shell'; language: string; command: string }
  | BackgroundTaskDisplayBlock;

const isString = (value: unknown): value is string => typeof value === 'string';

export function asKnownBlock(block: DisplayBlockLike): KnownBlock | null {
  switch (block.type) {
    case 'brief':
      return isString(block.text) ? { type: 'brief', text: block.text } : null;
    case 'diff':
      return isString(block.path) && isString(block.old_text) && isString(block.new_text)
        ? {
            type: 'diff',
            path: block.path,
            old_text: block.old_text,
            new_text: block.new_text,
            old_start: typeof block.old_start === 'number' ? block.old_start : 1,
            new_start: typeof block.new_start === 'number' ? block.new_start : 1,
            is_summary: block.is_summary === true,
          }
        : null;
    case 'todo':
      return Array.isArray(block.items) ? { type: 'todo', items: block.items.filter(isTodoItem) } : null;
    case 'shell':
      return isString(block.command)
        ? {
            type: 'shell',
            language: isString(block.language) ? block.language : 'bash',
            command: block.command,
          }
        : null;
    case 'background_task':
      return isString(block.task_id)
        ? {
            type: 'background_task',
            task_id: block.task_id,
            kind: isString(block.kind) ? block.kind : '',
            status: isString(block.status) ? block.status : '',
            description: isString(block.description) ? block.description : '',
          }
        : null;
    default:
      return null;
  }
}

function isTodoItem(item: unknown): item is TodoDisplayBlock['items'][number] {
  if (item === null || typeof item !== 'object') return false;
  const { title, status } = item as Record<string, unknown>;
  return isString(title) && (status === 'pending' || status === 'in_progress' || status === 'done');
}

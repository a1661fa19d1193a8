import { randomInt } from 'node:crypto';
import type { TaskKind } from './task-model.js';

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_SUFFIX_LENGTH = 8;

/** A task id in Kimi CLI's shape: `bash-` or `agent-` and 8 characters of `[0-9a-z]`. */
export function newTaskId(kind: TaskKind): string {
  let suffix = '';
  for (let i = 0; i < ID_SUFFIX_LENGTH; i++) suffix += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return `${kind}-${suffix}`;
}

const TASK_ID = /^(bash|agent)-[0-9a-z]{8}$/;

/** Whether `id` can be a task id (so it is safe to use as a folder name). */
export function isTaskId(id: string): boolean {
  return TASK_ID.test(id);
}

export { rewindCommand } from './rewind-command.js';
export { SessionCheckpoints } from './session-checkpoints.js';
export { readRewindTurns } from './turn-list.js';

import type { BuiltinToolModules } from '../toolset/loading/module-resolution.js';

/**
 * The tool modules of kimi-ts, by the path a `kimi-ts/<path>:Export` spec names. Loading them
 * through these static imports (instead of a path on disk) lets a bundler see every built-in tool,
 * so the bundled CLI finds them inside itself.
 */
export const BUILTIN_TOOL_MODULES: BuiltinToolModules = {
  'tools/agent/agent': () => import('./agent/agent.js'),
  'tools/agent/agent-swarm': () => import('./agent/agent-swarm.js'),
  'tools/ask-user/ask-user-question': () => import('./ask-user/ask-user-question.js'),
  'tools/background/task-list': () => import('./background/task-list.js'),
  'tools/background/task-output': () => import('./background/task-output.js'),
  'tools/background/task-stop': () => import('./background/task-stop.js'),
  'tools/background/wait-for': () => import('./background/wait-for.js'),
  'tools/cron/cron-tools': () => import('./cron/cron-tools.js'),
  'tools/dmail/send-dmail': () => import('./dmail/send-dmail.js'),
  'tools/file/glob': () => import('./file/glob.js'),
  'tools/file/grep': () => import('./file/grep.js'),
  'tools/file/read-file': () => import('./file/read-file.js'),
  'tools/file/read-media-file': () => import('./file/read-media-file.js'),
  'tools/file/str-replace-file': () => import('./file/str-replace-file.js'),
  'tools/file/write-file': () => import('./file/write-file.js'),
  'tools/plan/enter-plan-mode': () => import('./plan/enter-plan-mode.js'),
  'tools/plan/exit-plan-mode': () => import('./plan/exit-plan-mode.js'),
  'tools/shell/shell': () => import('./shell/shell.js'),
  'tools/think/think': () => import('./think/think.js'),
  'tools/todo/set-todo-list': () => import('./todo/set-todo-list.js'),
  'tools/web/fetch-url': () => import('./web/fetch-url.js'),
  'tools/web/search-web': () => import('./web/search-web.js'),
};

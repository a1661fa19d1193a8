/**
 * Kimi CLI's module paths of the built-in tools, as its agent files name them (`tools`,
 * `allowed_tools`, `exclude_tools`), and the kimi-ts tool each one is.
 */
const KIMI_CLI_TOOLS: Readonly<Record<string, string>> = {
  'kimi_cli.tools.agent:Agent': 'kimi-ts/tools/agent/agent:Agent',
  'kimi_cli.tools.ask_user:AskUserQuestion': 'kimi-ts/tools/ask-user/ask-user-question:AskUserQuestion',
  'kimi_cli.tools.todo:SetTodoList': 'kimi-ts/tools/todo/set-todo-list:SetTodoList',
  'kimi_cli.tools.shell:Shell': 'kimi-ts/tools/shell/shell:Shell',
  'kimi_cli.tools.background:TaskList': 'kimi-ts/tools/background/task-list:TaskList',
  'kimi_cli.tools.background:TaskOutput': 'kimi-ts/tools/background/task-output:TaskOutput',
  'kimi_cli.tools.background:TaskStop': 'kimi-ts/tools/background/task-stop:TaskStop',
  'kimi_cli.tools.file:ReadFile': 'kimi-ts/tools/file/read-file:ReadFile',
  'kimi_cli.tools.file:ReadMediaFile': 'kimi-ts/tools/file/read-media-file:ReadMediaFile',
  'kimi_cli.tools.file:Glob': 'kimi-ts/tools/file/glob:Glob',
  'kimi_cli.tools.file:Grep': 'kimi-ts/tools/file/grep:Grep',
  'kimi_cli.tools.file:WriteFile': 'kimi-ts/tools/file/write-file:WriteFile',
  'kimi_cli.tools.file:StrReplaceFile': 'kimi-ts/tools/file/str-replace-file:StrReplaceFile',
  'kimi_cli.tools.web:SearchWeb': 'kimi-ts/tools/web/search-web:SearchWeb',
  'kimi_cli.tools.web:FetchURL': 'kimi-ts/tools/web/fetch-url:FetchURL',
  'kimi_cli.tools.plan:ExitPlanMode': 'kimi-ts/tools/plan/exit-plan-mode:ExitPlanMode',
  'kimi_cli.tools.plan.enter:EnterPlanMode': 'kimi-ts/tools/plan/enter-plan-mode:EnterPlanMode',
};

/** Kimi CLI's own modules: a path under them that names no kimi-ts tool cannot load here. */
export function isKimiCliToolPath(spec: string): boolean {
  return spec.startsWith('kimi_cli.');
}

/** The kimi-ts tool spec a Kimi CLI path names (`kimi_cli.tools.shell:Shell`); null for any other. */
export function kimiTsToolFor(spec: string): string | null {
  return Object.hasOwn(KIMI_CLI_TOOLS, spec) ? (KIMI_CLI_TOOLS[spec] ?? null) : null;
}

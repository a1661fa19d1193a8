import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, SerialJsonWriter, writeJsonAtomic } from '../../util/json-file.js';
import { isTaskId } from './task-ids.js';
import { type TaskRuntime, type TaskSpec, taskFileSchemas } from './task-model.js';

/** The files of one task: `<sessionDir>/tasks/<id>/{spec.json, runtime.json, output.log}`. */
export class TaskFolder {
  readonly dir: string;
  readonly outputPath: string;
  /** Resolves once the folder and its first files exist. */
  readonly ready: Promise<void>;
  private readonly runtimeWriter: SerialJsonWriter;

  /** `runtime` is read whenever runtime.json is rewritten, so the file follows the latest state. */
  private constructor(tasksDir: string, id: string, runtime: () => TaskRuntime, ready: Promise<void>) {
    this.dir = join(tasksDir, id);
    this.outputPath = join(this.dir, 'output.log');
    this.ready = ready;
    this.runtimeWriter = new SerialJsonWriter(join(this.dir, 'runtime.json'), runtime, ready);
  }

  /** Starts creating a new task's folder: its spec, an empty output file, then its runtime. */
  static create(tasksDir: string, spec: TaskSpec, runtime: () => TaskRuntime): TaskFolder {
    const dir = join(tasksDir, spec.id);
    const ready = (async () => {
      await mkdir(dir, { recursive: true });
      await writeJsonAtomic(join(dir, 'spec.json'), spec);
      await writeFile(join(dir, 'output.log'), '', { flag: 'a' });
    })();
    // Failures surface through `ready` and the runtime writes; this copy only keeps them handled.
    ready.catch(() => {});
    const folder = new TaskFolder(tasksDir, spec.id, runtime, ready);
    void folder.saveRuntime().catch(() => {});
    return folder;
  }

  /** The folder of a task found on disk. */
  static existing(tasksDir: string, id: string, runtime: () => TaskRuntime): TaskFolder {
    return new TaskFolder(tasksDir, id, runtime, Promise.resolve());
  }

  saveRuntime(): Promise<void> {
    return this.runtimeWriter.write();
  }

  flush(): Promise<void> {
    return this.runtimeWriter.flush();
  }
}

export interface StoredTask {
  spec: TaskSpec;
  runtime: TaskRuntime;
}

/** Every task found under `tasksDir` whose files are readable, oldest first. */
export async function loadStoredTasks(tasksDir: string): Promise<StoredTask[]> {
  let names: string[];
  try {
    names = await readdir(tasksDir);
  } catch {
    return [];
  }
  const tasks: StoredTask[] = [];
  for (const name of names.filter(isTaskId)) {
    const spec = await readJsonFile(join(tasksDir, name, 'spec.json'), taskFileSchemas().taskSpecSchema);
    const runtime = await readJsonFile(
      join(tasksDir, name, 'runtime.json'),
      taskFileSchemas().taskRuntimeSchema,
    );
    if (spec && runtime && spec.id === name) tasks.push({ spec, runtime });
  }
  return tasks.sort((a, b) => a.spec.created_at - b.spec.created_at);
}

import { type PackObject, writePack } from './pack-file.js';
import { type ObjectSink, type ObjectType, objectId, writeLooseObject } from './store-objects.js';

/** From this many objects on, a batch is written as one pack (a first record); fewer go loose. */
export const PACK_FROM_OBJECTS = 3;

/**
 * The objects of one record, kept in memory and written together at its end (`flush`): as one pack
 * when there are several (a folder's first record written in-process: its blobs and trees, the
 * checkpoint's top tree and commit), as loose objects when few (a later record's top tree and
 * commit: a pack per step would leave a long session hundreds of packs for git to search).
 *
 * A file that names the objects (a session index) must not be on disk before them: a crash in
 * between left an index git trusts and a tree it cannot write. Such a file is handed to
 * `afterObjects` and written by `flush`, after them.
 */
export class ObjectBatch implements ObjectSink {
  private objects: PackObject[] = [];
  private readonly ids = new Set<string>();
  private dependents: (() => void)[] = [];

  constructor(readonly gitDir: string) {}

  add(type: ObjectType, body: Buffer): string {
    const id = objectId(type, body);
    if (!this.ids.has(id)) {
      this.ids.add(id);
      this.objects.push({ id, type, body });
    }
    return id;
  }

  /** Has `write` run by the next flush, once the objects are written. */
  afterObjects(write: () => void): void {
    this.dependents.push(write);
  }

  /** Writes the objects taken since the last flush, then the files that name them. */
  flush(): void {
    const [objects, dependents] = [this.objects, this.dependents];
    this.objects = [];
    this.dependents = [];
    this.ids.clear();
    if (objects.length >= PACK_FROM_OBJECTS) writePack(this.gitDir, objects);
    else for (const { type, body } of objects) writeLooseObject(this.gitDir, type, body);
    for (const write of dependents) write();
  }
}

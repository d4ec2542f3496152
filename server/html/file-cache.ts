import fs from 'node:fs';

/**
 * Built files loaded once per version: a file's value is kept until its mtime changes, so a rebuild is picked up
 * without a restart. A missing file reads as undefined; what `load` throws goes to the caller.
 */
export class FileCache<T> {
  private readonly entries = new Map<string, { mtimeMs: number; value: T }>();

  constructor(private readonly load: (file: string) => T) {}

  get(file: string): T | undefined {
    const mtimeMs = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    const hit = this.entries.get(file);
    if (hit?.mtimeMs === mtimeMs) return hit.value;
    const value = this.load(file);
    this.entries.set(file, { mtimeMs, value });
    return value;
  }
}

/** A built JSON file's value. */
export const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
